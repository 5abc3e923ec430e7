"""A run's outcomes read into the stack's health facts (``facts/STACK.health.json``)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime

from trainstack.config.health import HealthSettings
from trainstack.health.assemble import node_health, span_health
from trainstack.health.model import HealthFacts
from trainstack.healthrun.checks import Checks
from trainstack.healthrun.runner import Outcome


def health_facts(
    stack: str,
    checks: Checks,
    outcomes: Mapping[str, Outcome],
    settings: HealthSettings,
    now: datetime | None = None,
) -> HealthFacts:
    """The facts of one run: each node from its two checks, each shape from its launcher."""
    nccl = {target.node: job["metadata"]["name"] for target, job in checks.nccl_jobs}
    nodes = []
    for target, job in checks.node_jobs:
        check = outcomes.get(job["metadata"]["name"], Outcome())
        pair = outcomes.get(nccl.get(target.node, ""))
        nodes.append(
            node_health(
                target.node,
                target.pool.name,
                target.gpus,
                settings.diag_level,
                check.log,
                pair.log if pair else None,
                [*check.failures, *(pair.failures if pair else [])],
            )
        )
    spans = []
    for span, job in checks.span_jobs:
        outcome = outcomes.get(job["metadata"]["name"], Outcome())
        spans.append(
            span_health(
                span.name, list(span.experiments), outcome.nodes, outcome.log, outcome.failures
            )
        )
    when = (now or datetime.now(UTC)).strftime("%Y-%m-%dT%H:%M:%SZ")
    return HealthFacts(
        format="trainstack-health/1",
        stack=stack,
        measured_at=when,
        diag_level=settings.diag_level,
        images={
            key: image
            for key, image in settings.images.model_dump(by_alias=True).items()
            if image is not None
        },
        nodes=sorted(nodes, key=lambda node: node.name),
        spans=sorted(spans, key=lambda span: span.name),
        notes=list(checks.notes),
    )
