"""Derived and generated content, summarised in a diff (the full text one flag away).

Two things make a small change look large: the base-values digest annotation
(:data:`trainstack.experiments.runs.DIGEST_ANNOTATION`), which follows the experiment's
values and is repeated on the job, its pod templates and the release, so that a one-line
env change shows it three times or more; and the preflight script, inline in every pod's
init container (``charts/training-job/files/preflight.sh``, hundreds of lines), so that a
new 15-line experiment is a 700-line diff. Both are derived from what the diff already
shows. :func:`summarised` replaces the digest with a marker (the change is said once, in a
note) and each preflight script with one line naming it (its digest and length: a changed
script still shows as a changed line); ``trainstack diff --full`` shows everything.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from trainstack.diff.paths import Location, replaced
from trainstack.experiments.runs import DIGEST_ANNOTATION

DIGEST_SHOWN = "(digest follows values)"
PREFLIGHT_HEADER = "# trainstack preflight:"
"""The first line of the chart's preflight script (charts/training-job/files/preflight.sh)."""
CHART_LABEL = "helm.sh/chart"


@dataclass(frozen=True)
class Summary:
    """A document with its derived content summarised, and the digests it held."""

    document: Any
    digests: frozenset[str]


def summarised(document: Any) -> Summary:
    """``document`` with every base-values digest and preflight script summarised."""
    if document is None:
        return Summary(None, frozenset())
    chart = _chart(document)
    replacements: dict[Location, Any] = {}
    digests = set()
    for location, value in _leaves(document):
        if location and location[-1] == DIGEST_ANNOTATION and isinstance(value, str):
            replacements[location] = DIGEST_SHOWN
            digests.add(value)
        elif isinstance(value, str) and value.startswith(PREFLIGHT_HEADER):
            replacements[location] = _preflight_line(value, chart)
    if not replacements:
        return Summary(document, frozenset())
    return Summary(replaced(document, replacements), frozenset(digests))


def digest_note(before: set[str], after: set[str], objects: int) -> str | None:
    """The one note a changed base-values digest gets (``None``: unchanged)."""
    if before == after or not objects:
        return None
    old = ", ".join(sorted(d[:19] for d in before)) or "none"
    new = ", ".join(sorted(d[:19] for d in after)) or "none"
    return (
        f"{DIGEST_ANNOTATION} changed on {objects} object(s), shown as {DIGEST_SHOWN!r}: it "
        f"follows the experiments' values ({old} -> {new}); `trainstack diff --full` shows it"
    )


def _preflight_line(script: str, chart: str | None) -> str:
    digest = hashlib.sha256(script.encode("utf-8")).hexdigest()[:12]
    lines = script.count("\n") + 1
    of = f" of chart {chart}" if chart else ""
    return (
        f"(preflight script{of}: sha256:{digest}, {lines} lines; `trainstack diff --full` shows it)"
    )


def _chart(document: Any) -> str | None:
    """The chart and version the object was rendered from (its ``helm.sh/chart`` label)."""
    metadata = document.get("metadata") if isinstance(document, dict) else None
    labels = metadata.get("labels") if isinstance(metadata, dict) else None
    chart = labels.get(CHART_LABEL) if isinstance(labels, dict) else None
    return chart if isinstance(chart, str) else None


def _leaves(value: Any, location: Location = ()) -> Iterator[tuple[Location, Any]]:
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _leaves(item, (*location, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _leaves(item, (*location, index))
    else:
        yield location, value
