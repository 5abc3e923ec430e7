"""``trainstack runs STACK``: the runs ``trainstack run`` created there; ``--delete RUN``."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from trainstack.core.project import Project
from trainstack.live import options
from trainstack.live.options import ClusterOptions


def runs(
    stack: options.Stack,
    delete: Annotated[
        list[str] | None,
        typer.Option(
            "--delete",
            metavar="RUN",
            help="Delete this run (its job, pods and TensorBoard); repeatable. Only runs "
            "`trainstack run` created.",
        ),
    ] = None,
    namespace: Annotated[
        list[str] | None,
        typer.Option(
            "--namespace",
            "-n",
            metavar="NAMESPACE",
            help="Only this namespace (repeatable); default: the stack's teams' and "
            "experiments' namespaces.",
        ),
    ] = None,
    kubeconfig: options.Kubeconfig = None,
    context: options.Context = None,
    timeout: options.Timeout = options.DEFAULT_TIMEOUT,
    deadline: options.Deadline = options.DEFAULT_DEADLINE,
) -> None:
    """The runs `trainstack run` created on the stack's cluster, oldest first."""
    from trainstack.experiments.lookup import load_stack_experiments
    from trainstack.live.cluster import Cluster
    from trainstack.live.connect import connect_reader
    from trainstack.live.writes import ObjectWriter
    from trainstack.submit.listing import delete_run, list_runs, namespaces_of
    from trainstack.submit.runs_text import runs_text

    resolved = load_stack_experiments(Project.find(), stack)
    reader = connect_reader(resolved.stack, ClusterOptions(kubeconfig, context, timeout, deadline))
    cluster, writer = Cluster(reader), ObjectWriter(reader)
    where = namespace or namespaces_of(resolved.stack, {run.namespace for run in resolved.runs})
    found = list_runs(resolved.stack, cluster, where)
    if not delete:
        sys.stdout.write(runs_text(found, stack, reader.where()))
        return
    for name in dict.fromkeys(delete):
        for shown in delete_run(resolved.stack, writer, cluster, found, name):
            print(f"deleted {shown}")
