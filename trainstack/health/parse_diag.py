"""``dcgmi diag -r LEVEL`` output (its table): did every test pass on every GPU?

The table is ``| test | result |`` rows under section rows (``|-----  Deployment ...``):
DCGM 3.x one result per test (``Pass``, ``Skip``, ``Warn``, ``Fail``), DCGM 4.x a
result per test and then one row per GPU (``GPU0: Pass``), as recorded in NVIDIA/DCGM
issues #55 (3.0.4), #198 (3.3.7) and #253 (4.2.3). Metadata rows (DCGM version, driver)
are not tests. A test whose result or a GPU row reads ``Fail`` fails the node; ``Warn``
is kept in the excerpt only (DCGM 4.2.3 warns of persistence mode off, issue #253). A
table cut short (no row after the last section) is reported: the level did not finish.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from trainstack.health.excerpt import excerpt

_SECTION = re.compile(r"^[|+]-+\s+(?P<name>[A-Za-z ]+?)\s+-+")
_ROW = re.compile(r"^\|\s*(?P<test>[^|]*?)\s*\|\s*(?P<result>[^|]*?)\s*\|?\s*$")
_GPU = re.compile(r"^GPU\s*(?P<gpu>\d+)\s*:\s*(?P<result>\w+)")
_METADATA = "Metadata"


@dataclass(frozen=True)
class DiagTable:
    """What one `dcgmi diag` log says."""

    passed: bool
    failures: tuple[str, ...]
    excerpt: str
    problems: tuple[str, ...]


def parse_diag(text: str) -> DiagTable:
    """The verdict of one `dcgmi diag` table (module documentation)."""
    lines = text.splitlines()
    section = ""
    test = ""
    results = 0
    failures: list[str] = []
    kept: list[str] = []
    for line in lines:
        header = _SECTION.match(line)
        if header is not None:
            section = header["name"].strip()
            continue
        row = _ROW.match(line)
        if row is None or section in ("", _METADATA):
            continue
        name, result = row["test"], row["result"]
        if name == "Diagnostic" or (name and set(name) <= {"=", "+", "-"}):
            continue
        if name:
            test = name
        gpu = _GPU.match(result)
        outcome = (gpu["result"] if gpu else result.split(" ", 1)[0]).capitalize()
        if outcome not in ("Pass", "Skip", "Warn", "Fail"):
            continue
        results += 1
        if outcome != "Pass":
            kept.append(line)
        if outcome == "Fail":
            where = f"GPU {gpu['gpu']}" if gpu else "all GPUs"
            failures.append(f"{test}: {where}: {result}")
    problems: list[str] = []
    if not results:
        problems.append("dcgmi diag printed no result table (no test with Pass, Fail...)")
    elif lines and not lines[-1].startswith("+"):
        problems.append("dcgmi diag's table is cut short (it did not end with its frame)")
    shown = kept or [line for line in lines if _ROW.match(line)][-4:]
    return DiagTable(
        passed=not failures and not problems,
        failures=tuple(sorted(set(failures))),
        excerpt=excerpt(shown),
        problems=tuple(problems),
    )
