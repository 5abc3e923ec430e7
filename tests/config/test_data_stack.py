"""A data stack holds `trainstack:dataStore` and nothing a cluster stack holds."""

from __future__ import annotations

import pytest

from tests.config.conftest import Loader
from tests.stack_helpers import example_config
from trainstack.config.loader import LoadedDataStack
from trainstack.core.errors import ConfigError


def test_the_example_data_stack_loads(load: Loader) -> None:
    stack = load(example_config("imagenet"))
    assert isinstance(stack, LoadedDataStack)
    (file_system,) = stack.config.data_store.file_systems
    assert (file_system.name, file_system.zone_id) == (
        "imagenet-data",
        "<zone of the GPU nodes' vSwitch, e.g. cn-beijing-h>",
    )
    assert file_system.protection.enabled


def test_cluster_settings_in_a_data_stack_are_refused(load: Loader) -> None:
    config = example_config("imagenet")
    config["trainstack:teams"] = []
    with pytest.raises(ConfigError) as caught:
        load(config)
    (problem,) = caught.value.problems
    assert (problem.path, problem.found) == ("trainstack:teams", "a setting of a cluster stack")
    assert problem.allowed.startswith("nothing in a data stack: it holds only trainstack:dataStore")


@pytest.mark.parametrize(
    ("change", "path", "allowed"),
    [
        (
            {"zoneId": None},
            "trainstack:dataStore.fileSystems[0].zoneId",
            "a string",
        ),
        (
            {"vswitchId": "sw-1"},
            "trainstack:dataStore.fileSystems[0].vswitchId",
            r"a string matching ^(vsw-[a-z0-9]+|<[^<>\n]{1,200}>)$",
        ),
        (
            {"storageType": "advance_100"},
            "trainstack:dataStore.fileSystems[0].storageType",
            "one of Performance, Capacity, Premium with fileSystemType standard",
        ),
    ],
)
def test_invalid_file_system(load: Loader, change: dict, path: str, allowed: str) -> None:
    config = example_config("imagenet")
    config["trainstack:dataStore"]["fileSystems"][0].update(change)
    with pytest.raises(ConfigError) as caught:
        load(config)
    (problem,) = caught.value.problems
    assert (problem.path, problem.allowed) == (path, allowed)


def test_file_system_names_are_unique(load: Loader) -> None:
    config = example_config("imagenet")
    file_systems = config["trainstack:dataStore"]["fileSystems"]
    file_systems.append(dict(file_systems[0]))
    with pytest.raises(ConfigError) as caught:
        load(config)
    (problem,) = caught.value.problems
    assert (problem.path, problem.allowed) == (
        "trainstack:dataStore.fileSystems[1].name",
        "a name no other file system uses (fileSystems[0] has it)",
    )
