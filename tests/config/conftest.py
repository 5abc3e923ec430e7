"""Load a stack file written from a (mutated) example configuration."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.conftest import StackWriter
from trainstack.config.loader import LoadedStack, load_stack_config
from trainstack.config.pulumi_config import read_stack_file

Loader = Callable[[dict[str, Any]], LoadedStack]


@pytest.fixture()
def load(write_stack: StackWriter) -> Loader:
    """Validate ``config`` the way the program does, from a real stack file."""

    def run(config: dict[str, Any]) -> LoadedStack:
        project = write_stack(config)
        stack_file = read_stack_file(project, "test")
        config, secret_keys = stack_file.config, stack_file.secret_keys
        return load_stack_config("test", config, secret_keys, stack_file.source, stack_file.path)

    return run
