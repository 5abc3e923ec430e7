"""A stack's releases, checked pair by pair against the catalog's rules.

The rules are data (``trainstack/operators/compatibility.py``); this module finds each
family's version and key in a stack (``operators.<key>.version``, Kueue's
``queueing.chart.version``) and refuses a pair that breaks a rule, naming both keys (both
are located in the stack file when the error is printed), the reason, and the catalog's
releases that would work.
"""

from __future__ import annotations

from dataclasses import dataclass

from trainstack.config.operators import Operators
from trainstack.config.queueing import Queueing, suspendable_crd
from trainstack.core.base_model import constraint
from trainstack.operators.compatibility import REQUIREMENTS, Requirement
from trainstack.operators.registry import family as operator_family
from trainstack.operators.registry import known_versions


@dataclass(frozen=True)
class _Installed:
    """One family a stack installs: its version and the key that pins it."""

    version: str
    key: str


def installed_versions(operators: Operators, queueing: Queueing) -> dict[str, _Installed]:
    """Every family the stack installs, by family key (Kueue with queueing on)."""
    found = {
        operator.key: _Installed(operator.release.version, f"operators.{operator.key}.version")
        for operator in operators.enabled()
    }
    if queueing.enabled:
        found["kueue"] = _Installed(queueing.chart.version, "queueing.chart.version")
    return found


def check_pairs(operators: Operators, queueing: Queueing) -> None:
    """Raise a constraint error at the first pair of installed releases that breaks a rule."""
    installed = installed_versions(operators, queueing)
    for rule in REQUIREMENTS:
        first, second = installed.get(rule.family), installed.get(rule.needs)
        if first is None or second is None or first.version not in rule.versions:
            continue
        if rule.queued is not None and not (
            queueing.enabled and suspendable_crd(rule.queued, operators)
        ):
            continue
        if second.version not in rule.needs_versions:
            raise constraint(
                second.key, second.version, _fix(rule, first, second), related=(first.key,)
            )


def _fix(rule: Requirement, first: _Installed, second: _Installed) -> str:
    """What works instead: the needed family's releases in range, or the other family's
    releases that the present one works with."""
    needed = operator_family(rule.needs).title
    present = operator_family(rule.family).title
    working = [v for v in known_versions(rule.needs) if v in rule.needs_versions]
    others = [
        version
        for version in known_versions(rule.family)
        if all(
            version not in other.versions or second.version in other.needs_versions
            for other in REQUIREMENTS
            if (other.family, other.needs) == (rule.family, rule.needs)
        )
    ]
    queued = f" while Kueue queues {rule.queued}" if rule.queued else ""
    text = (
        f"a {needed} release that works with {present} {first.version} ({first.key}){queued}: "
        f"{rule.reason}; use {needed} "
    )
    text += f"{' or '.join(working)} ({second.key})" if working else "(none in the catalog)"
    if others:
        text += f", or {present} {' or '.join(others)} ({first.key})"
    return text
