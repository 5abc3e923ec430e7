"""``trainstack status STACK --format json``: the status rows for scripts (docs/scripting.md).

``{"format": "trainstack-status/1", "stack", "cluster", "jobs": [...]}``, one job per row of
the table, in its order, typed: ``run`` a number (``null`` for a job without the run label),
``podsReady``/``podsExpected`` numbers, ``started``/``completed`` RFC 3339 times and
``durationSeconds`` a number, each ``null`` when the table shows ``-``; ``phase`` is the
job's (``not found`` for a configured run with no job on the cluster); ``reason`` the line
a pod's preflight failed with (``pod: trainstack preflight: ...``), ``null`` when none did.
``datasets``: the populate Job of each dataset that has one (``role`` ``populate``, or
``wait`` for the Job waiting for another stack's), in the stack's order: ``phase``
(``Pending``, ``Running``, ``Succeeded``, ``Failed``, ``Suspended``, ``not found``),
``condition`` (the reason the Job controller ended it, e.g. ``DeadlineExceeded``) and
``reason`` (``pod: line``, the line its container ended with or the last of its log, else
the condition's message), each ``null`` when there is none.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from trainstack.console.json_output import json_text
from trainstack.live.data_jobs import DataJobRow
from trainstack.live.status import StatusRow

STATUS_FORMAT = "trainstack-status/1"
NONE = "-"


def status_json(
    rows: list[StatusRow], stack: str, where: str, data: Sequence[DataJobRow] = ()
) -> str:
    """The rows as one JSON document, with a newline (ASCII: no raw control character)."""
    document = {
        "format": STATUS_FORMAT,
        "stack": stack,
        "cluster": where,
        "jobs": [_job(row) for row in rows],
        "datasets": [_data_job(row) for row in data],
    }
    return json_text(document)


def _data_job(row: DataJobRow) -> dict[str, Any]:
    return {
        "dataset": row.dataset,
        "namespace": row.namespace,
        "job": row.job,
        "role": row.role,
        "phase": row.phase,
        "condition": row.condition or None,
        "reason": row.reason or None,
    }


def _job(row: StatusRow) -> dict[str, Any]:
    ready, _, expected = row.pods.partition("/")
    return {
        "experiment": row.experiment,
        "run": int(row.run) if row.run.isdigit() else None,
        "job": row.job,
        "kind": row.kind,
        "phase": row.phase,
        "podsReady": int(ready) if ready.isdigit() else None,
        "podsExpected": int(expected) if expected.isdigit() else None,
        "started": None if row.started == NONE else row.started,
        "completed": None if row.completed == NONE else row.completed,
        # The table's duration is `{seconds:g} s` (trainstack.live.status).
        "durationSeconds": None if row.duration == NONE else float(row.duration.split()[0]),
        "reason": row.reason or None,
    }
