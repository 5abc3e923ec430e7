"""Teams and queueing settings for tests, built from the example stacks' own."""

from __future__ import annotations

import copy
from typing import Any

from tests.stack_helpers import example_config


def example_teams() -> list[dict[str, Any]]:
    """A mutable copy of the example stacks' ``trainstack:teams`` (vision, nlp)."""
    return copy.deepcopy(example_config("aiacc")["trainstack:teams"])


def team(name: str = "vision", **changes: Any) -> dict[str, Any]:
    """One example team with top-level keys replaced."""
    (found,) = [t for t in example_teams() if t["name"] == name]
    found.update(changes)
    return found


def without_queueing(config: dict[str, Any]) -> dict[str, Any]:
    """``config`` with Kueue switched off."""
    config["trainstack:queueing"] = {"enabled": False}
    return config
