"""Fairness of environments: the two stacks' clusters as observed, beside what they declare.

``trainstack diff A B --fairness`` proves the stacks *declare* the same thing; with the facts
of both clusters (``facts/A.json``, ``facts/B.json``, written by ``trainstack inspect``) it
also lists every observed difference but the acceleration component itself (the Kubernetes
or kubelet version, the driver, a pool's node count...). A difference of a kind that
changes training speed (:data:`~trainstack.facts.environment.SPEED_FACTS`: GPU model and
memory, GPUs per node, the driver's or CUDA's major version, instance type, node count,
an operator's version) makes the comparison *not comparable*; any other is a warning.
Without the facts of both, the report says it saw the declared configuration only.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from trainstack.console.safe_text import printable
from trainstack.facts.environment import differences, stack_view
from trainstack.facts.store import read_facts

Severity = Literal["not comparable", "warning", "acceleration"]
SEVERITIES: tuple[Severity, ...] = ("not comparable", "warning", "acceleration")


@dataclass(frozen=True)
class EnvironmentFinding:
    """One observed difference between the two clusters."""

    severity: Severity
    text: str


@dataclass(frozen=True)
class EnvironmentReport:
    """The two clusters' facts compared, or why they were not."""

    findings: tuple[EnvironmentFinding, ...] = ()
    missing: str = ""
    """Why the facts were not compared (empty: they were)."""

    @property
    def compared(self) -> bool:
        """Both stacks had facts, and they were compared."""
        return not self.missing

    @property
    def comparable(self) -> bool:
        """No observed difference changes training speed."""
        return not self.of("not comparable")

    def of(self, severity: Severity) -> tuple[EnvironmentFinding, ...]:
        """The findings of one severity, in fact order."""
        return tuple(f for f in self.findings if f.severity == severity)


DECLARED_ONLY = "declared configuration only"


def environment_report(
    root: Path, a: str, b: str, display: Callable[[Path], str]
) -> EnvironmentReport:
    """The facts of stacks ``a`` and ``b`` of the project at ``root``, compared."""
    facts = {stack: read_facts(root, stack, display) for stack in (a, b)}
    absent = [f"facts/{stack}.json" for stack, found in facts.items() if found is None]
    if absent:
        return EnvironmentReport(
            missing=f"{DECLARED_ONLY}: no {' or '.join(absent)} (`trainstack inspect STACK` "
            "reads a cluster's)"
        )
    a_facts, b_facts = facts[a], facts[b]
    assert a_facts is not None and b_facts is not None
    found = []
    for difference in differences(stack_view(a_facts), stack_view(b_facts)):
        severity: Severity = (
            "acceleration"
            if difference.acceleration
            else "not comparable"
            if difference.speed
            else "warning"
        )
        found.append(EnvironmentFinding(severity, printable(str(difference), None)))
    order = {severity: index for index, severity in enumerate(SEVERITIES)}
    return EnvironmentReport(tuple(sorted(found, key=lambda f: order[f.severity])))


def not_compared(reason: str) -> EnvironmentReport:
    """A report of environments that were not compared, and why."""
    return EnvironmentReport(missing=f"{DECLARED_ONLY}: {reason}")
