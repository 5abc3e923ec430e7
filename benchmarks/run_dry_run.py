"""``trainstack run`` of the flagship, 50 runs, ``--dry-run``, against one ``trainstack plan``.

Run: ``.venv/bin/python -m benchmarks.run_dry_run``. Both are whole processes (cold start,
imports included) in the repository, with the environment as given (set
``TRAINSTACK_CRD_DIR`` to check custom resources against their CRDs in both): workload
1's ``imagenet-tensorflow`` on ``aiacc``, 50 runs resolved, checked, rendered and checked
against the API schemas each, printed and not submitted; and the plan of the whole
``aiacc`` stack. The two alternate, so that a shared machine's load falls on both alike;
the figure is the ratio of their medians, measured in this one run (wall and CPU).
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
ROUNDS = 3
RUNS = 50


def _seconds(*args: str) -> tuple[float, float]:
    """Wall-clock and CPU (user + system) seconds of one ``trainstack ARGS`` process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "trainstack", *args], cwd=ROOT, check=True, capture_output=True
    )
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    """Print both medians and their ratio."""
    run = ("run", "imagenet-tensorflow", "--stack", "aiacc", "--runs", str(RUNS), "--dry-run")
    runs: list[tuple[float, float]] = []
    plans: list[tuple[float, float]] = []
    with tempfile.TemporaryDirectory() as scratch:
        for _ in range(ROUNDS):
            runs.append(_seconds(*run))
            plans.append(_seconds("plan", "aiacc", "--output-dir", str(Path(scratch))))
    run_wall = statistics.median(wall for wall, _ in runs)
    plan_wall = statistics.median(wall for wall, _ in plans)
    run_cpu = statistics.median(cpu for _, cpu in runs)
    plan_cpu = statistics.median(cpu for _, cpu in plans)
    print(
        f"run_dry_run: trainstack run imagenet-tensorflow --stack aiacc --runs {RUNS} --dry-run "
        f"{run_wall:.2f} s wall ({run_cpu:.2f} s CPU) against trainstack plan aiacc "
        f"{plan_wall:.2f} s ({plan_cpu:.2f} s CPU), medians of {ROUNDS}: ratio "
        f"{run_wall / plan_wall:.2f} wall, {run_cpu / plan_cpu:.2f} CPU"
    )


if __name__ == "__main__":
    main()
