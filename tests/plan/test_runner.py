"""plan_stack: validation first, the real program, and no vacuous plans."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.conftest import StackWriter
from tests.stack_helpers import ACK_STACKS, REPO, example_config, existing_ack_config
from trainstack.core.errors import ConfigError, PlanError
from trainstack.core.project import Project
from trainstack.core.yaml.io import dump_yaml
from trainstack.plan.model import Plan
from trainstack.plan.runner import FETCHED_NOTE, REMOTE_CHART_NOTE, plan_stack


def test_example_plans_register_the_platform(example_plans: dict[str, Plan]) -> None:
    for stack in ACK_STACKS:
        plan = example_plans[stack]
        types = {resource.type for resource in plan.resources}
        assert {
            "alicloud:cs/nodePool:NodePool",
            "kubernetes:core/v1:PersistentVolume",
            "kubernetes:core/v1:PersistentVolumeClaim",
            "kubernetes:helm.sh/v3:Release",
            "pulumi:providers:kubernetes",
        } <= types, stack
        assert all(r.urn.startswith(f"urn:pulumi:{stack}::trainstack::") for r in plan.resources)
        assert [r.urn for r in plan.resources] == sorted(r.urn for r in plan.resources)


def test_bad_config_stops_before_the_program_runs(write_stack: StackWriter) -> None:
    config = example_config("aiacc")
    config["trainstack:nodePools"][0]["gpusPerNode"] = "four"
    with pytest.raises(
        ConfigError, match=r"trainstack:nodePools\[0\]\.gpusPerNode: found \"four\""
    ):
        plan_stack(write_stack(config), "test")


def test_a_program_that_registers_nothing_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "__main__.py").write_text("import pulumi\n")
    (tmp_path / "Pulumi.yaml").write_text("name: trainstack\nruntime: python\n")
    (tmp_path / "experiments").mkdir()
    config = example_config("aiacc")
    config["trainstack:experiments"] = {"select": []}
    config["trainstack:datasets"] = []
    config.pop("trainstack:acknowledge")  # of experiments this project does not have
    (tmp_path / "Pulumi.test.yaml").write_text(dump_yaml({"config": config}))
    with pytest.raises(PlanError, match="registered no resources"):
        plan_stack(Project.load(tmp_path), "test")


def test_a_project_without_its_program_or_chart_is_one_error_naming_both(
    tmp_path: Path,
) -> None:
    """A project copied without the repository's program and chart (only its stacks and
    experiments): refused naming what is missing, before the engine runs."""
    shutil.copytree(REPO / "experiments", tmp_path / "experiments")
    shutil.copytree(REPO / "stacks", tmp_path / "stacks")
    shutil.copy(REPO / "Pulumi.yaml", tmp_path / "Pulumi.yaml")
    with pytest.raises(PlanError, match=r"lacks __main__\.py \(the Pulumi program"):
        plan_stack(Project.load(tmp_path), "aiacc")
    shutil.copy(REPO / "__main__.py", tmp_path / "__main__.py")
    with pytest.raises(PlanError, match=r"lacks charts/training-job \(the training-job chart"):
        plan_stack(Project.load(tmp_path), "aiacc")


def test_remote_installs_and_the_conformance_check_are_noted(
    example_plans: dict[str, Plan],
) -> None:
    notes = example_plans["aiacc"].notes
    assert notes[:2] == (
        REMOTE_CHART_NOTE.format(count=1),  # Kueue
        FETCHED_NOTE.format(count=2),  # mpi-operator's manifest, training-operator's overlay
    )
    # The example stacks have no facts yet: the plan says what its checks used.
    assert notes[2] == (
        "no facts/aiacc.json: the checks used the declared pools and operator versions only "
        "(`trainstack inspect aiacc` reads the cluster's)"
    )
    assert len(notes) == 4 and "checked against" in notes[3]


def test_plans_do_not_leak_between_stacks(project: Project) -> None:
    first = plan_stack(project, "aiacc")
    second = plan_stack(project, "baseline")
    assert not any(":aiacc::" in r.urn for r in second.resources)
    # The same resources but the accelerated cluster's AI Acceleration component (the
    # component and its add-on): otherwise AIACC changes the jobs' values only; and the
    # inputs ConfigMap of the populate Job aiacc runs (baseline's Job only waits).
    added = {r.type for r in first.resources} - {r.type for r in second.resources}
    assert added == {
        "trainstack:acceleration:Acceleration",
        "alicloud:cs/kubernetesAddon:KubernetesAddon",
        "kubernetes:core/v1:ConfigMap",
    }
    assert len(first.resources) == len(second.resources) + 3
    assert REPO == project.root


def test_changed_ciphertext_changes_the_config_digest(write_stack: StackWriter) -> None:
    key = b"d" * 32
    digests = []
    for ciphertext in ("v1:first-ciphertext", "v1:second-ciphertext", "v1:first-ciphertext"):
        config = existing_ack_config()
        config["trainstack:kubeconfig"] = {"secure": ciphertext}
        digests.append(plan_stack(write_stack(config), "test", digest_key=key).config_digests)
    assert set(digests[0]) == {"trainstack:kubeconfig"}
    assert digests[0] != digests[1] and digests[0] == digests[2]
    assert "ciphertext" not in str(digests)


def test_a_stack_reference_is_answered_by_the_data_stacks_own_plan(
    example_plans: dict[str, Plan],
) -> None:
    for stack in ACK_STACKS:
        plan = example_plans[stack]
        (reference,) = plan.of_type("pulumi:pulumi:StackReference")
        assert reference.inputs["name"] == "organization/trainstack/imagenet"
        assert reference.options["read"] is True
        volumes = {r.name: r.inputs for r in plan.of_type("kubernetes:core/v1:PersistentVolume")}
        # The data stack's mount target domain is computed by the cloud: unknown offline.
        assert {name: v["spec"]["csi"]["volumeAttributes"] for name, v in volumes.items()} == {
            "imagenet-data-pv": {"server": "[computed]", "path": "/"},
            "training-results-pv": {"server": "[computed]", "path": "/training-results"},
        }


def test_a_missing_data_stack_is_refused_with_the_key(tmp_path: Path) -> None:
    config = example_config("aiacc")
    (tmp_path / "Pulumi.test.yaml").write_text(dump_yaml({"config": config}))
    project = Project(root=REPO, name="trainstack", stack_config_dir=tmp_path)
    with pytest.raises(ConfigError) as caught:
        plan_stack(project, "test")
    (problem,) = caught.value.problems
    assert problem.path == "trainstack:datasets[0].source.stack"
    assert problem.allowed.startswith("a valid data stack: stack 'imagenet' has no configuration")
