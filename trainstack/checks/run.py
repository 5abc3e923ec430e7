"""Run every plan-time check; errors stop the plan, warnings are reported."""

from __future__ import annotations

from trainstack.checks.capacity import capacity_findings
from trainstack.checks.claims import claim_findings
from trainstack.checks.findings import Finding
from trainstack.checks.launcher import launcher_findings
from trainstack.checks.names import name_findings
from trainstack.checks.namespaces import namespace_findings
from trainstack.checks.operators import operator_findings
from trainstack.checks.outputs import output_findings
from trainstack.checks.pools import pool_findings
from trainstack.checks.quotas import quota_findings
from trainstack.checks.warning_rules import warning_findings
from trainstack.config.loader import LoadedStack
from trainstack.core.errors import PlanCheckError
from trainstack.experiments import Experiment


def check_experiments(experiments: list[Experiment], stack: LoadedStack) -> list[Finding]:
    """Every finding, errors and warnings, sorted by file, experiment and key."""
    findings = name_findings(experiments)
    findings += pool_findings(stack)
    findings += quota_findings(experiments, stack)
    for experiment in experiments:
        findings += operator_findings(experiment, stack)
        findings += capacity_findings(experiment, stack)
        findings += claim_findings(experiment, stack)
        findings += launcher_findings(experiment)
        findings += namespace_findings(experiment, stack)
        findings += warning_findings(experiment, stack)
        findings += output_findings(experiment)
    return sorted(set(findings))


def enforce(findings: list[Finding]) -> list[Finding]:
    """Raise when any finding is an error; return the warnings."""
    errors = [f for f in findings if f.severity == "error"]
    if errors:
        raise PlanCheckError([str(f) for f in errors], [f.located() for f in errors])
    return [f for f in findings if f.severity == "warning"]
