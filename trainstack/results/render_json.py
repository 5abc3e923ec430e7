"""``results add`` and ``results collect`` with ``--format json``: what was recorded, for
scripts (docs/scripting.md).

``{"format": "trainstack-recorded/1", "recorded": [...], "skipped": [...], "notes": [...]}``:
each run written with its new results file (relative to the project) and the record
itself, exactly as the file holds it (``trainstack-results/1``); each run skipped (an
identical log already recorded) with why and the record it would have written; and the
notes on what was not collected (runs not finished...). Nothing else is printed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from trainstack.console.json_output import json_text
from trainstack.results.store import Written, record_document

RECORDED_FORMAT = "trainstack-recorded/1"


def recorded_json(
    written: Sequence[Written], notes: Sequence[str], display: Callable[[Path], str]
) -> str:
    """The document for what ``write_runs`` did, with a newline (ASCII only)."""
    document = {
        "format": RECORDED_FORMAT,
        "recorded": [
            {"file": display(item.path), "note": item.note, "record": _record(item)}
            for item in written
            if item.path is not None
        ],
        "skipped": [
            {
                "stack": item.record.stack,
                "experiment": item.record.experiment,
                "note": item.note,
                "record": _record(item),
            }
            for item in written
            if item.path is None
        ],
        "notes": list(notes),
    }
    return json_text(document)


def _record(item: Written) -> dict[str, Any]:
    record = record_document(item.record)
    return record
