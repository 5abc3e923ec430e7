"""Time ``trainstack plan aiacc`` as a whole process: cold start, imports included.

Run: ``.venv/bin/python -m benchmarks.plan_cold`` (target: under 3 s per plan).
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RUNS = 5
TARGET_SECONDS = 3.0


def time_plan(stack: str, output_dir: Path) -> float:
    """Wall-clock seconds of one ``trainstack plan`` process."""
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "trainstack", "plan", stack, "--output-dir", str(output_dir)],
        cwd=ROOT,
        check=True,
        capture_output=True,
    )
    return time.perf_counter() - started


def main() -> None:
    """Print the median and worst of several cold runs."""
    with tempfile.TemporaryDirectory() as scratch:
        seconds = [time_plan("aiacc", Path(scratch)) for _ in range(RUNS)]
    median = statistics.median(seconds)
    verdict = "ok" if median < TARGET_SECONDS else "OVER TARGET"
    print(
        f"plan_cold: trainstack plan aiacc, {RUNS} cold processes: median {median:.2f} s, "
        f"max {max(seconds):.2f} s (target < {TARGET_SECONDS:.0f} s: {verdict})"
    )


if __name__ == "__main__":
    main()
