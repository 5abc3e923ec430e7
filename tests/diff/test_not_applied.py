"""Changes ``pulumi up`` accepts and never applies (inputs ACK reads at creation only):
their own section after the data at risk, in text, markdown and JSON; no exit status of
their own. Every diff here is of two real plans of the example stacks."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.diff.plan_dirs import copy_project, init_repo
from tests.stack_helpers import REPO, example_config
from trainstack.cli import main
from trainstack.core.project import Project
from trainstack.core.yaml.io import dump_yaml
from trainstack.diff.render_json import diff_json
from trainstack.diff.render_markdown import markdown
from trainstack.diff.render_text import text_lines
from trainstack.diff.sources import Compared, against_base, two_stacks

CLUSTER = "alicloud:cs/managedKubernetes:ManagedKubernetes cluster-cluster"
DETECTOR = {"name": "ack-node-problem-detector"}
ADDON_WHY = (
    "not applied to the running cluster: ACK reads it at creation only; install an add-on "
    "on a running cluster with alicloud.cs.KubernetesAddon, as the acceleration component "
    "is (docs/clusters.md)"
)
# The cluster's add-ons in the plan: the network plug-in first, then the template's four.
ADDED = 'inputs.addons[5]: "(absent)" -> {"name": "ack-node-problem-detector"}'
NOT_APPLIED_TITLE = (
    "NOT APPLIED: 1 resource(s) with changed inputs read at creation only; `pulumi up` "
    "reports success and the running resource keeps its old settings"
)


def _write(directory: Path, stacks: dict[str, dict[str, Any]]) -> None:
    for name, config in stacks.items():
        (directory / f"Pulumi.{name}.yaml").write_text(dump_yaml({"config": config}))
    (directory / "Pulumi.imagenet.yaml").write_text(
        (REPO / "stacks" / "Pulumi.imagenet.yaml").read_text()
    )


def _compare(tmp_path: Path, before: dict[str, Any], after: dict[str, Any]) -> Compared:
    _write(tmp_path, {"before": before, "after": after})
    project = Project(root=REPO, name="trainstack", stack_config_dir=tmp_path)
    return two_stacks(project, "before", "after", context=3)


def _ack(stack: str = "aiacc") -> dict[str, Any]:
    config = example_config(stack)
    config["trainstack:experiments"] = {"select": []}
    config["trainstack:datasets"] = config["trainstack:datasets"][:1]  # ImageNet only
    return config


def _existing(config: dict[str, Any]) -> dict[str, Any]:
    """``config`` naming an existing ACK cluster in the same network instead of creating one."""
    cluster = config["trainstack:cluster"]
    del cluster["create"]
    cluster["clusterId"] = "c5e1f8a2b7"
    return config


def _with_addon(config: dict[str, Any]) -> dict[str, Any]:
    config["trainstack:cluster"]["create"]["addons"].append(dict(DETECTOR))
    return config


def test_an_added_addon_is_not_applied_in_text_markdown_and_json(tmp_path: Path) -> None:
    compared = _compare(tmp_path, _ack(), _with_addon(_ack()))
    diff = compared.diff
    assert diff.data_risks == ()
    assert [str(found) for found in diff.not_applied] == [f"{CLUSTER} ({ADDED}): {ADDON_WHY}"]
    # still an ordinary change of the cluster, shown as every change is
    [changed] = [item for item in diff.shown if item.key.label == CLUSTER]
    assert "+  - name: ack-node-problem-detector" in changed.diff_lines

    lines = text_lines([diff])
    assert lines[0] == (NOT_APPLIED_TITLE, "bold yellow")
    assert lines[1] == (f"  before -> after: {CLUSTER} ({ADDED}): {ADDON_WHY}", "yellow")
    assert lines[2] == ("", "")
    assert lines[3][0].startswith("trainstack diff before -> after: 0 added, 0 removed, 1 changed")

    comment = markdown([diff])
    assert comment.startswith(
        "> [!WARNING]\n> **Not applied:** 1 resource(s) with changed inputs read at creation "
        "only: `pulumi up` reports success and the running resource keeps its old settings. "
        "No data at risk; the exit status is that of any change.\n>\n"
    )
    assert (
        f"> - `{CLUSTER}` (`before` → `after`): "
        '`inputs.addons[5]: "(absent)" -> {"name": "ack-node-problem-detector"}`: '
        f"`{ADDON_WHY}`\n"
    ) in comment
    assert comment.index("[!WARNING]") < comment.index("### trainstack diff")
    assert "[!CAUTION]" not in comment

    document = json.loads(diff_json([diff]))
    assert (document["changes"], document["dataAtRisk"], document["notApplied"]) == (
        True,
        False,
        True,
    )
    [stack] = document["stacks"]
    assert stack["dataAtRisk"] == []
    assert stack["notApplied"] == [
        {
            "object": CLUSTER,
            "inputs": [{"path": "inputs.addons[5]", "before": None, "after": DETECTOR}],
            "why": ADDON_WHY,
        }
    ]


def test_beside_data_at_risk_it_has_its_own_section(tmp_path: Path) -> None:
    after = _with_addon(_ack())
    after["trainstack:datasets"] = []
    diff = _compare(tmp_path, _ack(), after).diff
    assert [risk.kind for risk in diff.data_risks] == ["deleted"]
    assert [found.label for found in diff.not_applied] == [CLUSTER]

    texts = [text for text, _ in text_lines([diff])]
    assert texts[0].startswith("DATA AT RISK: 1 data-bearing resource(s)")
    assert texts[1].startswith("  before -> after: deleted: PersistentVolume imagenet-data")
    assert texts[2:5] == [
        "",
        NOT_APPLIED_TITLE,
        f"  before -> after: {CLUSTER} ({ADDED}): {ADDON_WHY}",
    ]
    comment = markdown([diff])
    caution, warning = comment.index("> [!CAUTION]"), comment.index("> [!WARNING]")
    # each in its own block: the caution ends (a blank line) where the warning starts
    assert caution < warning < comment.index("### trainstack diff")
    block = comment[caution:warning]
    assert block.endswith("\n\n") and block.count("\n\n") == 1
    assert CLUSTER not in block


def test_network_inputs_say_only_a_new_cluster_takes_them(tmp_path: Path) -> None:
    after = _ack()
    network = after["trainstack:cluster"]["create"]["network"]
    network["podVswitchIds"] = ["vsw-pods1", "vsw-pods2"]
    network["newNatGateway"] = False
    [found] = _compare(tmp_path, _ack(), after).diff.not_applied
    assert [(c.location, c.after) for c in found.changes] == [
        (("inputs", "newNatGateway"), False),
        (("inputs", "podVswitchIds", 0), "vsw-pods1"),
        (("inputs", "podVswitchIds", 1), "vsw-pods2"),
    ]
    # one remedy for the network inputs, said once
    assert found.why == (
        "not applied to the running cluster: ACK reads it at creation only; only a new "
        "cluster is created with it (a new stack, docs/clusters.md): the provider never "
        "sends it to a running one"
    )


def test_at_most_three_changes_are_shown_and_the_rest_counted(tmp_path: Path) -> None:
    after = _ack()
    create = after["trainstack:cluster"]["create"]
    create["addons"] = [{**addon, "version": "1.0.0"} for addon in create["addons"]]
    [found] = _compare(tmp_path, _ack(), after).diff.not_applied
    assert len(found.changes) == 4
    assert found.shown() == (
        'inputs.addons[1].version: "(absent)" -> "1.0.0"; '
        'inputs.addons[2].version: "(absent)" -> "1.0.0"; '
        'inputs.addons[3].version: "(absent)" -> "1.0.0"; and 1 more'
    )


def test_a_replacing_change_is_data_at_risk_only(tmp_path: Path) -> None:
    after = _ack()
    after["trainstack:cluster"]["create"]["network"]["serviceCidr"] = "172.22.0.0/20"
    diff = _compare(tmp_path, _ack(), after).diff
    assert [(risk.kind, risk.label) for risk in diff.data_risks] == [("replaced", CLUSTER)]
    assert diff.not_applied == ()
    # with an add-on too: the replacement is a new cluster, created with it
    _with_addon(after)
    diff = _compare(tmp_path, _ack(), after).diff
    assert [(risk.kind, risk.label) for risk in diff.data_risks] == [("replaced", CLUSTER)]
    assert diff.not_applied == ()


def test_a_new_cluster_is_not_flagged(tmp_path: Path) -> None:
    diff = _compare(tmp_path, _existing(_ack()), _with_addon(_ack())).diff
    assert [item.status for item in diff.objects if item.key.label == CLUSTER] == ["added"]
    assert diff.not_applied == ()


def test_an_existing_cluster_or_a_removed_one_is_not_flagged(tmp_path: Path) -> None:
    existing = _existing(_ack())
    grown = _existing(_ack())
    grown["trainstack:nodePools"][1]["desiredSize"] = 3
    diff = _compare(tmp_path, existing, grown).diff
    assert diff.has_changes and diff.not_applied == ()
    # created before, an existing cluster named now: the created one is deleted, no more
    diff = _compare(tmp_path, _ack(), existing).diff
    assert ("deleted", CLUSTER) in [(risk.kind, risk.label) for risk in diff.data_risks]
    assert diff.not_applied == ()


def test_the_onprem_stack_is_not_flagged(tmp_path: Path) -> None:
    before = example_config("onprem")
    after = example_config("onprem")
    after["trainstack:nodePools"][0]["labels"]["team"] = "vision"
    diff = _compare(tmp_path, before, after).diff
    assert diff.has_changes and diff.not_applied == ()
    assert not markdown([diff]).startswith("> [!WARNING]")


def _command(
    monkeypatch: pytest.MonkeyPatch, argv: list[str], capsys: pytest.CaptureFixture[str]
) -> tuple[int | str | None, str]:
    """Run ``trainstack ARGV``; its exit status and stdout."""
    monkeypatch.setattr(sys, "argv", ["trainstack", *argv])
    with pytest.raises(SystemExit, match=r"^\d$") as stop:
        main()
    return stop.value.code, capsys.readouterr().out


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A project whose stacks `before` and `addon` differ by one add-on, `cidr` by the
    Service CIDR (it replaces the cluster)."""
    root = tmp_path_factory.mktemp("not-applied")
    (root / "stacks").mkdir()
    (root / "Pulumi.yaml").write_text((REPO / "Pulumi.yaml").read_text())
    cidr = _ack()
    cidr["trainstack:cluster"]["create"]["network"]["serviceCidr"] = "172.22.0.0/20"
    _write(root / "stacks", {"before": _ack(), "addon": _with_addon(_ack()), "cidr": cidr})
    for name in ("__main__.py", "components", "trainstack", "charts"):
        (root / name).symlink_to(REPO / name)
    # A copy: experiments/ linked out of the project is refused (never followed).
    shutil.copytree(REPO / "experiments", root / "experiments")
    return root


