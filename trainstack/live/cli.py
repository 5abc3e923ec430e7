"""``trainstack status STACK`` and ``trainstack logs STACK EXPERIMENT``."""

from __future__ import annotations

import sys
from enum import StrEnum
from typing import Annotated

import typer

from trainstack.core.errors import JobNotFoundError, TrainstackError
from trainstack.core.project import Project
from trainstack.experiments.completion import complete_experiment
from trainstack.live import options
from trainstack.live.options import ClusterOptions


class StatusFormat(StrEnum):
    """How ``status`` prints its rows."""

    text = "text"
    json = "json"


def status(
    stack: options.Stack,
    kubeconfig: options.Kubeconfig = None,
    context: options.Context = None,
    timeout: options.Timeout = options.DEFAULT_TIMEOUT,
    deadline: options.Deadline = options.DEFAULT_DEADLINE,
    output_format: Annotated[
        StatusFormat,
        typer.Option("--format", metavar="FORMAT", help="text, or json (docs/scripting.md)."),
    ] = StatusFormat.text,
) -> None:
    """Each experiment's jobs on the stack's cluster: run, kind, phase, pods, timing; and
    each dataset's populate Job: its state and why."""
    from trainstack.config.data_sources import resolve_datasets
    from trainstack.experiments.lookup import load_stack_experiments
    from trainstack.live.connect import connect
    from trainstack.live.data_jobs import data_job_rows
    from trainstack.live.status import status_rows, status_text
    from trainstack.live.status_json import status_json

    resolved = load_stack_experiments(Project.find(), stack)
    datasets = resolve_datasets(resolved.stack, resolved.project.stack_config_dir)
    cluster = connect(resolved.stack, ClusterOptions(kubeconfig, context, timeout, deadline))
    render = status_json if output_format is StatusFormat.json else status_text
    rows = status_rows(resolved, cluster)
    data = data_job_rows(resolved.stack, datasets, cluster)
    sys.stdout.write(render(rows, stack, cluster.where(), data))


