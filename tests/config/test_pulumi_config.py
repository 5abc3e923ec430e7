"""The engine's config-map format: stack files read as the engine passes them, and the
SDK's own copy of what the engine gave the program (the canary for its internals)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from pulumi.runtime.config import set_all_config

from tests.conftest import StackWriter
from trainstack.config.pulumi_config import (
    SECRET_PLACEHOLDER,
    engine_config,
    pulumi_config_map,
    read_stack_file,
)
from trainstack.core.yaml.io import YamlSyntaxError


@pytest.fixture()
def engine_gave() -> Iterator[None]:
    """No config from the environment; the SDK's config emptied again afterwards."""
    with pytest.MonkeyPatch.context() as patch:
        patch.delenv("PULUMI_CONFIG", raising=False)
        patch.delenv("PULUMI_CONFIG_SECRET_KEYS", raising=False)
        yield
        set_all_config({}, [])


def test_the_sdk_gives_back_the_config_map_the_engine_gave_the_program(
    engine_gave: None, write_stack: StackWriter
) -> None:
    """The canary for the SDK internals engine_config reads: a stack file's map, handed to
    the SDK as plan/engine.py hands it (set_all_config), comes back whole with its secrets."""
    config = {
        "alicloud:region": "cn-beijing",
        "trainstack:kubeconfig": {"secure": "v1:cipher"},
        "trainstack:cluster": {"provider": "alicloud", "clusterId": "c1"},
    }
    stack_file = read_stack_file(write_stack(config), "test")
    set_all_config(dict(stack_file.config), sorted(stack_file.secret_keys))
    assert engine_config() == (stack_file.config, {"trainstack:kubeconfig"})
    assert stack_file.config["trainstack:kubeconfig"] == SECRET_PLACEHOLDER


def test_nested_secure_values_mark_the_whole_key_secret() -> None:
    document = {"config": {"trainstack:x": {"a": [{"secure": "v1:zz"}], "b": 1}}}
    config, secret_keys = pulumi_config_map(document, "f.yaml")
    assert secret_keys == {"trainstack:x"}
    assert "v1:zz" not in config["trainstack:x"]
    assert SECRET_PLACEHOLDER in config["trainstack:x"]


def test_yaml_syntax_error_names_line(write_stack: StackWriter, tmp_path: Path) -> None:
    project = write_stack({})
    (tmp_path / "Pulumi.test.yaml").write_text("config:\n  trainstack:nodePools: [\n")
    with pytest.raises(YamlSyntaxError, match=r"line \d+, column \d+"):
        read_stack_file(project, "test")


def test_duplicate_yaml_keys_are_refused(write_stack: StackWriter, tmp_path: Path) -> None:
    project = write_stack({})
    (tmp_path / "Pulumi.test.yaml").write_text(
        "config:\n  trainstack:nodePools: {}\n  trainstack:nodePools: {}\n"
    )
    with pytest.raises(YamlSyntaxError, match="the key 'trainstack:nodePools' a second time"):
        read_stack_file(project, "test")


def test_a_date_is_the_text_written(write_stack: StackWriter, tmp_path: Path) -> None:
    """yaml.v3, which Pulumi reads stack files with, gives an untyped date as text."""
    project = write_stack({})
    (tmp_path / "Pulumi.test.yaml").write_text("config:\n  trainstack:since: 2024-01-01\n")
    assert read_stack_file(project, "test").config == {"trainstack:since": "2024-01-01"}
