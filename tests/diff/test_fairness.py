"""The fairness report: acceleration and cluster identity are expected, the rest is not."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from tests.diff.plan_dirs import copy_project, write_plan_dir
from tests.stack_helpers import REPO, example_config, with_data_stack
from trainstack.cli import main
from trainstack.core.project import Project
from trainstack.core.yaml.io import dump_yaml
from trainstack.diff.compare import compare
from trainstack.diff.fairness import FairnessReport, classify
from trainstack.diff.model import ConfigChange, Snapshot, StackDiff
from trainstack.diff.render_fairness import fairness_markdown
from trainstack.diff.snapshot import load_snapshot
from trainstack.diff.sources import two_stacks

NODE_POOL = "alicloud:cs/nodePool:NodePool gpu-v100-pool"
CPU_POOL = "alicloud:cs/nodePool:NodePool cpu-pool"
CLUSTER = "alicloud:cs/managedKubernetes:ManagedKubernetes cluster-cluster"
FILLS = "Job vision/populate-imagenet-data"
WAITS = "Job vision/wait-populated-imagenet-data"
INPUTS = "ConfigMap vision/populate-imagenet-data"  # the populate Job's inputs (aiacc only)


def _stacks(
    directory: Path,
    baseline_changes: dict[str, object],
    existing: bool = False,
    baseline_create: dict[str, object] | None = None,
) -> Project:
    """The example stacks in ``directory`` (the shared cluster template written out into
    each), the baseline's node pool changed as given; ``existing``: both on existing ACK
    clusters (a clusterId each) instead of creating theirs; ``baseline_create``: changes
    to the baseline's ``create``."""
    for stack in ("aiacc", "baseline"):
        config = example_config(stack)
        cluster = config["trainstack:cluster"]
        if existing:
            del cluster["create"]
            cluster["clusterId"] = f"<ACK cluster ID of {stack}>"
        if stack == "baseline":
            config["trainstack:nodePools"][0].update(baseline_changes)
            cluster.get("create", {}).update(baseline_create or {})
        (directory / f"Pulumi.{stack}.yaml").write_text(dump_yaml({"config": config}))
    return Project(root=REPO, name="trainstack", stack_config_dir=with_data_stack(directory))


def _report(project: Project) -> FairnessReport:
    compared = two_stacks(project, "aiacc", "baseline", context=3)
    return classify(compared.diff, compared.before, compared.after)


def test_example_stacks_are_fair() -> None:
    report = _report(Project.load(REPO))

    assert report.fair, report.of("other")
    # Both create their cluster from one template: only its name (after the stack) differs;
    # aiacc fills ImageNet, baseline waits for the same fill.
    identity = [(f.subject, f.detail) for f in report.of("cluster identity")]
    assert identity[3] == (
        CLUSTER,
        'inputs.name: "trainstack-aiacc" -> "trainstack-baseline"',
    )
    assert [subject for subject, _ in identity[:3]] == [INPUTS, FILLS, WAITS]
    assert identity[1][1].startswith("fills, or waits for, the same data (populate sha256:")
    # AIACC is switched on per job: its overrides are the accelerated differences.
    accelerated = {finding.subject for finding in report.of("acceleration")}
    assert "MPIJob vision/imagenet-tensorflow" in accelerated
    assert "kubernetes:helm.sh/v3:Release imagenet-tensorflow-release" in accelerated


def test_a_different_node_count_is_unfair_and_named(tmp_path: Path) -> None:
    report = _report(_stacks(tmp_path, {"desiredSize": 5}))

    assert not report.fair
    assert [(f.category, f.subject, f.detail) for f in report.of("other")] == [
        # The provider takes the size as a string.
        ("other", NODE_POOL, 'inputs.desiredSize: "4" -> "5"')
    ]
    assert [f.subject for f in report.of("cluster identity")] == [INPUTS, FILLS, WAITS, CLUSTER]


def test_existing_clusters_differ_in_their_ids_as_expected(tmp_path: Path) -> None:
    report = _report(_stacks(tmp_path, {"desiredSize": 5}, existing=True))

    assert [(f.subject, f.detail) for f in report.of("other")] == [
        (NODE_POOL, 'inputs.desiredSize: "4" -> "5"')
    ]
    # The cluster ID on the same object is still expected.
    assert [f.subject for f in report.of("cluster identity")] == [
        INPUTS,
        FILLS,
        WAITS,
        CPU_POOL,
        NODE_POOL,
    ]
    assert report.of("cluster identity")[3].detail.startswith("inputs.clusterId: ")


