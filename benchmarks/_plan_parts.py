"""The parts of ``trainstack plan STACK``, each timed alone in this process (a helper).

Run inside a project as ``python -m benchmarks._plan_parts STACK``; prints JSON:
``registrations`` (seconds the program's run under the mock engine takes, for the stack
and the data stacks it reads, its modules already imported) and ``renders`` (seconds
Helm takes to render every experiment release of the stack). The benchmark measures the
third part, importing the program's modules, as a process of its own.
"""

from __future__ import annotations

import json
import sys
import time

from trainstack.chart.batch import RenderRequest, render_all
from trainstack.config.loader import load_stack_config, read_stack_file
from trainstack.deployment import CHART_PATH, Deployment, prepare, reusing
from trainstack.plan.engine import run_program
from trainstack.project import Project


def _deployment(project: Project, stack: str) -> tuple[Deployment, dict, set]:
    stack_file = read_stack_file(project, stack)
    loaded = load_stack_config(stack, stack_file.config, stack_file.secret_keys, stack_file.source)
    return (
        prepare(project.root, loaded, project.stack_config_dir),
        stack_file.config,
        stack_file.secret_keys,
    )


def _registrations(project: Project, stack: str) -> tuple[float, dict]:
    """Seconds of the program's run for ``stack`` (after its data stacks), and its outputs."""
    deployment, config, secret_keys = _deployment(project, stack)
    seconds, references = 0.0, {}
    for name in deployment.referenced_stacks:
        spent, outputs = _registrations(project, name)
        seconds += spent
        references[name] = outputs
    started = time.perf_counter()
    with reusing(deployment):
        run = run_program(
            project.main_program, project.name, stack, config, secret_keys, None, references
        )
    return seconds + time.perf_counter() - started, run.outputs


def main() -> None:
    """Time the registrations (second run: modules imported by the first) and the renders."""
    stack = sys.argv[1]
    project = Project.find()
    _registrations(project, stack)  # imports the program's modules
    registrations, _ = _registrations(project, stack)
    deployment, _, _ = _deployment(project, stack)
    chart = (project.root / CHART_PATH).resolve()
    requests = [
        RenderRequest.of(e.name, e.namespace, chart, e.values) for e in deployment.experiments
    ]
    render_all(requests[:1])  # loads Helm's library
    started = time.perf_counter()
    render_all(requests)
    renders = time.perf_counter() - started
    print(
        json.dumps({"registrations": registrations, "renders": renders, "releases": len(requests)})
    )


if __name__ == "__main__":
    main()
