"""Run every plan-time check; errors stop the plan, warnings are reported."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from trainstack.checks.capacity import capacity_findings
from trainstack.checks.claims import claim_findings
from trainstack.checks.findings import Finding
from trainstack.checks.images import image_findings
from trainstack.checks.launcher import launcher_findings
from trainstack.checks.names import name_findings
from trainstack.checks.namespaces import namespace_findings
from trainstack.checks.operators import operator_findings
from trainstack.checks.outputs import output_findings
from trainstack.checks.pod_security import pod_security_findings
from trainstack.checks.pools import pool_findings
from trainstack.checks.queueing import queueing_findings
from trainstack.checks.quota_room import quota_room_findings
from trainstack.checks.quotas import quota_findings
from trainstack.checks.team_defaults import team_default_findings
from trainstack.checks.warning_rules import warning_findings
from trainstack.config.stack import StackConfig
from trainstack.core.errors import PlanCheckError
from trainstack.core.mentions import Files
from trainstack.experiments.resolve import Experiment

Check = Callable[[Sequence[Experiment], StackConfig, str], list[Finding]]
"""Every check's signature: the stack's experiments, its validated configuration, and how
messages name the stack's file. Never the kubeconfig: no check needs a secret."""

CHECKS: tuple[Check, ...] = (
    name_findings,
    pool_findings,
    pod_security_findings,
    team_default_findings,
    queueing_findings,
    quota_room_findings,
    quota_findings,
    operator_findings,
    capacity_findings,
    image_findings,
    claim_findings,
    launcher_findings,
    namespace_findings,
    warning_findings,
    output_findings,
)


def check_experiments(
    experiments: Sequence[Experiment], config: StackConfig, source: str
) -> list[Finding]:
    """Every finding, errors and warnings, sorted by file, experiment and key."""
    return sorted({found for check in CHECKS for found in check(experiments, config, source)})


def enforce(findings: list[Finding], files: Files) -> list[Finding]:
    """Raise when any finding is an error; return the warnings. ``files``: those read, by
    the name messages give them (where the errors' keys are found)."""
    errors = [f for f in findings if f.severity == "error"]
    if errors:
        raise PlanCheckError([str(f) for f in errors], [f.located(files) for f in errors])
    return [f for f in findings if f.severity == "warning"]
