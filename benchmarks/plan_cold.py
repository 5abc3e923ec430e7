"""Time ``trainstack plan aiacc`` as a whole process: cold start, imports included.

Run: ``.venv/bin/python -m benchmarks.plan_cold`` (targets: under 3 s per plan, and within
:data:`TARGET_RATIO` times its floor). The floor is a process that imports the libraries
the plan needs and nothing else: every module a plan of aiacc imported (recorded by
``benchmarks._plan_parts``) but trainstack's own and the project's (``components``), in
the plan's order, counted from the process's start to the end of the imports, as
``plan_many_experiments`` counts its imports. The plans use a plan cache of their own
(``$TRAINSTACK_CACHE_DIR``, a scratch directory): the first fills it, as a first plan
does.
"""

from __future__ import annotations

import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from trainstack.plan.cache import CACHE_DIR_ENV

ROOT = Path(__file__).resolve().parents[1]
RUNS = 5
TARGET_SECONDS = 3.0
TARGET_RATIO = 1.3
NO_BYTECODE = "PYTHONDONTWRITEBYTECODE"
OWN = ("trainstack", "components")
"""Top-level packages that are the program's own, not libraries it needs."""


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


def library_modules(stack: str, scratch: Path) -> Path:
    """A file listing the modules a plan of ``stack`` imports that are libraries."""
    listed = scratch / "modules.json"
    subprocess.run(
        [sys.executable, "-m", "benchmarks._plan_parts", "modules", stack, str(listed)],
        cwd=ROOT,
        check=True,
        capture_output=True,
    )
    names = [n for n in json.loads(listed.read_text()) if n.split(".")[0] not in OWN]
    libraries = scratch / "libraries.json"
    libraries.write_text(json.dumps(names))
    return libraries


def time_imports(libraries: Path) -> tuple[float, float]:
    """Wall-clock and CPU seconds of a process importing ``libraries``, to the imports' end."""
    started = time.monotonic()
    ran = subprocess.run(
        [sys.executable, "-m", "benchmarks._plan_parts", "imports", str(libraries)],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    )
    done = json.loads(ran.stdout)
    return done["imported"] - started, done["cpu"]


def main() -> None:
    """Print the median and worst of several cold runs, and their ratio to the floor."""
    with tempfile.TemporaryDirectory() as scratch:
        saved = os.environ.get(CACHE_DIR_ENV)
        os.environ[CACHE_DIR_ENV] = str(Path(scratch) / "cache")
        # As users run it: modules from their bytecode, written by the first (untimed) plan.
        # Without it every process compiles every module's source, a second of each.
        no_bytecode = os.environ.pop(NO_BYTECODE, None)
        try:
            libraries = library_modules("aiacc", Path(scratch))
            runs, floors = [], []
            for _ in range(RUNS):  # in turns: a change of load reaches both alike
                runs.append(time_plan("aiacc", Path(scratch) / "out"))
                floors.append(time_imports(libraries))
        finally:
            os.environ.pop(CACHE_DIR_ENV, None)
            if saved is not None:
                os.environ[CACHE_DIR_ENV] = saved
            if no_bytecode is not None:
                os.environ[NO_BYTECODE] = no_bytecode
    median = statistics.median(wall for wall, _ in runs)
    cpu = statistics.median(cpu for _, cpu in runs)
    floor = statistics.median(wall for wall, _ in floors)
    floor_cpu = statistics.median(cpu for _, cpu in floors)
    ratio = cpu / floor_cpu
    verdict = "ok" if median < TARGET_SECONDS and ratio <= TARGET_RATIO else "OVER TARGET"
    print(
        f"plan_cold: trainstack plan aiacc, {RUNS} cold processes: median {median:.2f} s "
        f"wall ({cpu:.2f} s CPU), max {max(wall for wall, _ in runs):.2f} s; floor (importing "
        f"the libraries it needs) {floor:.2f} s wall ({floor_cpu:.2f} s CPU); ratio "
        f"{median / floor:.2f} wall, {ratio:.2f} CPU (targets < {TARGET_SECONDS:.0f} s and "
        f"CPU ratio <= {TARGET_RATIO}: {verdict}); load {os.getloadavg()[0]:.1f} on "
        f"{os.cpu_count()} CPUs"
    )


if __name__ == "__main__":
    main()
