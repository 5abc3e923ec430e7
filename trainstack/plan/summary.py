"""The plan's summary on the terminal: what would be created, the GPU capacity, the data."""

from __future__ import annotations

import textwrap
from collections import Counter
from typing import Any, Protocol

from rich.console import Console
from rich.table import Table

from trainstack.config.loader import LoadedDataStack, LoadedStack
from trainstack.core.yaml.positions import where_written
from trainstack.cost.estimate import StackCost
from trainstack.cost.render_plan import (
    EXPERIMENT_HEADERS,
    cost_footer,
    cost_lines,
    experiment_rows,
    price_placeholders,
)
from trainstack.deployment import experiment_placeholders, populate_placeholders
from trainstack.plan.files import STACK_TYPE
from trainstack.plan.model import Plan
from trainstack.plan.outside import outside_pulls
from trainstack.plan.review import review_lines
from trainstack.plan.summary_cluster import acceleration_lines, image_lines, pool_lines
from trainstack.plan.summary_data import dataset_lines, file_system_lines
from trainstack.plan.summary_experiments import counted, experiment_counts, experiments_table
from trainstack.plan.summary_jobs import preflight_lines, resource_lines
from trainstack.plan.summary_transport import transport_lines
from trainstack.plan.summary_warnings import print_warnings


def print_summary(
    plan: Plan,
    console: Console,
    written_to: str,
    err: Console | None = None,
    verbose: bool = True,
) -> None:
    """Counts by type, the pools, the datasets, the teams' quotas, experiments and notes.

    Warnings go to ``err`` (stderr), everything else to ``console`` (stdout). Without
    ``verbose`` (``trainstack plan`` without ``--verbose``): grouped under headings (stack,
    capacity, teams, operators, experiments, warnings, cost, to set before deploying),
    long lines wrapped, the details (types, images, transport, pods, preflight, access,
    downloads, cost per experiment, notes) counted in one line.
    """
    counts = Counter(r.type for r in plan.resources if r.type != STACK_TYPE)
    out: Printer = console if verbose else _Grouped(console)
    if not verbose:
        out.print(
            f"stack {plan.stack.name}: {sum(counts.values())} resources of {len(counts)} "
            "types (`--verbose` lists them)",
            markup=False,
        )
    else:
        table = Table(title=f"stack {plan.stack.name}: {sum(counts.values())} resources")
        table.add_column("type", overflow="fold")
        table.add_column("count", justify="right")
        for type_token, count in sorted(counts.items()):
            table.add_row(type_token, str(count))
        out.print(table)
    stack = plan.stack
    warnings_counted = 0
    if isinstance(stack, LoadedDataStack):
        for line in file_system_lines(stack):
            out.print(line, markup=False)
    else:
        _cluster_summary(plan, stack, out, verbose)
        warnings_counted = print_warnings(plan, stack, err, verbose)
    pulls = outside_pulls(plan)
    if not verbose and plan.cost is not None:
        _heading(out, "cost")
    if pulls and isinstance(stack, LoadedStack) and verbose:
        where = stack.config.cluster.region_label
        out.print(
            f"pulled from outside {where} at deploy time ({len(pulls)}); each key points it "
            "at a mirror:",
            markup=False,
        )
        for pull in pulls:
            out.print(f"  {pull.line()}", markup=False)
    if plan.cost is not None:
        _cost_summary(plan.cost, out, verbose)
    for note in plan.notes if verbose else ():
        out.print(f"note: {note}")
    placeholders = (
        plan.stack.placeholders()
        + populate_placeholders(plan.datasets)
        + experiment_placeholders(plan.experiments)
        + (price_placeholders(plan.cost) if plan.cost is not None else [])
    )
    if placeholders:
        title = f"set before deploying ({len(placeholders)})"
        if verbose:
            out.print(f"{title}:", markup=False)
        _heading(out, title)
        for key, value in placeholders:
            item = f"{where_written(key, plan.stack.source, plan.files)}: {value}"
            out.print(f"  {item}" if verbose else item, markup=False)
    if not verbose:
        details = [
            *(
                [f"each of the {len(plan.experiments)} experiments"]
                if counted(plan, verbose)
                else []
            ),
            *([f"{warnings_counted} more warning(s)"] if warnings_counted else []),
            f"{len(counts)} resource types",
            "images",
            "MPI transport",
            "what each pod gets",
            "how a failed preflight ends each job",
            "access",
            f"{len(pulls)} download(s) from outside the region",
            "cost per experiment",
            f"{len(plan.notes)} note(s)",
        ]
        _heading(out, "")
        out.print(f"details (`--verbose`): {', '.join(details)}", markup=False)
    # Whole, never wrapped: scripts and people copy the path from this last line.
    console.print(f"plan written to {written_to}", markup=False, soft_wrap=True)


def _cost_summary(cost: StackCost, console: Printer, verbose: bool = True) -> None:
    """The pools and the stack per hour, the experiments per run and per campaign."""
    for line in cost_lines(cost):
        console.print(line, markup=False)
    if not verbose:
        return
    rows = experiment_rows(cost)
    if rows:
        table = Table(title=f"cost per experiment ({cost.currency or 'no currency set'})")
        for index, column in enumerate(EXPERIMENT_HEADERS):
            table.add_column(
                column, overflow="fold", justify="left" if index in (0, 2) else "right"
            )
        for row in rows:
            table.add_row(*row)
        console.print(table)
    for line in cost_footer(cost):
        console.print(line, markup=False)


