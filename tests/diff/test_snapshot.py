"""Loading a plan directory: keys that ignore the stack, acceleration, experiments, errors."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.diff.plan_dirs import stack_urn, urn, write_plan_dir
from trainstack.core.errors import DiffError
from trainstack.core.limits import MAX_PLAN_FILE_BYTES
from trainstack.diff.snapshot import load_snapshot

ACCELERATION = "trainstack:acceleration:Acceleration"
ADDON = "alicloud:cs/kubernetesAddon:KubernetesAddon"


def _resource(
    stack: str, type_token: str, name: str, parent: str, inputs: dict | None = None
) -> dict:
    return {
        "urn": urn(stack, type_token, name),
        "type": type_token,
        "name": name,
        "parent": parent,
        "inputs": inputs or {},
    }


def test_keys_and_labels(tmp_path: Path) -> None:
    stack = "aiacc"
    root = _resource(stack, "pulumi:pulumi:Stack", f"trainstack-{stack}", "")
    plan = write_plan_dir(tmp_path, stack, {"resnet": 2}, resources=[root])

    snapshot = load_snapshot(plan)

    assert sorted(key.parts for key in snapshot.objects) == [
        ("kubernetes", "MPIJob", "default", "resnet"),
        ("pulumi", "kubernetes:helm.sh/v3:Release", "resnet-release"),
        # The root stack resource is named after the stack: its key is its type alone.
        ("pulumi", "pulumi:pulumi:Stack", ""),
    ]
    release = next(o for o in snapshot.objects.values() if o.key.parts[1].endswith("Release"))
    assert release.document["parent"] == "pulumi:pulumi:Stack"
    assert release.experiment == "default/resnet"


def test_acceleration_component_and_its_descendants(tmp_path: Path) -> None:
    stack = "aiacc"
    component = _resource(stack, ACCELERATION, "acceleration", stack_urn(stack))
    addon = _resource(stack, ADDON, "acceleration-addon", component["urn"], {"name": "ack-aiacc"})
    plan = write_plan_dir(tmp_path, stack, {"resnet": 2}, resources=[component, addon])

    flagged = {o.key.label for o in load_snapshot(plan).objects.values() if o.acceleration}

    assert flagged == {f"{ACCELERATION} acceleration", f"{ADDON} acceleration-addon"}


def test_objects_sharing_a_key_are_told_apart_by_origin(tmp_path: Path) -> None:
    stack = "s"
    metadata = {"name": "resnet", "namespace": "default"}
    job = _resource(
        stack,
        "kubernetes:kubeflow.org/v2beta1:MPIJob",
        "j",
        "",
        {"apiVersion": "kubeflow.org/v2beta1", "kind": "MPIJob", "metadata": metadata},
    )
    plan = write_plan_dir(tmp_path, stack, {"resnet": 2}, resources=[job])

    labels = sorted(key.label for key in load_snapshot(plan).objects if key.parts[1] == "MPIJob")

    assert labels == [
        "MPIJob default/resnet [kubernetes:kubeflow.org/v2beta1:MPIJob::j]",
        "MPIJob default/resnet [release kubernetes:helm.sh/v3:Release::resnet-release]",
    ]


def test_missing_plan(tmp_path: Path) -> None:
    with pytest.raises(DiffError, match=r"no plan in .*: resources.json is missing"):
        load_snapshot(tmp_path / "nothing")


def test_invalid_json_names_the_file_and_line(tmp_path: Path) -> None:
    (tmp_path / "resources.json").write_text("[\n  {\n")

    with pytest.raises(DiffError, match=r"resources.json: not valid JSON \(.* at line 3"):
        load_snapshot(tmp_path)


def test_item_without_a_type_is_named(tmp_path: Path) -> None:
    (tmp_path / "resources.json").write_text(json.dumps([{"urn": "u", "name": "n"}]))

    with pytest.raises(DiffError, match=r"resources.json: item \[0\]: 'type' missing"):
        load_snapshot(tmp_path)


def test_objects_and_experiments_are_optional(tmp_path: Path) -> None:
    (tmp_path / "resources.json").write_text(
        json.dumps([_resource("s", "alicloud:nas/fileSystem:FileSystem", "nas", "")])
    )

    snapshot = load_snapshot(tmp_path)

    assert [key.label for key in snapshot.objects] == ["alicloud:nas/fileSystem:FileSystem nas"]
    assert snapshot.experiments == {}


def test_a_plain_credential_in_an_old_plan_is_masked(tmp_path: Path) -> None:
    """Plans made before plain credentials were refused may hold one: never shown again."""
    (tmp_path / "resources.json").write_text("[]")
    config = {
        "alicloud:region": "cn-beijing",
        "alicloud:secretKey": "Old-Plain-Secret",
        "alicloud:assumeRole": {"roleArn": "r", "sessionToken": "Old-Token"},
    }
    (tmp_path / "provider-config.json").write_text(json.dumps(config))
    snapshot = load_snapshot(tmp_path)
    documents = {key.label: entry.document for key, entry in snapshot.objects.items()}
    assert documents == {
        "config alicloud:region": {"value": "cn-beijing"},
        "config alicloud:secretKey": {"value": "[secret]"},
        "config alicloud:assumeRole": {"value": {"roleArn": "r", "sessionToken": "[secret]"}},
    }


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (
            '[{"urn": "u", "type": "t", "name": "n", "inputs": {"a": '
            + "[" * 100_000
            + "]" * 100_000
            + "}}]",
            "JSON nested more than 64 deep; allowed: at most 64 levels",
        ),
        ("[" * 100_000 + "]" * 100_000, "JSON nested more than 64 deep"),
        # Deeper than trainstack's limit but well within what msgspec itself decodes.
        (
            '[{"urn": "u", "type": "t", "name": "n", "inputs": {"a": '
            + "[" * 70
            + "]" * 70
            + "}}]",
            "JSON nested more than 64 deep; allowed: at most 64 levels",
        ),
        (b'[{"urn": "\xff"}]', r"not UTF-8 \(byte 10\)"),
    ],
)
def test_a_broken_plan_file_is_one_error(
    tmp_path: Path, content: str | bytes, message: str
) -> None:
    path = tmp_path / "resources.json"
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content)
    with pytest.raises(DiffError, match=f"resources.json: {message}"):
        load_snapshot(tmp_path)


def test_a_plan_file_over_the_limit_is_not_read(tmp_path: Path) -> None:
    path = tmp_path / "resources.json"
    path.write_text("[]")
    os.truncate(path, MAX_PLAN_FILE_BYTES + 1)  # sparse: nothing is written
    with pytest.raises(DiffError, match="larger than 67108864 bytes"):
        load_snapshot(tmp_path)
