"""``results add`` and ``results collect`` as text: one line per run recorded or skipped,
then the notes on what was not collected (``--format json``: render_json.py)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from trainstack.results.record import RunRecord
from trainstack.results.store import Written


def telemetry_phrase(record: RunRecord) -> str:
    """``telemetry not collected``, or its GPUs and flags; ``failed`` first for a failed run."""
    failed = "failed; " if record.failed else ""
    telemetry = record.telemetry
    if isinstance(telemetry, str):
        return f"{failed}telemetry {telemetry}"
    if not telemetry.gpus:
        return f"{failed}telemetry: no GPU series found (telemetry.notes in its file say why)"
    nodes = len(telemetry.nodes)
    flags = ", ".join(flag.kind for flag in telemetry.flags)
    flagged = f"; flagged: {flags}" if flags else ""
    return f"{failed}telemetry of {telemetry.gpus} GPU(s) on {nodes} node(s){flagged}"


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
        said = f"; {telemetry_phrase(record)}" if record.source == "cluster" else ""
        lines.append(f"{display(item.path)}: run {record.run}: {values or 'no metric'}{said}{note}")
    lines.extend(notes)
    return "".join(f"{line}\n" for line in lines)
