"""Were two stacks' runs of an experiment made in comparable environments?

Each run collected from a cluster records where it ran (``environment`` in its results
file: its nodes' facts, the operators' versions, a digest). A pair compares only when the
runs of each side ran in one environment, and the two differ in nothing but the
acceleration component (:mod:`trainstack.facts.environment`): a newer driver, another
instance type, an older kubelet on one side is named, and the pair is not comparable. A
run recorded from a saved log (``results add``) has no known environment: the pair is
compared, and the environment reported as unknown.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from trainstack.console.safe_text import printable
from trainstack.facts.environment import Difference, differences, run_view
from trainstack.facts.model import RunEnvironment
from trainstack.results.record import RunRecord

Status = Literal["same", "differs", "unknown"]
_NAMED = 3
"""Differences named in a reason, before "and N more"."""


@dataclass(frozen=True)
class EnvironmentVerdict:
    """Where the two sides' runs ran, compared."""

    status: Status
    differences: tuple[str, ...] = ()
    reason: str = ""
    """Why the pair is not comparable, or why the environment was not checked."""

    @property
    def comparable(self) -> bool:
        """Nothing but the acceleration differs (or nothing is known of it)."""
        return self.status != "differs"


def _shown(found: Iterable[Difference]) -> list[str]:
    return [printable(str(difference), None) for difference in found]


def _named(found: Sequence[str]) -> str:
    more = f"; and {len(found) - _NAMED} more" if len(found) > _NAMED else ""
    return "; ".join(found[:_NAMED]) + more


def environment_verdict(
    experiment: str,
    a_stack: str,
    a_records: Sequence[RunRecord],
    b_stack: str,
    b_records: Sequence[RunRecord],
) -> EnvironmentVerdict:
    """The environments of one experiment's runs on the two stacks, compared."""
    sides = ((a_stack, a_records), (b_stack, b_records))
    if not a_records or not b_records:
        return EnvironmentVerdict("unknown")
    unknown = [
        stack for stack, records in sides if any(r.environment == "unknown" for r in records)
    ]
    if unknown:
        return EnvironmentVerdict(
            "unknown",
            reason=f"{experiment}: environment unknown on {' and '.join(unknown)} (runs "
            "recorded from saved logs, `results add`): not checked",
        )
    views = []
    for stack, records in sides:
        by_digest: dict[str, RunEnvironment] = {}
        for record in sorted(records, key=lambda record: record.run):
            assert record.environment != "unknown"
            by_digest.setdefault(record.environment.digest, record.environment)
        first, *others = by_digest.values()
        if others:
            within = [
                printable(str(d), None) for d in differences(run_view(first), run_view(others[0]))
            ]
            return EnvironmentVerdict(
                "differs",
                tuple(within),
                f"{experiment}: the runs on {stack} ran in {len(by_digest)} environments: "
                f"{_named(within)}",
            )
        views.append(run_view(first))
    found = _shown(d for d in differences(*views) if not d.acceleration)
    if not found:
        return EnvironmentVerdict("same")
    return EnvironmentVerdict(
        "differs",
        tuple(found),
        f"{experiment}: the environments differ beyond the acceleration: {_named(found)}",
    )
