"""Read and write ``facts/STACK.health.json`` as ``facts/STACK.json`` is (bounded and
validated on read, atomic on write, the same bytes for the same measurements: sorted
keys, two-space indents, ASCII, a final newline): :mod:`trainstack.facts.store`."""

from __future__ import annotations

from pathlib import Path

from trainstack.facts.store import (
    FACTS_DIR,
    Display,
    document_json,
    read_document,
    write_document,
)
from trainstack.health.model import HealthFacts

_RESTORE = (
    "a health file as `trainstack health` writes it: restore it with `git checkout -- FILE`, "
    "or measure again with `trainstack health STACK`"
)


def health_path(root: Path, stack: str) -> Path:
    """``facts/STACK.health.json`` in the project."""
    return root / FACTS_DIR / f"{stack}.health.json"


def health_json(facts: HealthFacts) -> str:
    """The file's text."""
    return document_json(facts)


def read_health(root: Path, stack: str, display: Display) -> HealthFacts | None:
    """The health of ``stack``, validated; ``None`` when it was never measured."""
    return read_document(health_path(root, stack), stack, HealthFacts, display, _RESTORE)


def write_health(root: Path, facts: HealthFacts) -> tuple[Path, bool]:
    """Write the health of its stack; the file and whether its bytes changed."""
    path = health_path(root, facts.stack)
    return path, write_document(path, health_json(facts), "trainstack health")