def logs(
    stack: options.Stack,
    experiment: Annotated[
        str,
        typer.Argument(
            metavar="EXPERIMENT",
            help="Experiment (or matrix point) name.",
            autocompletion=complete_experiment,
        ),
    ],
    role: Annotated[
        str | None,
        typer.Option(
            "--role",
            metavar="ROLE",
            help="launcher, worker, chief, master...; default: the role "
            "that reports results (MPI launcher, TF chief, PyTorch master).",
        ),
    ] = None,
    run: Annotated[
        int | None,
        typer.Option("--run", min=1, metavar="N", help="Run number; default: the latest."),
    ] = None,
    job_name: Annotated[
        str | None,
        typer.Option("--job", metavar="NAME", help="The job of a run `trainstack run` created."),
    ] = None,
    follow: Annotated[
        bool,
        typer.Option(
            "--follow",
            "-f",
            help="Stream new lines until the pod ends or Ctrl-C (no --deadline; how it "
            "ends: docs/after-deployment.md).",
        ),
    ] = False,
    raw: Annotated[
        bool,
        typer.Option(
            "--raw",
            help="The log's text as the pod wrote it, escape sequences included (by "
            "default control characters are shown escaped, e.g. \\x1b, \\r).",
        ),
    ] = False,
    tail: Annotated[
        int | None, typer.Option("--tail", min=0, metavar="N", help="Only the last N lines.")
    ] = None,
    kubeconfig: options.Kubeconfig = None,
    context: options.Context = None,
    timeout: options.Timeout = options.DEFAULT_TIMEOUT,
    deadline: options.Deadline = options.DEFAULT_DEADLINE,
) -> None:
    """Print the logs of an experiment's job (the role that reports results by default)."""
    from trainstack.console.safe_text import printable
    from trainstack.experiments.lookup import load_stack_experiments
    from trainstack.live.connect import connect, operator_of
    from trainstack.live.follow import follow_log
    from trainstack.live.jobs import experiment_jobs, pick_run, role_pods, training_container
    from trainstack.training_job.frameworks import framework

    resolved = load_stack_experiments(Project.find(), stack)
    first = resolved.runs_of(experiment)[0]
    spec = framework(first.job.framework)
    chosen = role or spec.reporting_role
    if chosen not in {r.name for r in spec.roles}:
        known = ", ".join(r.name for r in spec.roles)
        raise TrainstackError(f"--role: found {chosen!r}; allowed: a role of {spec.kind}: {known}")
    cluster = connect(resolved.stack, ClusterOptions(kubeconfig, context, timeout, deadline))
    job = pick_run(experiment_jobs(cluster, first), first, run, cluster.where(), job_name)
    pods = role_pods(cluster, job, chosen, operator_of(resolved.stack, spec))
    if not pods:
        raise JobNotFoundError(
            f"job {printable(job.name)} ({job.phase}) has no {chosen} pod ({cluster.where()}): not "
            "started yet, or deleted with its logs (cleanPodPolicy, ttlSecondsAfterFinished)"
        )
    if follow and len(pods) > 1:
        print(
            f"following {printable(pods[0]['metadata']['name'])}, the first of {len(pods)} "
            f"{chosen} pods",
            file=sys.stderr,
        )
        pods = pods[:1]

    def show(line: str) -> None:
        sys.stdout.write(line if raw else printable(line[:-1], None, tabs=True) + "\n")
        if follow:
            sys.stdout.flush()

    try:
        if follow:
            note = follow_log(cluster, job.namespace, pods[0], tail, show)
            if note is not None:
                print(f"note: {note}", file=sys.stderr)
            return
        for pod in pods:
            name = pod["metadata"]["name"]
            if len(pods) > 1:
                sys.stdout.write(f"==> {printable(name)} <==\n")
            for line in cluster.log_lines(job.namespace, name, training_container(pod), tail=tail):
                show(line)
    except KeyboardInterrupt:
        sys.stdout.flush()
        raise typer.Exit(130) from None


class Format(StrEnum):
    """How ``inspect`` prints the facts it wrote."""

    text = "text"
    markdown = "markdown"
    json = "json"


def inspect(
    stack: options.Stack,
    kubeconfig: options.Kubeconfig = None,
    context: options.Context = None,
    timeout: options.Timeout = options.DEFAULT_TIMEOUT,
    deadline: options.Deadline = options.DEFAULT_DEADLINE,
    output: Annotated[
        Format,
        typer.Option(
            "--format",
            metavar="FORMAT",
            help="text, markdown (a PR comment) or json (the file's text).",
        ),
    ] = Format.text,
) -> None:
    """Read the stack's cluster (nodes, operators, CRDs, Kueue) into facts/STACK.json."""
    from trainstack.console.terminal import print_warning, stderr_console
    from trainstack.experiments.lookup import load_stack_experiments
    from trainstack.facts.render import facts_markdown, facts_text, observation_notes
    from trainstack.facts.store import facts_json, write_facts
    from trainstack.live.connect import connect_reader
    from trainstack.live.inspect import inspect_stack

    project = Project.find()
    resolved = load_stack_experiments(project, stack)
    settings = ClusterOptions(kubeconfig, context, timeout, deadline)
    reader = connect_reader(resolved.stack, settings)
    facts = inspect_stack(reader, resolved)
    path, changed = write_facts(project.root, facts)
    err = stderr_console()
    for note in observation_notes(facts, resolved.stack.config):
        print_warning(note, err)
    if output is Format.json:
        sys.stdout.write(facts_json(facts))
    elif output is Format.markdown:
        sys.stdout.write(facts_markdown(facts))
    else:
        sys.stdout.write(facts_text(facts, reader.where()))
    state = "written to" if changed else "unchanged in"
    sys.stderr.write(f"facts {state} {project.display(path)} ({reader.requests} requests)\n")
