"""The summary's experiments: a row each, or at fleet scale one line counting them."""

from __future__ import annotations

from collections import Counter, defaultdict

from rich.table import Table

from trainstack.checks.pods import role_pods, total_gpus
from trainstack.plan.model import Plan

EXPERIMENT_ROWS = 50
"""Experiments the default summary lists one row each; more are counted (by framework and
namespace): a table of 1,000 rows is not read, and ``--verbose`` still prints it."""


def counted(plan: Plan, verbose: bool) -> bool:
    """Whether the summary counts the experiments in one line rather than listing them."""
    return not verbose and len(plan.experiments) > EXPERIMENT_ROWS


def experiments_table(plan: Plan) -> Table:
    """A row per experiment: where it runs, its pods, GPUs and the kinds it renders."""
    table = Table(title=f"{len(plan.experiments)} experiment(s)")
    kinds_by_release: dict[str, list[str]] = defaultdict(list)
    for rendered in plan.objects:
        release_name = rendered.release.rpartition("::")[2]
        kinds_by_release[release_name].append(str(rendered.object.get("kind")))
    for column in ("experiment", "namespace", "framework", "pods", "GPUs", "objects"):
        # Names fold onto a second line in a narrow terminal, never end in "…".
        table.add_column(column, overflow="fold")
    for experiment in plan.experiments:
        pods = role_pods(experiment.job)
        objects = kinds_by_release.get(f"{experiment.release_name}-release", [])
        table.add_row(
            experiment.release_name,
            experiment.namespace,
            experiment.job.framework,
            " + ".join(f"{role.replicas} {role.role}" for role in pods),
            str(total_gpus(experiment.job)),
            ", ".join(sorted(objects)),
        )
    return table


def experiment_counts(plan: Plan) -> str:
    """The experiments in one line: how many of each framework, where, and their GPUs."""
    frameworks = Counter(experiment.job.framework for experiment in plan.experiments)
    namespaces = sorted({experiment.namespace for experiment in plan.experiments})
    gpus = sum(total_gpus(experiment.job) for experiment in plan.experiments)
    return (
        f"{len(plan.experiments)} experiments: "
        + ", ".join(f"{count} {name}" for name, count in sorted(frameworks.items()))
        + f"; in {len(namespaces)} namespace(s) ({', '.join(namespaces)}); "
        + f"{gpus} GPUs asked for in all"
    )
