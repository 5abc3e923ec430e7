"""Time ``trainstack plan aiacc`` as a whole process: cold start, imports included.

Run: ``.venv/bin/python -m benchmarks.plan_cold`` (target: under 3 s per plan).
"""

from __future__ import annotations

import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RUNS = 5
TARGET_SECONDS = 3.0


def time_plan(stack: str, output_dir: Path) -> tuple[float, float]:
    """Wall-clock and CPU (user + system) seconds of one ``trainstack plan`` process.

    CPU time is reported too because on a shared virtual machine the wall clock also
    counts time the host gave to others.
    """
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "trainstack", "plan", stack, "--output-dir", str(output_dir)],
        cwd=ROOT,
        check=True,
        capture_output=True,
    )
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main() -> None:
    """Print the median and worst of several cold runs."""
    with tempfile.TemporaryDirectory() as scratch:
        runs = [time_plan("aiacc", Path(scratch)) for _ in range(RUNS)]
    median = statistics.median(wall for wall, _ in runs)
    cpu = statistics.median(cpu for _, cpu in runs)
    verdict = "ok" if median < TARGET_SECONDS else "OVER TARGET"
    print(
        f"plan_cold: trainstack plan aiacc, {RUNS} cold processes: median {median:.2f} s "
        f"wall ({cpu:.2f} s CPU), max {max(wall for wall, _ in runs):.2f} s "
        f"(target < {TARGET_SECONDS:.0f} s: {verdict})"
    )


if __name__ == "__main__":
    main()
