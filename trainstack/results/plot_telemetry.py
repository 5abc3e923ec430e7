"""The report's telemetry plot of one experiment: what each run's GPUs did over its window.

Four panels (SM active, tensor active, power, SM clock) against minutes since the job's
creation, one line per run (the mean over its GPUs at each point, as recorded), one
colour per stack; a run without the field is absent from that panel. Axes from 0, ratios
on 0-100%. Fixed size (12 x 6 in), text kept as text, no date: the same runs give the
same SVG.
"""

from __future__ import annotations

import io
import math
from collections.abc import Mapping, Sequence

from trainstack.results.dcgm import POWER, SM_ACTIVE, SM_CLOCK, TENSOR_ACTIVE
from trainstack.results.plot import pyplot, save_figure
from trainstack.results.store import StoredRun

SIZE = (12.0, 6.0)
PANELS = (
    (SM_ACTIVE, "SM active (%)", 100.0),
    (TENSOR_ACTIVE, "tensor active (%)", 100.0),
    (POWER, "power (W)", 1.0),
    (SM_CLOCK, "SM clock (MHz)", 1.0),
)
_COLOURS = ("#1f77b4", "#ff7f0e")


def telemetry_svg(experiment: str, runs: Mapping[str, Sequence[StoredRun]]) -> str | None:
    """The SVG of ``experiment``'s runs on each stack (``None``: no run has telemetry)."""
    lines = [
        (stack, run.record.run, run.record.telemetry)
        for stack in runs
        for run in runs[stack]
        if not isinstance(run.record.telemetry, str) and run.record.telemetry.series
    ]
    if not lines:
        return None
    plt = pyplot()
    figure, axes = plt.subplots(2, 2, figsize=SIZE, dpi=100)
    colours = {stack: _COLOURS[index % 2] for index, stack in enumerate(runs)}
    for panel, (name, label, scale) in zip(axes.flat, PANELS, strict=True):
        shown = set()
        for stack, number, telemetry in lines:
            assert not isinstance(telemetry, str)
            values = telemetry.series.get(name)
            if not values:
                continue
            minutes = [index * telemetry.step_seconds / 60 for index in range(len(values))]
            scaled = [math.nan if v is None else v * scale for v in values]
            panel.plot(minutes, scaled, color=colours[stack], linewidth=1,
                       label=stack if stack not in shown else None)  # fmt: skip
            shown.add(stack)
            end = 0.0 if math.isnan(scaled[-1]) else scaled[-1]
            panel.annotate(f"run {number}", (minutes[-1], end), fontsize=7)
        panel.set_ylim(bottom=0, top=100 if scale == 100.0 else None)
        panel.set_xlim(left=0)
        panel.set_ylabel(label)
        panel.set_xlabel("minutes since the job's creation")
        if shown:
            panel.legend(loc="lower right")
    figure.suptitle(f"{experiment}: GPU telemetry of each run (mean over its GPUs)")
    figure.tight_layout()
    buffer = io.BytesIO()
    save_figure(figure, buffer, "svg")
    plt.close(figure)
    return buffer.getvalue().decode()
