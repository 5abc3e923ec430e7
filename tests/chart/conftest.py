"""Fixtures of the chart's tests that run its scripts: the shells and a stand-in pod's root."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.chart.preflight_pod import SHELLS


@pytest.fixture(params=sorted(SHELLS))
def shell(request: pytest.FixtureRequest) -> list[str]:
    program, *options = SHELLS[request.param]
    found = shutil.which(program)
    if found is None:
        pytest.skip(f"{program} is not installed: the preflight is not run with it here")
    return [found, *options]


@pytest.fixture()
def place() -> Iterator[Path]:
    """A directory every user can traverse (the non-root runs read from it)."""
    directory = Path(tempfile.mkdtemp(prefix="trainstack-preflight-"))
    directory.chmod(0o755)
    yield directory
    shutil.rmtree(directory)
