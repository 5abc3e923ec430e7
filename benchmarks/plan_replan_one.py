"""A re-plan of a stack of many experiments after one of them changed, with the cache.

Run: ``.venv/bin/python -m benchmarks.plan_replan_one [N]`` (default :data:`SIZE`; ``make
bench`` runs it). Target: the re-plan within :data:`TARGET_RATIO` times its floor. In a
scratch copy of the project with N generated experiments (those of
``plan_many_experiments``) and a plan cache of its own, each a process of its own:

- the cold plan: ``trainstack plan bench`` with an empty cache (it fills the cache with
  every release's render and checks; it also records the modules a plan imports);
- then one experiment's command changes, and the re-plan: ``trainstack plan bench`` again,
  the whole process;
- its floor: importing every module the plan imports (as ``plan_many_experiments``
  counts it), plus Helm rendering the changed experiment's release and checking its
  objects against their schemas (the same functions as the plan, in a process that
  imported them first);
- and, to show where the rest goes, the program's registrations under the SDK's mock
  engine for the stack and the data stack it reads (nothing recorded): the program runs
  whole at every plan, one Helm release per experiment.

Figures are wall-clock and CPU seconds (user + system); CPU is the figure that holds on a
shared machine. The ratio is the re-plan's against its floor.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks._project import ROOT
from benchmarks.plan_cold import NO_BYTECODE
from benchmarks.plan_many_experiments import Process, _run, experiment, make_project
from trainstack.core.yaml.io import dump_yaml
from trainstack.plan.cache import CACHE_DIR_ENV, NO_CACHE_ENV

SIZE = 1000
TARGET_RATIO = 1.3
CHANGED = 7
"""The experiment that changes (its index)."""


def _changed(index: int) -> dict[str, Any]:
    spec = experiment(index)
    spec["job"]["command"] += " --changed"
    return spec


def one_release(file: Path) -> None:
    """Import the plan's modules (not timed), then render the changed experiment's release
    and check its objects as the plan does; print the seconds as JSON."""
    from benchmarks._plan_parts import _cpu, _prepared, import_modules

    import_modules(file)
    from trainstack.chart.batch import RenderRequest, render_all
    from trainstack.conformance import CrdSchemas, violations
    from trainstack.core.project import Project
    from trainstack.deployment import CHART_PATH
    from trainstack.plan.conformance import schema_files
    from trainstack.plan.crd_dir import crd_dir_from
    from trainstack.plan.masking import Masker

    project = Project.find()
    _, deployment = _prepared(project, "bench")
    name = _changed(CHANGED)["name"]
    (changed,) = [e for e in deployment.experiments if e.file_experiment == name]
    chart = (project.root / CHART_PATH).resolve()
    request = RenderRequest.of(changed.release_name, changed.namespace, chart, changed.values)
    crd_dir = crd_dir_from(None)
    started, started_cpu = time.perf_counter(), _cpu()
    objects = render_all([request])[request]
    assert objects is not None, "the changed release failed to render"
    masked = [Masker(None).mask(item) for item in objects]
    crds = None if crd_dir is None else CrdSchemas(crd_dir)
    found = violations(masked, crds, schema_files(deployment.stack.config))
    seconds, cpu = time.perf_counter() - started, _cpu() - started_cpu
    assert not found, found
    print(json.dumps({"release": seconds, "cpu release": cpu}))


def registrations() -> None:
    """Print the program's registrations' seconds (``_plan_parts``), nothing else timed."""
    from benchmarks._plan_parts import _registrations
    from trainstack.console.lifetime import tune_garbage_collector
    from trainstack.core.project import Project

    tune_garbage_collector()
    (seconds, cpu), _ = _registrations(Project.find(), "bench")
    print(json.dumps({"registrations": seconds, "cpu registrations": cpu}))


def measure(root: Path) -> dict[str, float]:
    """Cold plan, change, re-plan, and the floor's parts (see the module docstring)."""
    modules, out = root / "modules.json", root / "out"
    cold = _run(root, "-m", "benchmarks._plan_parts", "modules", "bench", str(modules))
    spec = _changed(CHANGED)
    (root / "experiments" / f"{spec['name']}.yaml").write_text(dump_yaml(spec))
    replan = _run(root, "-m", "trainstack", "plan", "bench", "-o", str(out))
    imports: Process = _run(root, "-m", "benchmarks._plan_parts", "imports", str(modules))
    imported = json.loads(imports.stdout)
    release = json.loads(_run(root, "-m", "benchmarks.plan_replan_one", "one", str(modules)).stdout)
    program = json.loads(_run(root, "-m", "benchmarks.plan_replan_one", "registrations").stdout)
    return {
        "cold": cold.seconds,
        "cpu cold": cold.cpu,
        "replan": replan.seconds,
        "cpu replan": replan.cpu,
        "peak MiB": replan.peak_mib,
        "imports": imported["imported"] - imports.started,
        "cpu imports": imported["cpu"],
        **release,
        **program,
    }


def report(count: int, figures: dict[str, float]) -> str:
    """The re-plan against its floor, wall-clock and CPU."""
    lines = []
    for label, prefix in (("wall", ""), ("cpu", "cpu ")):
        floor = figures[prefix + "imports"] + figures[prefix + "release"]
        replan = figures[prefix + "replan"]
        lines.append(
            f"  {label}: cold plan {figures[prefix + 'cold']:.2f} s; re-plan {replan:.2f} s; "
            f"floor {floor:.2f} s (imports {figures[prefix + 'imports']:.2f} + one release "
            f"rendered and checked {figures[prefix + 'release']:.3f}); ratio "
            f"{replan / floor:.2f}; the program's registrations alone "
            f"{figures[prefix + 'registrations']:.2f} s"
        )
    ratio = figures["cpu replan"] / (figures["cpu imports"] + figures["cpu release"])
    verdict = "ok" if ratio <= TARGET_RATIO else "OVER TARGET"
    head = (
        f"plan_replan_one: {count} experiments, one changed, re-planned with the cache "
        f"(peak {figures['peak MiB']:.0f} MiB; target: cpu ratio <= {TARGET_RATIO}: {verdict}); "
        f"load {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs"
    )
    return "\n".join([head, *lines])


def main(count: int = SIZE) -> None:
    """Print the cold plan's, the re-plan's and the floor's seconds and their ratio."""
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        make_project(root, count)
        for name in (
            "plan_replan_one.py",
            "plan_many_experiments.py",
            "plan_cold.py",
            "_project.py",
        ):
            shutil.copy(ROOT / "benchmarks" / name, root / "benchmarks")
        saved = {name: os.environ.get(name) for name in (CACHE_DIR_ENV, NO_CACHE_ENV, NO_BYTECODE)}
        os.environ[CACHE_DIR_ENV] = str(root / "cache")
        os.environ.pop(NO_CACHE_ENV, None)
        os.environ.pop(NO_BYTECODE, None)  # bytecode as users have it (see plan_cold)
        try:
            figures = measure(root)
        finally:
            for name, value in saved.items():
                os.environ.pop(name, None)
                if value is not None:
                    os.environ[name] = value
    print(report(count, figures), flush=True)


if __name__ == "__main__":
    match sys.argv[1:]:
        case ["one", file]:
            one_release(Path(file))
        case ["registrations"]:
            registrations()
        case [count]:
            main(int(count))
        case _:
            main()