@pytest.mark.parametrize(
    ("change", "detail"),
    [
        # the template's placeholder (shown cut short) against a release: the key is named
        ({"version": "1.35.1-aliyun.1"}, 'inputs.version: "<exact 1.35 release ACK'),
        ({"clusterSpec": "ack.pro.xlarge"}, 'inputs.clusterSpec: "ack.pro.small"'),
    ],
)
def test_a_created_cluster_that_differs_is_unfair_and_named(
    tmp_path: Path, change: dict[str, object], detail: str
) -> None:
    report = _report(_stacks(tmp_path, {}, baseline_create=change))

    assert not report.fair
    (finding,) = report.of("other")
    assert finding.subject == CLUSTER
    assert finding.detail.startswith(detail)
    assert finding.detail.endswith(f"-> {json.dumps(next(iter(change.values())))}")


def test_the_command_fails_and_names_the_difference(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    project = copy_project(tmp_path)
    # the baseline no longer shares the template: its own copy, with two more GPU nodes
    config = example_config("baseline")
    config["trainstack:nodePools"][0]["desiredSize"] = 6
    (project / "stacks" / "Pulumi.baseline.yaml").write_text(dump_yaml({"config": config}))
    monkeypatch.chdir(project)
    monkeypatch.setattr(sys, "argv", ["trainstack", "diff", "aiacc", "baseline", "--fairness"])

    with pytest.raises(SystemExit) as stop:
        main()

    out = capsys.readouterr().out
    assert stop.value.code == 1
    assert out.splitlines()[0].startswith(
        "fairness aiacc -> baseline: NOT COMPARABLE: 1 difference"
    )
    assert f'  other             {NODE_POOL}: inputs.desiredSize: "4" -> "6"' in out.splitlines()


def _experiments_report(
    tmp_path: Path,
    before: dict[str, int],
    after: dict[str, int],
    after_overrides: dict[str, dict[str, str]],
) -> FairnessReport:
    first = write_plan_dir(tmp_path / "a", "aiacc", before, {"resnet": {"AIACC": "1"}})
    second = write_plan_dir(tmp_path / "b", "baseline", after, after_overrides)
    old, new = load_snapshot(first), load_snapshot(second)
    return classify(compare(old, new, "aiacc", "baseline"), old, new)


def test_acceleration_overrides_of_an_experiment_are_expected(tmp_path: Path) -> None:
    report = _experiments_report(tmp_path, {"resnet": 2}, {"resnet": 2}, {})

    assert report.fair
    assert {f.subject for f in report.of("acceleration")} == {
        "MPIJob default/resnet",
        "kubernetes:helm.sh/v3:Release resnet-release",
    }
    release = [f for f in report.findings if f.subject.endswith("resnet-release")][0]
    # The cause (the overrides), the same for the release and for the job it renders.
    assert {f.detail for f in report.of("acceleration")} == {
        'acceleration overrides differ: env: {"AIACC": "1"} -> (absent)'
    }
    assert release.category == "acceleration"


def test_a_different_experiment_shape_is_unfair(tmp_path: Path) -> None:
    report = _experiments_report(tmp_path, {"resnet": 2}, {"resnet": 4}, {"resnet": {"AIACC": "1"}})

    assert not report.fair
    details = {f.detail for f in report.of("other")}
    assert details == {"experiment default/resnet base values differ: worker.replicas: 2 -> 4"}


def test_an_experiment_on_one_side_only_is_unfair(tmp_path: Path) -> None:
    report = _experiments_report(
        tmp_path, {"resnet": 2}, {"resnet": 2, "extra": 1}, {"resnet": {"AIACC": "1"}}
    )

    assert {(f.subject, f.detail) for f in report.of("other")} == {
        ("MPIJob default/extra", "experiment default/extra exists only in baseline"),
        (
            "kubernetes:helm.sh/v3:Release extra-release",
            "experiment default/extra exists only in baseline",
        ),
    }


@pytest.mark.parametrize(
    ("key", "category"),
    [
        ("trainstack:kubeconfig", "cluster identity"),
        ("alicloud:secretKey", "cluster identity"),
        ("trainstack:datasetToken", "other"),
    ],
)
def test_secure_config_keys(key: str, category: str) -> None:
    empty = Snapshot(stack="s", objects={})
    stack_diff = StackDiff("a", "b", (), (ConfigChange(key, "changed"),))

    [finding] = classify(stack_diff, empty, empty).findings

    assert (finding.category, finding.subject) == (category, f"secure config {key}")
    assert finding.detail == "changed (value masked)"


def test_markdown_report_leads_with_the_verdict(tmp_path: Path) -> None:
    report = _experiments_report(tmp_path, {"resnet": 2}, {"resnet": 4}, {"resnet": {"AIACC": "1"}})

    comment = fairness_markdown(report)

    lines = comment.splitlines()
    assert lines[0] == "### trainstack fairness: `aiacc` → `baseline`"
    assert lines[2].startswith(":x: **NOT COMPARABLE: 2 difference(s)")
    # One row per fact: both objects of the experiment share it.
    assert (
        "| other | 2 | `MPIJob default/resnet`, `kubernetes:helm.sh/v3:Release resnet-release` | "
        "`experiment default/resnet base values differ: worker.replicas: 2 -> 4` |"
    ) in comment.splitlines()


def _with_settings(
    directory: Path, aiacc: dict[str, object], baseline: dict[str, object]
) -> Project:
    """The example stacks with extra provider settings (``alicloud:*``) per stack."""
    for stack, settings in (("aiacc", aiacc), ("baseline", baseline)):
        config = {**example_config(stack), **settings}
        (directory / f"Pulumi.{stack}.yaml").write_text(dump_yaml({"config": config}))
    return Project(root=REPO, name="trainstack", stack_config_dir=with_data_stack(directory))


def test_a_different_region_is_unfair(tmp_path: Path) -> None:
    report = _report(_with_settings(tmp_path, {}, {"alicloud:region": "cn-hangzhou"}))

    assert not report.fair
    assert [(f.subject, f.detail) for f in report.of("other")] == [
        ("config alicloud:region", 'value: "cn-beijing" -> "cn-hangzhou"')
    ]


def test_credentials_set_on_one_stack_only_are_cluster_identity(tmp_path: Path) -> None:
    secret = {"alicloud:accessKey": {"secure": "v1:cipher-of-the-aiacc-key"}}
    report = _report(_with_settings(tmp_path, secret, {}))

    assert report.fair, report.of("other")
    assert "config alicloud:accessKey" in {f.subject for f in report.of("cluster identity")}


def _dataset_report(directory: Path, baseline_dataset: dict[str, object]) -> FairnessReport:
    for stack in ("aiacc", "baseline"):
        config = example_config(stack)
        if stack == "baseline":
            config["trainstack:datasets"][0].update(baseline_dataset)
        (directory / f"Pulumi.{stack}.yaml").write_text(dump_yaml({"config": config}))
    data = example_config("imagenet")
    data["trainstack:dataStore"]["fileSystems"][0]["zoneId"] = "cn-beijing-g"
    (directory / "Pulumi.imagenet-g.yaml").write_text(dump_yaml({"config": data}))
    project = Project(root=REPO, name="trainstack", stack_config_dir=with_data_stack(directory))
    return _report(project)


def test_the_example_clusters_mount_the_same_imagenet() -> None:
    report = _report(Project.load(REPO))
    assert not [f for f in report.findings if f.subject.startswith("dataset ")]


def test_a_dataset_in_another_zone_is_unfair_and_names_the_key(tmp_path: Path) -> None:
    source = {"type": "stack-reference", "stack": "imagenet-g", "dataset": "imagenet-data"}
    report = _dataset_report(tmp_path, {"source": source})
    findings = [(f.subject, f.detail) for f in report.of("other") if f.subject.startswith("data")]
    assert findings == [
        (
            "dataset imagenet-data",
            'reads different data: fileSystem "data stack imagenet, file system imagenet-data" '
            '(aiacc: trainstack:datasets[0].source) -> "data stack imagenet-g, file system '
            'imagenet-data" (baseline: trainstack:datasets[0].source)',
        ),
        (
            "dataset imagenet-data",
            'reads different data: zoneId "<zone of the GPU nodes\' vSwitch, e.g. cn-beijing-h>" '
            "(aiacc: "
            f"trainstack:dataStore.fileSystems[0].zoneId in {tmp_path.name}/Pulumi.imagenet.yaml)"
            ' -> "cn-beijing-g" (baseline: trainstack:dataStore.fileSystems[0].zoneId in '
            f"{tmp_path.name}/Pulumi.imagenet-g.yaml)",
        ),
    ]
    assert not report.fair


def test_a_cluster_with_its_own_copy_of_the_data_is_unfair(tmp_path: Path) -> None:
    own = {"type": "alicloud-nas", "create": {"zoneId": "cn-beijing-h"}}
    report = _dataset_report(tmp_path, {"source": own})
    (finding,) = [f for f in report.of("other") if f.subject == "dataset imagenet-data"][:1]
    assert finding.detail == (
        'reads different data: fileSystem "data stack imagenet, file system imagenet-data" '
        '(aiacc: trainstack:datasets[0].source) -> "a NAS file system created by stack '
        'baseline" (baseline: trainstack:datasets[0].source.create)'
    )


def test_different_mount_options_are_unfair(tmp_path: Path) -> None:
    report = _dataset_report(tmp_path, {"mountOptions": ["vers=4"]})
    details = [f.detail for f in report.of("other") if f.subject == "dataset imagenet-data"]
    assert details == [
        'reads different data: mountOptions ["nolock", "tcp", "noresvport", "vers=3"] (aiacc: '
        'trainstack:datasets[0].mountOptions) -> ["vers=4"] (baseline: '
        "trainstack:datasets[0].mountOptions)"
    ]


def test_text_report_has_one_line_per_fact_with_the_count(tmp_path: Path) -> None:
    from trainstack.diff.render_fairness import fairness_lines

    workers = {"a": 2, "b": 2, "c": 2}
    accelerated = {name: {"AIACC": "1"} for name in workers}
    first = write_plan_dir(tmp_path / "a", "aiacc", workers, accelerated)
    second = write_plan_dir(tmp_path / "b", "baseline", workers, {})
    old, new = load_snapshot(first), load_snapshot(second)
    report = classify(compare(old, new, "aiacc", "baseline"), old, new)
    lines = [line for line, _ in fairness_lines(report)]

    # 3 experiments x (release + job) = 6 objects, one cause: the overrides.
    assert lines[1:] == [
        "  acceleration      6 objects (MPIJob default/a, MPIJob default/b, MPIJob default/c "
        'and 3 more): acceleration overrides differ: env: {"AIACC": "1"} -> (absent)'
    ]


def test_a_team_default_that_changes_what_the_pods_get_is_unfair(tmp_path: Path) -> None:
    """The LimitRange differs, and so does what workload 1's pods get: named per experiment."""
    for stack in ("aiacc", "baseline"):
        config = example_config(stack)
        if stack == "baseline":
            config["trainstack:teams"][0]["containerDefaults"]["limits"]["memory"] = "64Gi"
        (tmp_path / f"Pulumi.{stack}.yaml").write_text(dump_yaml({"config": config}))
    project = Project(root=REPO, name="trainstack", stack_config_dir=with_data_stack(tmp_path))

    report = _report(project)

    assert not report.fair
    (imagenet,) = [
        f for f in report.of("other") if f.subject == "experiment vision/imagenet-tensorflow"
    ]
    assert imagenet.detail == (
        'its pods get launcher.limits.memory: "48Gi" -> "64Gi"; worker.limits.memory: "48Gi" -> '
        '"64Gi"'
    )


def test_health_30_percent_apart_on_one_node_is_not_comparable_naming_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from tests.health.factories import BUSBW, NODES, facts
    from trainstack.health.store import write_health

    project = copy_project(tmp_path)
    write_health(project, facts("aiacc"))
    write_health(project, facts("baseline", busbw={NODES[3]: BUSBW * 0.7}))
    monkeypatch.chdir(project)
    monkeypatch.setattr(sys, "argv", ["trainstack", "diff", "aiacc", "baseline", "--fairness"])

    with pytest.raises(SystemExit) as stop:
        main()

    lines = capsys.readouterr().out.splitlines()
    assert stop.value.code == 1
    assert lines[0].startswith(
        "fairness aiacc -> baseline: NOT COMPARABLE: the GPUs or their interconnect are not "
        "healthy or not equally fast (health: 1 not comparable)"
    )
    # the last finding (a note on the data's manifest follows the findings)
    assert [line for line in lines if not line.startswith("note: ")][-1] == (
        f"  health            not comparable: baseline node {NODES[3]}: busbw within the node "
        "91 GB/s vs aiacc 130 GB/s (median of its 4 node(s) of pool gpu-v100): -30.0%, "
        "beyond ±5%"
    )

    write_health(project, facts("baseline"))  # equal: the stacks compare again
    with pytest.raises(SystemExit) as stop:
        main()
    assert stop.value.code == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first.startswith("fairness aiacc -> baseline: fair:")
    assert first.endswith("; health measured on both, equal within 5%")