def _cluster_summary(
    plan: Plan, stack: LoadedStack, console: Printer, verbose: bool = True
) -> None:
    config = stack.config
    _heading(console, "capacity")
    for line in pool_lines(config, stack.source, plan.files):
        console.print(line, markup=False)
    for resolved in plan.datasets:
        dataset = next(d for d in config.datasets if d.name == resolved.name)
        facts = resolved.facts
        where = ", ".join(
            f"{name} {facts[name].value}" for name in ("zoneId", "storageType") if name in facts
        )
        console.print(
            f"dataset {dataset.name}: {dataset.capacity} {','.join(dataset.access_modes)} "
            f"in {', '.join(dataset.namespaces)}, {facts['fileSystem'].value}:"
            f"{facts['path'].value}" + (f" ({where})" if where else ""),
            markup=False,
        )
        for line in dataset_lines(resolved):
            console.print(line, markup=False)
    _heading(console, "teams")
    for name, enforced in plan.enforcement.items():
        console.print(
            f"team {name}: share {enforced.share.gpu} GPUs enforced by {enforced.by}; "
            f"ResourceQuota {enforced.ceiling.gpu} GPUs ({enforced.reason})",
            markup=False,
        )
    _heading(console, "operators")
    for operator in config.operators.enabled():
        install = operator.release.install
        origin = ", ".join(f"{k} {v}" for k, v in install.provenance().items() if v)
        console.print(f"operator {operator.label}: {install.kind} ({origin})", markup=False)
        for fact in operator.release.unverified:
            console.print(f"  not verified offline: {fact}", markup=False)
    for line in acceleration_lines(config):
        console.print(line, markup=False)
    _heading(console, "experiments")
    if counted(plan, verbose):
        console.print(experiment_counts(plan), markup=False)
    elif plan.experiments:
        console.print(experiments_table(plan))
        for line in image_lines(plan.experiments) if verbose else ():
            console.print(line, markup=False)
    details = transport_lines(plan, stack) + resource_lines(plan, stack)
    for line in details + preflight_lines(plan, stack) if verbose else ():
        console.print(line, markup=False)
    _heading(console, "acknowledged")
    for line in review_lines(plan):
        console.print(line, markup=False)
    access = _access_rows(plan)
    if access and verbose:
        who = Table(title="access: who gets what, in which namespace")
        for column in ("namespace", "role", "subjects"):
            who.add_column(column, overflow="fold")
        for row in access:
            who.add_row(*row)
        console.print(who)


_BINDINGS = {
    "kubernetes:rbac.authorization.k8s.io/v1:RoleBinding",
    "kubernetes:rbac.authorization.k8s.io/v1:ClusterRoleBinding",
}


def _access_rows(plan: Plan) -> list[tuple[str, str, str]]:
    """(namespace, role, subjects) of every role binding the plan creates, sorted."""
    rows = []
    for resource in plan.resources:
        if resource.type not in _BINDINGS:
            continue
        inputs = resource.inputs
        metadata = inputs.get("metadata") or {}
        namespace = str(metadata.get("namespace") or "(cluster-wide)")
        role_ref = inputs.get("roleRef") or {}
        role = f"{role_ref.get('kind', '?')} {role_ref.get('name', '?')}"
        subjects = ", ".join(
            f"{subject.get('kind', '?')} {subject.get('name', '?')}"
            for subject in inputs.get("subjects") or []
            if isinstance(subject, dict)
        )
        rows.append((namespace, role, subjects or "nobody"))
    return sorted(rows)


class Printer(Protocol):
    """What the summary prints through: a rich Console, or the grouped one."""

    def print(self, *objects: Any, **options: Any) -> None: ...


class _Grouped:
    """The console of the grouped summary: lines under a heading are indented, and a line
    longer than :data:`WIDTH` is wrapped, its continuation indented further (tables pass
    through whole)."""

    def __init__(self, console: Console) -> None:
        self.console = console
        self.indent = ""

    def print(self, *objects: Any, **options: Any) -> None:
        (item,) = objects
        if not isinstance(item, str):
            self.console.print(item)
            return
        lines = textwrap.wrap(
            item,
            WIDTH,
            initial_indent=self.indent,
            subsequent_indent=f"{self.indent}    ",
            break_on_hyphens=False,
            break_long_words=False,
        ) or [self.indent]
        for line in lines:
            self.console.print(line, markup=False, soft_wrap=True)


WIDTH = 100
"""Where the grouped summary wraps a line (off a terminal too: it is read, not parsed)."""


def _heading(console: Printer, title: str) -> None:
    """A group's heading in the grouped summary, its lines indented under it (``""``: back
    to no group); nothing in the verbose summary."""
    if isinstance(console, _Grouped):
        console.indent = ""
        if title:
            console.print(f"{title}:")
            console.indent = "  "
