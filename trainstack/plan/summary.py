"""The plan's summary on the terminal: what would be created, the GPU capacity, the data."""

from __future__ import annotations

from collections import Counter, defaultdict

from rich.console import Console
from rich.table import Table

from trainstack.checks.pods import role_pods, total_gpus
from trainstack.config.datasets import AlicloudNasSource
from trainstack.deployment import experiment_placeholders
from trainstack.plan.model import Plan


def print_summary(plan: Plan, console: Console, written_to: str) -> None:
    """Counts by type, the pool's GPU capacity, the datasets, and notes."""
    config = plan.stack.config
    counts = Counter(r.type for r in plan.resources if r.type != "pulumi:pulumi:Stack")
    table = Table(title=f"stack {plan.stack.name}: {sum(counts.values())} resources")
    table.add_column("type")
    table.add_column("count", justify="right")
    for type_token, count in sorted(counts.items()):
        table.add_row(type_token, str(count))
    console.print(table)

    pool = config.node_pool
    console.print(
        f"GPU pool {pool.name}: {pool.max_nodes} node(s) x {pool.gpus_per_node} "
        f"{pool.gpu_model} = {pool.gpu_capacity} GPUs"
        + (
            f" (autoscaling {pool.autoscaling.min_size}-{pool.autoscaling.max_size})"
            if pool.autoscaling and pool.autoscaling.enabled
            else ""
        )
    )
    for dataset in config.datasets:
        source = dataset.source
        if isinstance(source, AlicloudNasSource):
            origin = "new NAS file system" if source.create else source.mount_target_domain
        else:
            origin = f"nfs {source.server}"
        console.print(
            f"dataset {dataset.name}: {dataset.capacity} {','.join(dataset.access_modes)} "
            f"in {', '.join(dataset.namespaces)}, {origin}:{dataset.export_path}"
        )
    for operator in config.operators.enabled():
        install = operator.release.install
        origin = ", ".join(f"{k} {v}" for k, v in install.provenance().items() if v)
        console.print(f"operator {operator.label}: {install.kind} ({origin})", markup=False)
        for fact in operator.release.unverified:
            console.print(f"  not verified offline: {fact}", markup=False)
    console.print(f"acceleration: {'on' if config.acceleration.enabled else 'off'}")
    if plan.experiments:
        experiments = Table(title=f"{len(plan.experiments)} experiment(s)")
        kinds_by_release: dict[str, list[str]] = defaultdict(list)
        for rendered in plan.objects:
            release_name = rendered.release.rpartition("::")[2]
            kinds_by_release[release_name].append(str(rendered.object.get("kind")))
        for column in ("experiment", "namespace", "framework", "pods", "GPUs", "objects"):
            experiments.add_column(column)
        for experiment in plan.experiments:
            pods = role_pods(experiment.job)
            objects = kinds_by_release.get(f"{experiment.name}-release", [])
            experiments.add_row(
                experiment.name,
                experiment.namespace,
                experiment.job.framework,
                " + ".join(f"{role.replicas} {role.role}" for role in pods),
                str(total_gpus(experiment.job)),
                ", ".join(sorted(objects)),
            )
        console.print(experiments)
    for warning in plan.warnings:
        console.print(f"warning: {warning}", markup=False)
    for note in plan.notes:
        console.print(f"note: {note}")
    placeholders = plan.stack.placeholders() + experiment_placeholders(plan.experiments)
    if placeholders:
        console.print(f"set before deploying ({len(placeholders)}):", markup=False)
        for key, value in placeholders:
            console.print(f"  {key}: {value}", markup=False)
    console.print(f"plan written to {written_to}")
