"""Acceleration: off by default, a component only when named exactly, ACK add-ons on ACK."""

from __future__ import annotations

import pytest

from tests.config.conftest import Loader
from tests.stack_helpers import example_config
from trainstack.core.errors import ConfigError


def test_baseline_leaves_acceleration_off(load: Loader) -> None:
    assert load(example_config("baseline")).config.acceleration.enabled is False


def test_acceleration_defaults_to_off(load: Loader) -> None:
    config = example_config("aiacc")
    del config["trainstack:acceleration"]
    assert load(config).config.acceleration.enabled is False


def test_enabled_without_component_installs_nothing(load: Loader) -> None:
    config = example_config("aiacc")
    del config["trainstack:acceleration"]["component"]
    acceleration = load(config).config.acceleration
    assert acceleration.enabled is True and acceleration.component is None


def test_a_source_names_a_value_of_the_overrides(load: Loader) -> None:
    config = example_config("aiacc")
    config["trainstack:acceleration"]["sources"]["env.PERSEUS_ALLREDUCE_MODE"] = "a page"
    with pytest.raises(ConfigError, match="sources") as caught:
        load(config)
    (problem,) = caught.value.problems
    assert (problem.path, problem.found) == (
        "trainstack:acceleration.sources",
        '"env.PERSEUS_ALLREDUCE_MODE"',
    )
    assert problem.allowed == (
        "a source for a value of experimentOverrides, by its dotted key: "
        "env.PERSEUS_ALLREDUCE_DTYPE"
    )


def test_an_add_on_needs_an_exact_version(load: Loader) -> None:
    config = example_config("aiacc")
    config["trainstack:acceleration"]["component"] = {"kind": "ack-addon", "name": "x"}
    with pytest.raises(ConfigError, match="required") as caught:
        load(config)
    (problem,) = caught.value.problems
    assert problem.path == "trainstack:acceleration.component.version"
    config["trainstack:acceleration"]["component"]["version"] = ">=1.0"
    with pytest.raises(ConfigError, match="version") as caught:
        load(config)
    (problem,) = caught.value.problems
    assert problem.path == "trainstack:acceleration.component.version"


def test_unknown_component_kind(load: Loader) -> None:
    config = example_config("aiacc")
    config["trainstack:acceleration"]["component"] = {"kind": "daemonset"}
    with pytest.raises(ConfigError, match="ack-addon") as caught:
        load(config)
    (problem,) = caught.value.problems
    assert problem.path == "trainstack:acceleration.component.kind"
    assert problem.found == '"daemonset"'
