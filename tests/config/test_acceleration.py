"""Acceleration: off by default, needs a component when on, ACK add-ons only on ACK."""

from __future__ import annotations

import pytest

from tests.config.conftest import Loader
from tests.stack_helpers import example_config
from trainstack.errors import ConfigError


def test_baseline_leaves_acceleration_off(load: Loader) -> None:
    assert load(example_config("baseline")).config.acceleration.enabled is False


def test_acceleration_defaults_to_off(load: Loader) -> None:
    config = example_config("aiacc")
    del config["trainstack:acceleration"]
    assert load(config).config.acceleration.enabled is False


def test_enabled_without_component(load: Loader) -> None:
    config = example_config("aiacc")
    config["trainstack:acceleration"] = {"enabled": True}
    with pytest.raises(ConfigError, match="when enabled is true") as caught:
        load(config)
    assert caught.value.problems[0].path == "trainstack:acceleration.component"


def test_unknown_component_kind(load: Loader) -> None:
    config = example_config("aiacc")
    config["trainstack:acceleration"]["component"]["kind"] = "daemonset"
    with pytest.raises(ConfigError, match="ack-addon") as caught:
        load(config)
    (problem,) = caught.value.problems
    assert problem.path == "trainstack:acceleration.component.kind"
    assert problem.found == '"daemonset"'
