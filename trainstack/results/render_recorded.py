"""``results add`` and ``results collect`` as text: one line per run recorded or skipped,
then the notes on what was not collected (``--format json``: render_json.py)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from trainstack.results.store import Written


def recorded_text(
    written: Sequence[Written], notes: Sequence[str], display: Callable[[Path], str]
) -> str:
    """``FILE: run N: metric value unit, ...`` per run written, ``STACK/EXPERIMENT: skipped:
    why`` per run skipped, then each note; every line ends with a newline."""
    lines = []
    for item in written:
        record = item.record
        if item.path is None:
            lines.append(f"{record.stack}/{record.experiment}: skipped: {item.note}")
            continue
        values = ", ".join(
            f"{name} {value.value:g}{' ' + value.unit if value.unit else ''}"
            for name, value in sorted(record.metrics.items())
        )
        note = f" ({item.note})" if item.note else ""
        lines.append(f"{display(item.path)}: run {record.run}: {values}{note}")
    lines.extend(notes)
    return "".join(f"{line}\n" for line in lines)
