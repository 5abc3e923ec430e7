"""A registered framework's spec, swapped for one test: shared code must follow the data."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest

from trainstack.training_job.frameworks import FrameworkSpec, framework, registry


@pytest.fixture()
def respec(monkeypatch: pytest.MonkeyPatch) -> Callable[..., FrameworkSpec]:
    """``respec(name, **changes)``: the registry answers ``name`` with its spec so changed,
    until the test ends (its name kept, so that only the data differs)."""

    def swap(name: str, **changes: Any) -> FrameworkSpec:
        spec = replace(framework(name), **changes)
        monkeypatch.setitem(registry._BY_NAME, name, spec)
        return spec

    return swap
