"""What a compare says of the throughput each stack's measured health predicts."""

from __future__ import annotations

from trainstack.console.tables import number
from trainstack.results.compare import Row, Side


def expected_notes(row: Row, side: Side) -> list[str]:
    """The range the side's health predicts, and its runs outside it (left out)."""
    if side.expected is None:
        return []
    found = [
        f"{row.experiment} on {side.stack}: {row.metric} predicted {number(side.expected.low)} "
        f".. {number(side.expected.high)} {row.unit} from its health ({side.expected.basis})"
    ]
    found += [
        f"{row.experiment}: run {run} on {side.stack}: {number(value)} {row.unit} is outside "
        "the predicted range: suspect, left out of the statistics"
        for run, value in side.suspect
    ]
    return found
