"""Fixtures of the populate scripts' tests (tests/components/test_populate_*.py)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.components.populate_harness import Sandbox, Server, make_sandbox, serve


@pytest.fixture()
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A loopback HTTP server of a small TFRecord-shaped tree (the http source's URLs)."""
    yield from serve(tmp_path_factory.mktemp("served"))


@pytest.fixture()
def box(tmp_path: Path) -> Sandbox:
    """A sandbox: the data directory the Job mounts, its inputs, a temporary directory and a
    home, side by side (nothing outside them may change)."""
    return make_sandbox(tmp_path / "sandbox")
