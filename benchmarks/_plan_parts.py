"""The parts of ``trainstack plan STACK``, each measured alone (a helper of the benchmark).

Run inside a project (``benchmarks/`` copied into it), each in a process of its own:

- ``python -m benchmarks._plan_parts modules STACK FILE``: set-up, not timed. Runs
  ``trainstack plan STACK`` in this process and writes to FILE (JSON) every module the
  plan imported, in the order it imported them.
- ``python -m benchmarks._plan_parts imports FILE``: imports those modules and nothing
  else, then prints when it was done (``time.monotonic()``, the system-wide clock): the
  benchmark counts from before it started the process (interpreter start included, as
  in the plan's time) to then (the interpreter's teardown left out); and the CPU seconds
  spent until then (``cpu``).
- ``python -m benchmarks._plan_parts parts STACK FILE``: imports those modules and sets
  the garbage collector up as the command line does (neither timed), then prints JSON:

  - ``registrations``: seconds of the program's run under the SDK's mock engine, for
    the stack and the data stacks it reads, with the experiments already resolved and
    checked as the plan hands them to the program, and nothing recorded (the plan's
    recording of each registration is its own overhead);
  - ``renders``: seconds Helm takes to render every experiment release of the stack:
    the plan's requests, through the plan's function (``render_all``), in one batch in
    this process. The plan splits the same batch between its render worker and itself;
    the worker's process start is not counted here.

  Each also as CPU seconds of this process (``cpu registrations``, ``cpu renders``).
"""

from __future__ import annotations

import atexit
import importlib
import json
import resource
import sys
import time
from pathlib import Path
from typing import Any

SKIPPED = ("__main__", "__mp_main__", "benchmarks")


def write_modules(stack: str, file: Path) -> None:
    """Plan ``stack`` as the command line does, then record the modules it imported."""

    def record() -> None:
        names = [n for n in sys.modules if n.split(".")[0] not in SKIPPED]
        file.write_text(json.dumps(names))

    atexit.register(record)
    from trainstack.cli import main

    sys.argv = ["trainstack", "plan", stack, "--output-dir", str(file.parent / "modules-plan")]
    main()


def import_modules(file: Path) -> None:
    """Import the recorded modules, in the plan's order."""
    for name in json.loads(file.read_text()):
        try:
            importlib.import_module(name)
        except ImportError:
            continue  # an alias the import system cannot load by name (e.g. six.moves.*)


def _prepared(project: Any, stack: str) -> tuple[Any, Any]:
    """The stack's file and its deployment, as ``trainstack plan`` prepares them."""
    from trainstack.config.loader import load_stack_config
    from trainstack.config.pulumi_config import read_stack_file
    from trainstack.deployment import prepare

    stack_file = read_stack_file(project, stack)
    loaded = load_stack_config(
        stack, stack_file.config, stack_file.secret_keys, stack_file.source, stack_file.path
    )
    return stack_file, prepare(project.root, loaded, project.stack_config_dir)


def _cpu() -> float:
    """User + system seconds of this process so far."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _registrations(project: Any, stack: str) -> tuple[tuple[float, float], dict[str, Any]]:
    """Wall-clock and CPU seconds of the program's run for ``stack`` (after its data stacks),
    and its outputs."""
    from trainstack.deployment import hand_over
    from trainstack.plan.engine import run_program

    stack_file, deployment = _prepared(project, stack)
    seconds, cpu, references = 0.0, 0.0, {}
    for name in deployment.referenced_stacks:
        (spent, spent_cpu), outputs = _registrations(project, name)
        seconds, cpu = seconds + spent, cpu + spent_cpu
        references[name] = outputs
    started, started_cpu = time.perf_counter(), _cpu()
    with hand_over(deployment):
        run = run_program(
            project.main_program,
            project.name,
            stack,
            stack_file.config,
            stack_file.secret_keys,
            None,
            references,
            record=False,
        )
    seconds += time.perf_counter() - started
    return (seconds, cpu + _cpu() - started_cpu), run.outputs


def _renders(project: Any, stack: str) -> tuple[float, float, int]:
    """Wall-clock and CPU seconds of Helm rendering the stack's releases in one batch, and
    their count."""
    from trainstack.chart.batch import RenderRequest, render_all
    from trainstack.deployment import CHART_PATH

    _, deployment = _prepared(project, stack)
    chart = (project.root / CHART_PATH).resolve()
    requests = [
        RenderRequest.of(e.release_name, e.namespace, chart, e.values)
        for e in deployment.experiments
    ]
    started, started_cpu = time.perf_counter(), _cpu()
    rendered = render_all(requests)
    seconds, cpu = time.perf_counter() - started, _cpu() - started_cpu
    if any(objects is None for objects in rendered.values()):
        raise SystemExit("a release failed to render")
    return seconds, cpu, len(requests)


def parts(stack: str, file: Path) -> None:
    """Print the registrations' and the renders' seconds as JSON."""
    import_modules(file)
    from trainstack.console.lifetime import tune_garbage_collector
    from trainstack.core.project import Project

    tune_garbage_collector()  # as the command line does: the same collector settings
    project = Project.find()
    (registrations, cpu_registrations), _ = _registrations(project, stack)
    renders, cpu_renders, releases = _renders(project, stack)
    print(
        json.dumps(
            {
                "registrations": registrations,
                "cpu registrations": cpu_registrations,
                "renders": renders,
                "cpu renders": cpu_renders,
                "releases": releases,
            }
        )
    )


def main() -> None:
    """Dispatch on the first argument (see the module's docstring)."""
    match sys.argv[1:]:
        case ["modules", stack, file]:
            write_modules(stack, Path(file))
        case ["imports", file]:
            import_modules(Path(file))
            print(json.dumps({"imported": time.monotonic(), "cpu": _cpu()}))
        case ["parts", stack, file]:
            parts(stack, Path(file))
        case _:
            raise SystemExit(f"usage: {__doc__}")


if __name__ == "__main__":
    main()
