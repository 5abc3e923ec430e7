"""Datasets: sources, capacities, access modes, names."""

from __future__ import annotations

from typing import Any

import pytest

from tests.config.conftest import Loader
from tests.stack_helpers import example_config
from trainstack.core.errors import ConfigError

NFS = {"type": "nfs", "server": "10.0.0.5", "path": "/exports/imagenet"}


def _with_dataset(**changes: Any) -> dict[str, Any]:
    config = example_config("aiacc")
    config["trainstack:datasets"][0].update(changes)
    return config


@pytest.mark.parametrize(
    ("changes", "path", "found", "allowed"),
    [
        (
            {"source": {"type": "nfs", "path": "/exports"}},
            "trainstack:datasets[0].source.server",
            "nothing (the key is missing)",
            "a value: this key is required",
        ),
        (
            {"source": {"type": "nfs", "server": "10.0.0.5", "path": "exports"}},
            "trainstack:datasets[0].source.path",
            '"exports"',
            "a string matching ^/[^\\s]*$",
        ),
        (
            {"source": {"type": "cifs", "server": "x"}},
            "trainstack:datasets[0].source.type",
            '"cifs"',
            "one of 'alicloud-nas', 'nfs', 'stack-reference'",
        ),
        (
            {"source": {"type": "alicloud-nas"}},
            "trainstack:datasets[0].source.mountTargetDomain",
            "null",
            "exactly one of `create` (a new NAS file system) or `mountTargetDomain` "
            "(an existing mount target)",
        ),
        (
            {"capacity": "1PB"},
            "trainstack:datasets[0].capacity",
            '"1PB"',
            "a string matching ^[0-9]+(\\.[0-9]+)?(m|k|M|G|T|P|E|Ki|Mi|Gi|Ti|Pi|Ei)?$",
        ),
        (
            {"capacity": -1},
            "trainstack:datasets[0].capacity",
            "-1",
            "a string",
        ),
        (
            {"accessModes": ["ReadWriteAll"]},
            "trainstack:datasets[0].accessModes[0]",
            '"ReadWriteAll"',
            "one of 'ReadWriteMany', 'ReadOnlyMany', 'ReadWriteOnce' or 'ReadWriteOncePod'",
        ),
        (
            {"accessModes": []},
            "trainstack:datasets[0].accessModes",
            "[]",
            "at least 1 item(s)",
        ),
        (
            {"name": "ImageNet_Data"},
            "trainstack:datasets[0].name",
            '"ImageNet_Data"',
            "a DNS label: lowercase letters, digits and '-', starting and ending with a "
            "letter or digit",
        ),
        (
            {"subPath": "../secrets"},
            "trainstack:datasets[0].subPath",
            '"../secrets"',
            "a relative path without `..`",
        ),
    ],
)
def test_invalid_dataset(
    load: Loader, changes: dict[str, Any], path: str, found: str, allowed: str
) -> None:
    with pytest.raises(ConfigError, match="Pulumi.test.yaml") as caught:
        load(_with_dataset(**changes))
    assert [(p.path, p.found, p.allowed) for p in caught.value.problems] == [(path, found, allowed)]


def test_dataset_names_are_unique(load: Loader) -> None:
    config = example_config("aiacc")
    index = len(config["trainstack:datasets"])
    config["trainstack:datasets"].append(dict(config["trainstack:datasets"][0]))
    with pytest.raises(ConfigError, match="cluster-wide") as caught:
        load(config)
    assert caught.value.problems[0].path == f"trainstack:datasets[{index}].name"


def test_sub_path_is_joined_to_the_export(load: Loader) -> None:
    dataset = load(_with_dataset(source=NFS, subPath="train")).config.datasets[0]
    assert dataset.export_path() == "/exports/imagenet/train"


def test_shared_data_defaults_to_read_write_many(load: Loader) -> None:
    config = _with_dataset()
    del config["trainstack:datasets"][0]["accessModes"]
    assert load(config).config.datasets[0].access_modes == ["ReadWriteMany"]
