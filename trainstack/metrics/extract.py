"""Every metric of one run: declared patterns first, then the recognised formats."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from trainstack.metrics.formats import FORMATS
from trainstack.metrics.measurement import Measurement
from trainstack.metrics.pattern import MAX_LINE_CHARS
from trainstack.metrics.spec import MetricSpec

# Open MPI's `mpirun --tag-output` prefixes each line with `[job,rank]<stdout>:`.
_RANK_PREFIX = re.compile(r"^\[\d+,\d+\]<std(?:out|err)>:")
_LINE_BREAKS = re.compile(r"\r\n|\r|\n")


def log_lines(text: str) -> list[str]:
    """The lines of a log: progress bars' carriage returns split lines too; long lines cut."""
    return [_RANK_PREFIX.sub("", line[:MAX_LINE_CHARS]) for line in _LINE_BREAKS.split(text)]


@dataclass(frozen=True)
class Extracted:
    """What a log (and the job's status) reported, and what the experiment declared in vain."""

    measurements: tuple[Measurement, ...]
    missing: tuple[tuple[int, MetricSpec], ...]
    """Declared metrics (index in ``metrics:``, spec) that nothing reported."""


def extract(
    text: str, declared: Sequence[MetricSpec], extra: Sequence[Measurement] = ()
) -> Extracted:
    """The measurements of one run, sorted by name.

    ``extra`` are measurements from elsewhere (the job's duration). A declaration with a
    pattern reads its own metric; one without gives a recognised metric its unit and
    direction.
    """
    lines = log_lines(text)
    found: dict[str, Measurement] = {}
    for spec in declared:
        if spec.pattern is not None:
            value = _last_value(lines, re.compile(spec.pattern))
            if value is not None:
                found[spec.name] = Measurement(
                    spec.name, spec.unit, spec.higher_is_better, value, "declared"
                )
    for log_format in FORMATS:
        for measurement in log_format.parse(lines):
            found.setdefault(measurement.name, measurement)
    for measurement in extra:
        found.setdefault(measurement.name, measurement)
    missing: list[tuple[int, MetricSpec]] = []
    for index, spec in enumerate(declared):
        recognised = found.get(spec.name)
        if recognised is None:
            missing.append((index, spec))
        elif spec.pattern is None:
            found[spec.name] = replace(
                recognised, unit=spec.unit, higher_is_better=spec.higher_is_better
            )
    return Extracted(tuple(found[name] for name in sorted(found)), tuple(missing))


def _last_value(lines: Sequence[str], pattern: re.Pattern[str]) -> float | None:
    for line in reversed(lines):
        match = pattern.search(line)
        if match:
            try:
                return float(match.group(1))
            except (TypeError, ValueError):
                continue
    return None


def job_duration(status: Mapping[str, Any]) -> Measurement | None:
    """The job's run time from its status (``completionTime - startTime``), when finished."""
    start, end = _timestamp(status.get("startTime")), _timestamp(status.get("completionTime"))
    if start is None or end is None or end < start:
        return None
    return Measurement("duration", "s", False, (end - start).total_seconds(), "job-status")


def _timestamp(value: Any) -> datetime | None:
    if not isinstance(value, str):
        return None
    try:
        found = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    # The API's timestamps are RFC 3339 (with an offset): a naive one is not comparable.
    return found if found.tzinfo is not None else None
