"""Summary lines about the experiments' jobs as the cluster will run them: what each pod
gets after its team's LimitRange, and what ends a job whose preflight fails, and within how
long (docs/preflight.md#when-a-check-fails)."""

from __future__ import annotations

from typing import Any

from trainstack.checks.effective_resources import (
    ARENA_CHART,
    Amount,
    RoleResources,
    effective_resources,
)
from trainstack.checks.preflight_end import Ending, Kueue, endings
from trainstack.config.loader import LoadedStack
from trainstack.config.queueing import QUEUE_LABEL, duration_seconds
from trainstack.plan.model import Plan
from trainstack.training_job.frameworks import framework

HEADING = "a failed preflight ends each job (docs/preflight.md#when-a-check-fails):"


RESOURCES_HEADING = "what each pod gets, after its team's LimitRange (* the team's default):"


def resource_lines(plan: Plan, stack: LoadedStack) -> list[str]:
    """Per experiment (its first run): each role's requests and limits as the API server
    stores them; for an arenaSubmit job, what Arena's chart set beside them."""
    lines = []
    for experiment in plan.experiments:
        if experiment.run != 1:
            continue
        job = experiment.job
        team = None if experiment.team is None else stack.config.team(experiment.team)
        roles = " | ".join(_role(role) for role in effective_resources(job, team))
        if job.arena_submit:
            roles += f"; arenaSubmit: Arena's chart sets none of the * amounts ({ARENA_CHART})"
        lines.append(f"  {experiment.point_name}: {roles}")
    return [RESOURCES_HEADING, *lines] if lines else []


def _role(role: RoleResources) -> str:
    kinds = [
        f"{kind} {', '.join(_amount(name, amount) for name, amount in amounts.items())}"
        for kind, amounts in (("requests", role.requests), ("limits", role.limits))
        if amounts
    ]
    return f"{role.role} x{role.replicas}: {'; '.join(kinds) or 'nothing set'}"


def _amount(name: str, amount: Amount) -> str:
    return f"{name} {amount.value}{'*' if amount.origin == 'default' else ''}"


def preflight_lines(plan: Plan, stack: LoadedStack) -> list[str]:
    """Per experiment (its first run) with the preflight on: each role, what ends the job
    when its preflight fails, the bound, and whether the reason stays for status."""
    config = stack.config
    lines = []
    for experiment in plan.experiments:
        job = experiment.job
        spec = framework(job.framework)
        obj = _job_object(plan, experiment.release_name, spec.kind)
        serving = config.operators.serving(spec.crd)
        if experiment.run != 1 or not job.preflight.enabled or obj is None:
            continue
        if serving is None or serving[1].failure is None:
            lines.append(f"  {experiment.point_name}: its operator's failure handling unknown")
            continue
        queued = QUEUE_LABEL in ((obj.get("metadata") or {}).get("labels") or {})
        kueue = None
        if queued and serving[1].suspend and config.queueing.enabled:
            queueing = config.queueing
            kueue = Kueue(duration_seconds(queueing.pods_ready_timeout), queueing.requeue_limit)
        found = endings(obj, serving[1].failure, kueue)
        lines.append(f"  {experiment.point_name}: {_shown(found, kueue)}")
    return [HEADING, *lines] if lines else []


def _job_object(plan: Plan, release_name: str, kind: str) -> dict[str, Any] | None:
    """The rendered job of the experiment's release (not its TensorBoard's objects)."""
    suffix = f"::{release_name}-release"
    return next(
        (
            r.object
            for r in plan.objects
            if r.release.endswith(suffix) and r.object.get("kind") == kind
        ),
        None,
    )


def _shown(found: list[Ending], kueue: Kueue | None) -> str:
    """``within 300 s, its line kept (launcher: ...; worker: ...)``: the longest bound."""
    roles = "; ".join(f"{ending.role}: {ending.how}" for ending in found)
    if kueue is not None and any(ending.by_kueue for ending in found):
        roles += (
            f"; else Kueue deactivates it after {kueue.requeue_limit + 1} podsReadyTimeout(s) "
            f"of {kueue.timeout} s and {kueue.requeue_limit} requeue(s)"
        )
    if any(ending.seconds is None for ending in found):
        never = [ending for ending in found if ending.seconds is None]
        fixes = "; ".join(dict.fromkeys(ending.fix for ending in never))
        return f"NEVER ends when {', '.join(e.role for e in never)} fails ({roles}); {fixes}"
    seconds = max(ending.seconds or 0 for ending in found)
    within = "at once" if seconds == 0 else f"within {seconds} s"
    lost = [ending.role for ending in found if not ending.kept]
    kept = f"the line lost with the pods of {', '.join(lost)}" if lost else "its line kept"
    return f"{within}, {kept} ({roles})"
