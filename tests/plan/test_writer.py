"""write_plan: deterministic files, one YAML view per resource, never half-written."""

from __future__ import annotations

import errno
import json
from pathlib import Path

import pytest

from trainstack.core.errors import OutputError
from trainstack.core.project import Project
from trainstack.core.yaml.io import read_yaml
from trainstack.plan.model import Plan
from trainstack.plan.runner import plan_stack
from trainstack.plan.writer import RESOURCES_JSON, SECRET_DIGESTS_JSON, write_plan


def _tree(directory: Path) -> dict[str, bytes]:
    return {
        str(path.relative_to(directory)): path.read_bytes()
        for path in sorted(directory.rglob("*"))
        if path.is_file()
    }


def test_same_input_gives_byte_identical_files(project: Project, tmp_path: Path) -> None:
    write_plan(plan_stack(project, "aiacc"), tmp_path / "one")
    write_plan(plan_stack(project, "aiacc"), tmp_path / "two")
    one, two = _tree(tmp_path / "one"), _tree(tmp_path / "two")
    assert one and one == two


def test_resources_json_lists_every_resource_sorted_by_urn(
    example_plans: dict[str, Plan], tmp_path: Path
) -> None:
    written = write_plan(example_plans["baseline"], tmp_path)
    items = json.loads((written / RESOURCES_JSON).read_text())
    assert [item["urn"] for item in items] == sorted(item["urn"] for item in items)
    assert all(
        set(item) == {"urn", "type", "name", "parent", "inputs", "options"} for item in items
    )
    assert len(items) == len(example_plans["baseline"].resources)


def test_resources_json_records_each_resources_options(
    example_plans: dict[str, Plan], tmp_path: Path
) -> None:
    written = write_plan(example_plans["imagenet"], tmp_path)
    by_type = {item["type"]: item for item in json.loads((written / RESOURCES_JSON).read_text())}
    file_system = by_type["alicloud:nas/fileSystem:FileSystem"]["options"]
    assert file_system == {
        "protect": True,
        "retainOnDelete": True,
        "deleteBeforeReplace": False,
        "dependsOn": [],
        "provider": None,
        "replaceOnChanges": [],
        "ignoreChanges": [],
    }
    mount_target = by_type["alicloud:nas/mountTarget:MountTarget"]["options"]
    assert (mount_target["protect"], mount_target["retainOnDelete"]) == (True, False)
    # The mount target waits for the file system through its input, not through dependsOn.
    assert mount_target["dependsOn"] == []


def test_explicit_dependencies_and_the_provider_are_recorded(
    example_plans: dict[str, Plan], tmp_path: Path
) -> None:
    written = write_plan(example_plans["baseline"], tmp_path)
    items = json.loads((written / RESOURCES_JSON).read_text())
    (claim,) = [
        i
        for i in items
        if i["type"] == "kubernetes:core/v1:PersistentVolumeClaim"
        and i["name"] == "imagenet-data-pvc"
    ]
    prefix = "urn:pulumi:baseline::trainstack::"
    assert (
        claim["options"]["provider"]
        == f"{prefix}pulumi:pulumi:Stack$pulumi:providers:kubernetes::cluster"
    )
    assert (
        f"{prefix}trainstack:storage:DatasetVolume$kubernetes:core/v1:PersistentVolume::"
        "imagenet-data-pv"
    ) in claim["options"]["dependsOn"]
    # A component in dependsOn stands for its children: the team's namespace among them.
    assert (
        f"{prefix}trainstack:teams:Team$kubernetes:core/v1:Namespace::vision-namespace"
        in claim["options"]["dependsOn"]
    )


def test_a_data_stack_writes_its_outputs(example_plans: dict[str, Plan], tmp_path: Path) -> None:
    written = write_plan(example_plans["imagenet"], tmp_path)
    outputs = json.loads((written / "outputs.json").read_text())
    assert outputs["imagenet-data.zoneId"] == "<zone of the GPU nodes' vSwitch, e.g. cn-beijing-h>"
    assert outputs["imagenet-data.vpcId"] == "<VPC ID of both clusters (the ImageNet NAS is in it)>"
    # Known only once the cloud created it.
    assert outputs["imagenet-data.mountTargetDomain"] == "[computed]"


def test_one_readable_yaml_view_per_resource(
    example_plans: dict[str, Plan], tmp_path: Path
) -> None:
    plan = example_plans["aiacc"]
    written = write_plan(plan, tmp_path)
    views = sorted((written / "resources").glob("*.yaml"))
    assert len(views) == len(plan.resources)
    pv = read_yaml(
        written / "resources" / "kubernetes_core+v1_PersistentVolume--imagenet-data-pv.yaml"
    )
    assert pv["inputs"]["spec"]["csi"]["volumeHandle"] == "imagenet-data"


def test_stale_files_are_removed_and_failures_leave_the_old_plan(
    example_plans: dict[str, Plan], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    written = write_plan(example_plans["aiacc"], tmp_path)
    (written / "resources" / "stale.yaml").write_text("old")
    before = _tree(written)

    def explode(*_: object) -> str:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr("trainstack.plan.writer.resource_yaml", explode)
    with pytest.raises(OutputError, match=r"No space left on device \(ENOSPC\); the previous"):
        write_plan(example_plans["aiacc"], tmp_path)
    assert _tree(written) == before
    assert [p.name for p in tmp_path.iterdir()] == ["aiacc"]

    monkeypatch.undo()
    write_plan(example_plans["aiacc"], tmp_path)
    assert not (written / "resources" / "stale.yaml").exists()


def test_secret_digests_are_written_only_for_keyed_plans(
    project: Project, example_plans: dict[str, Plan], tmp_path: Path
) -> None:
    plain = write_plan(example_plans["aiacc"], tmp_path / "plain")
    assert not (plain / SECRET_DIGESTS_JSON).exists()
    keyed = write_plan(plan_stack(project, "aiacc", digest_key=b"k" * 32), tmp_path / "keyed")
    digests = json.loads((keyed / SECRET_DIGESTS_JSON).read_text())
    (provider_urn,) = [urn for urn in digests["resources"] if "providers:kubernetes" in urn]
    assert set(digests["resources"][provider_urn]) == {"kubeconfig"}
