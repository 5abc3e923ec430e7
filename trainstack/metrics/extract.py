"""Every metric of one run: declared patterns first, then the recognised formats."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from trainstack.metrics.formats import FORMATS, IMAGES_PER_SEC
from trainstack.metrics.intervals import throughput_intervals
from trainstack.metrics.measurement import Measurement
from trainstack.metrics.pattern import MAX_LINE_CHARS
from trainstack.metrics.spec import MetricSpec

# Open MPI's `mpirun --tag-output` prefixes each line with `[job,rank]<stdout>:`.
_RANK_PREFIX = re.compile(r"^\[\d+,\d+\]<std(?:out|err)>:")
_LINE_BREAKS = re.compile(r"\r\n|\r|\n")
_NEWLINES = re.compile(r"\r\n|\n")


def log_lines(text: str) -> list[str]:
    """The lines of a log: progress bars' carriage returns split lines too; long lines cut."""
    lines = _LINE_BREAKS.split(text)
    if any(len(line) > MAX_LINE_CHARS for line in lines):
        lines = [line[:MAX_LINE_CHARS] for line in lines]
    if "]<std" in text:  # whole-text checks first: a 64 MiB log has millions of lines
        lines = [_RANK_PREFIX.sub("", line) if line[:1] == "[" else line for line in lines]
    return lines


def file_line_numbers(text: str) -> list[int]:
    """For each of :func:`log_lines`, its line number in the file (1-based; a progress
    bar's carriage returns do not start a new line in an editor)."""
    numbers = []
    for number, line in enumerate(_NEWLINES.split(text), start=1):
        numbers += [number] * (line.count("\r") + 1)
    return numbers


def _located(text: str, found: Sequence[Measurement]) -> tuple[Measurement, ...]:
    """Each measurement's line as numbered in the file (the same unless carriage returns)."""
    if "\r" not in text.replace("\r\n", "\n") or all(m.line is None for m in found):
        return tuple(found)
    numbers = file_line_numbers(text)
    return tuple(replace(m, line=numbers[m.line - 1]) if m.line is not None else m for m in found)


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
                    spec.name,
                    spec.unit,
                    spec.higher_is_better,
                    value[0],
                    "declared",
                    value[1],
                    spec.scope or "job",
                )
    for log_format in FORMATS:
        if log_format.needle not in text:
            continue
        for measurement in log_format.parse(lines):
            found.setdefault(measurement.name, measurement)
    for measurement in extra:
        found.setdefault(measurement.name, measurement)
    throughput = found.get(IMAGES_PER_SEC)
    printed = "images/sec:" in text or "img/sec per GPU" in text
    if throughput is not None and throughput.intervals is None and printed:
        found[IMAGES_PER_SEC] = replace(throughput, intervals=throughput_intervals(lines))
    missing: list[tuple[int, MetricSpec]] = []
    for index, spec in enumerate(declared):
        recognised = found.get(spec.name)
        if recognised is None:
            missing.append((index, spec))
        elif spec.pattern is None:
            found[spec.name] = replace(
                recognised,
                unit=spec.unit,
                higher_is_better=spec.higher_is_better,
                scope=spec.scope or recognised.scope,
            )
    return Extracted(_located(text, [found[name] for name in sorted(found)]), tuple(missing))


def _last_value(lines: Sequence[str], pattern: re.Pattern[str]) -> tuple[float, int] | None:
    """The last number the pattern reads, and its line (1-based)."""
    for index in range(len(lines) - 1, -1, -1):
        match = pattern.search(lines[index])
        if match:
            try:
                return float(match.group(1)), index + 1
            except (TypeError, ValueError):
                continue
    return None


def job_duration(status: Mapping[str, Any]) -> Measurement | None:
    """The job's run time from its status (``completionTime - startTime``), when finished."""
    start, end = (
        parse_timestamp(status.get("startTime")),
        parse_timestamp(status.get("completionTime")),
    )
    if start is None or end is None or end < start:
        return None
    return Measurement("duration", "s", False, (end - start).total_seconds(), "job-status")


def parse_timestamp(value: Any) -> datetime | None:
    """An API server's RFC 3339 timestamp (``None``: absent, malformed or without offset)."""
    if not isinstance(value, str):
        return None
    try:
        found = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    # The API's timestamps are RFC 3339 (with an offset): a naive one is not comparable.
    return found if found.tzinfo is not None else None