@pytest.mark.parametrize("output", ["text", "markdown", "json"])
def test_the_exit_status_is_that_of_a_change(
    project: Path,
    output: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(project)
    status, out = _command(monkeypatch, ["diff", "before", "addon", "--format", output], capsys)
    assert status == 1
    if output == "json":
        [found] = json.loads(out)["stacks"][0]["notApplied"]
        assert found["inputs"] == [{"path": "inputs.addons[5]", "before": None, "after": DETECTOR}]
    else:
        first = {"text": NOT_APPLIED_TITLE, "markdown": "> [!WARNING]\n> **Not applied:** 1"}
        assert out.startswith(first[output])
        assert ADDED in out


def test_a_replacing_change_still_exits_3(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(project)
    status, out = _command(monkeypatch, ["diff", "before", "cidr"], capsys)
    assert status == 3
    assert out.startswith("DATA AT RISK: 1 data-bearing resource(s)")
    assert "NOT APPLIED" not in out


def test_a_change_of_the_shared_template_shows_in_each_stack(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    root = init_repo(copy_project(tmp_path / "repo"))
    template = root / "stacks" / "templates" / "workload-1-ack.yaml"
    text = template.read_text()
    marker = "      - name: arms-prometheus\n"
    assert marker in text
    template.write_text(text.replace(marker, marker + "      - name: ack-node-problem-detector\n"))

    compared = against_base(Project.load(root), "HEAD", ["aiacc", "baseline"], context=3)
    assert [(c.diff.title, [str(f) for f in c.diff.not_applied]) for c in compared] == [
        ("aiacc@HEAD -> aiacc", [f"{CLUSTER} ({ADDED}): {ADDON_WHY}"]),
        ("baseline@HEAD -> baseline", [f"{CLUSTER} ({ADDED}): {ADDON_WHY}"]),
    ]
    assert all(c.diff.data_risks == () for c in compared)

    monkeypatch.chdir(root)
    status, out = _command(
        monkeypatch, ["diff", "--base", "main", "aiacc", "baseline", "--format", "json"], capsys
    )
    assert status == 1
    document = json.loads(out)
    assert (document["dataAtRisk"], document["notApplied"]) == (False, True)
    assert [
        (stack["after"], [found["object"] for found in stack["notApplied"]])
        for stack in document["stacks"]
    ] == [("aiacc", [CLUSTER]), ("baseline", [CLUSTER])]
