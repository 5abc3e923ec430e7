"""nccl-tests' ``all_reduce_perf`` output: the bus bandwidth at each message size.

The size lines are those ``src/util.cu`` prints under its header (NVIDIA/nccl-tests
v2.19.6, a0b82b2260cf5152b9f8c061bbf7eaf0ba096432, L749-758): ``size count type redop
[root] time algbw busbw #wrong`` out-of-place, then the same in-place. busbw is
``algbw * 2(n-1)/n`` for an allreduce of n ranks (doc/PERFORMANCE.md, "AllReduce"): a
figure of the links, comparable across rank counts. The figure kept is the out-of-place
busbw at the largest size (the one nearest the links' peak); a run whose lines stop
before its ``# Avg bus bandwidth`` line is cut short, and says so.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from trainstack.health.excerpt import figure
from trainstack.health.model import Figure

_SIZE_LINE = re.compile(
    r"^\s*(?P<size>\d+)\s+(?P<count>\d+)\s+(?P<type>\w+)\s+(?P<redop>\w+)\s+(?:-?\d+\s+)?"
    r"(?P<time>[\d.]+)\s+(?P<algbw>[\d.]+)\s+(?P<busbw>[\d.]+)\s+(?P<wrong>\S+)"
)
_AVERAGE = re.compile(r"^#\s*Avg bus bandwidth\s*:\s*(?P<value>[\d.]+)")
_OUT_OF_BOUNDS = re.compile(r"^#\s*Out of bounds values\s*:\s*(?P<count>\d+)\s*(?P<status>\w*)")


@dataclass(frozen=True)
class NcclResult:
    """What one all_reduce_perf log says."""

    busbw_gbps: Figure | None
    """Out-of-place busbw at the largest size."""
    largest_bytes: int | None
    problems: tuple[str, ...]


def parse_all_reduce(text: str) -> NcclResult:
    """The figures of one all_reduce_perf log (module documentation)."""
    lines = text.splitlines()
    sizes: list[tuple[int, float, str, int]] = []
    problems: list[str] = []
    finished = False
    for number, line in enumerate(lines):
        found = _SIZE_LINE.match(line)
        if found is not None:
            busbw = float(found["busbw"])
            if not math.isfinite(busbw):
                continue
            sizes.append((int(found["size"]), busbw, found["wrong"], number))
            continue
        bounds = _OUT_OF_BOUNDS.match(line)
        if bounds is not None and int(bounds["count"]) > 0:
            problems.append(f"all_reduce_perf: {bounds['count']} out-of-bounds values (FAILED)")
        if _AVERAGE.match(line):
            finished = True
    wrong = [size for size, _, errors, _ in sizes if errors not in ("0", "N/A")]
    if wrong:
        problems.append(
            f"all_reduce_perf: wrong results at {len(wrong)} size(s), e.g. {wrong[0]} B"
        )
    if not sizes:
        problems.append("all_reduce_perf printed no result line (no size, time, busbw)")
        return NcclResult(None, None, tuple(problems))
    if not finished:
        problems.append("all_reduce_perf stopped before its `# Avg bus bandwidth` line (cut short)")
    size, busbw, _, number = max(sizes, key=lambda entry: (entry[0], entry[3]))
    header = [line for line in lines[:number] if line.lstrip().startswith("#") and "size" in line]
    kept = [*header[-1:], lines[number]]
    return NcclResult(figure(busbw, kept), size, tuple(problems))
