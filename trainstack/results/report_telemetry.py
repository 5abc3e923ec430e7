"""The report's GPU telemetry section: the goodput table of the runs that count, and per
experiment the plot of what each run's GPUs did, after the throughput plots. Nothing when
no run has telemetry or an MFU (a report without a Prometheus is unchanged)."""

from __future__ import annotations

import base64
from collections.abc import Mapping, Sequence
from html import escape

from trainstack.results.compare import Row
from trainstack.results.plot_telemetry import telemetry_svg
from trainstack.results.render_usage import USAGE_HEADERS, USAGE_LEGEND, usage_cells
from trainstack.results.report_page import table
from trainstack.results.store import StoredRun


def telemetry_section(
    rows: Sequence[Row], runs: Mapping[str, Mapping[str, Sequence[StoredRun]]]
) -> str:
    """``<h2>GPU telemetry and goodput</h2>`` with its table and plots, or ""."""
    cells = usage_cells(rows)
    figures = []
    for experiment in sorted({row.experiment for row in rows}):
        svg = telemetry_svg(experiment, {stack: runs[stack].get(experiment, ()) for stack in runs})
        if svg is None:
            continue
        data = base64.b64encode(svg.encode()).decode()
        alt = escape(f"{experiment}: SM active, tensor active, power and SM clock of each run")
        figures.append(f'<figure><img src="data:image/svg+xml;base64,{data}" alt="{alt}"></figure>')
    if not cells and not figures:
        return ""
    html = [f'<h2>GPU telemetry and goodput</h2>\n<p class="legend">{escape(USAGE_LEGEND)}</p>\n']
    if cells:
        html.append(
            table([escape(h) for h in USAGE_HEADERS], [[escape(c) for c in row] for row in cells])
        )
    return "".join(html + figures) + "\n"
