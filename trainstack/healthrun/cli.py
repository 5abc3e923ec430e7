"""``trainstack health STACK``: measure the stack's GPUs and interconnect (docs/health.md)."""

from __future__ import annotations

import secrets
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from trainstack.core.project import Project
from trainstack.live import options

if TYPE_CHECKING:
    from trainstack.experiments.lookup import StackRuns

CLEANUP_SECONDS = 120.0
"""Time kept after ``--timeout`` for reading logs and deleting the run's objects."""
DEFAULT_TIMEOUT = 1800.0


def health(
    stack: options.Stack,
    render_dir: Annotated[
        Path | None,
        typer.Option(
            "--render",
            metavar="DIR",
            help="Write the objects a run would create into DIR/STACK (schema-checked), "
            "without a cluster.",
        ),
    ] = None,
    timeout: Annotated[
        float,
        typer.Option(
            "--timeout",
            min=1.0,
            metavar="SECONDS",
            help="Seconds the checks may take, all phases together.",
        ),
    ] = DEFAULT_TIMEOUT,
    nodes: Annotated[
        list[str] | None,
        typer.Option(
            "--node", metavar="NODE", help="Only this node (repeatable); default: every node."
        ),
    ] = None,
    kubeconfig: options.Kubeconfig = None,
    context: options.Context = None,
) -> None:
    """Run DCGM diagnostics, GEMM and NCCL tests on the stack's GPU nodes as Kubernetes
    Jobs, and record them in facts/STACK.health.json."""
    from trainstack.experiments.lookup import load_stack_experiments
    from trainstack.health.targets import offline_members
    from trainstack.healthrun.checks import placeholder_images, plan_checks
    from trainstack.healthrun.render import check_objects, render
    from trainstack.plan.crd_dir import crd_dir_from

    project = Project.find()
    resolved = load_stack_experiments(project, stack)
    config = resolved.stack.config
    wanted = sorted(set(nodes or []))
    if render_dir is not None:
        from trainstack.health.targets import used_pools

        members = offline_members(config, used_pools(resolved))
        checks = plan_checks(resolved, members, wanted, "render")
        checked = check_objects(checks, config, crd_dir_from(None))
        written = render(checks, render_dir, stack)
        print(f"{len(checks.objects())} object(s) written to {written}: {checked}")
        for note in [*checks.notes, *_unpinned(placeholder_images(config))]:
            print(f"note: {note}", file=sys.stderr)
        return
    _measure(project, resolved, wanted, timeout, options.ClusterOptions(kubeconfig, context))


def _unpinned(keys: list[str]) -> list[str]:
    return [f"set before running (not pinned by digest): {key}" for key in keys]


def _measure(
    project: Project,
    resolved: StackRuns,
    wanted: list[str],
    timeout: float,
    settings: options.ClusterOptions,
) -> None:
    from trainstack.core.errors import ClusterError, TrainstackError
    from trainstack.health.store import write_health
    from trainstack.health.targets import used_pools
    from trainstack.healthrun.checks import placeholder_images, plan_checks
    from trainstack.healthrun.facts import health_facts
    from trainstack.healthrun.render import check_objects
    from trainstack.healthrun.runner import Runner
    from trainstack.live.api import ApiReader
    from trainstack.live.inspect import pool_members, read_nodes
    from trainstack.live.kubeconfig import resolve_target
    from trainstack.live.transport import ReadLimits
    from trainstack.plan.crd_dir import crd_dir_from

    config = resolved.stack.config
    unpinned = placeholder_images(config)
    if unpinned:
        raise TrainstackError(
            "trainstack health runs only images pinned by digest; set "
            + "; ".join(unpinned)
            + " (IMAGE:TAG@sha256:..., docs/health.md)"
        )
    limits = ReadLimits(timeout=settings.timeout, deadline=timeout + CLEANUP_SECONDS)
    reader = ApiReader(resolve_target(resolved.stack, settings), limits)
    members = {
        pool: sorted(node.name for node in found)
        for pool, found in pool_members(config, read_nodes(reader)).items()
    }
    checks = plan_checks(resolved, members, wanted, secrets.token_hex(4))
    if not checks.node_jobs:
        pools = ", ".join(pool.name for pool in used_pools(resolved))
        raise ClusterError(
            f"no node of the pools the stack's experiments use ({pools}) on {reader.where()}: "
            "each pool's nodes carry its labels (trainstack:nodePools[].labels); "
            "`trainstack inspect` shows what the cluster has"
        )
    check_objects(checks, config, crd_dir_from(None))

    def progress(text: str) -> None:
        print(text, file=sys.stderr, flush=True)

    progress(
        f"health run {checks.run} on {reader.where()}: {len(checks.node_jobs)} node(s), "
        f"{len(checks.span_jobs)} multi-node shape(s)"
    )
    outcomes = Runner(reader, checks, timeout, progress).run()
    facts = health_facts(resolved.stack.name, checks, outcomes, config.health)
    path, _ = write_health(project.root, facts)
    unhealthy = [node.name for node in facts.nodes if node.problems]
    print(
        f"{project.display(path)}: {len(facts.nodes)} node(s), {len(facts.spans)} shape(s); "
        f"{len(unhealthy)} with problems{': ' + ', '.join(unhealthy) if unhealthy else ''}"
    )
