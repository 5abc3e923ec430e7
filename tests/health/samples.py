"""The recorded outputs of tests/health/data (SOURCES.md says where each comes from)."""

from __future__ import annotations

from pathlib import Path

DATA = Path(__file__).parent / "data"


def sample(name: str) -> str:
    """One recorded output, as published."""
    return (DATA / name).read_text(encoding="utf-8")
