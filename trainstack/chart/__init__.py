"""The training-job Helm chart: generated from the experiment model, rendered with Helm.

Its public names; each is imported from its module on first use
(:mod:`trainstack.core.facades`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from trainstack.core.facades import lazy_names

if TYPE_CHECKING:
    from trainstack.chart.batch import RenderRequest, render_all, render_all_json
    from trainstack.chart.cli import chart_app
    from trainstack.chart.render import load_chart, render_training_job

__all__ = [
    "RenderRequest",
    "chart_app",
    "load_chart",
    "render_all",
    "render_all_json",
    "render_training_job",
]

if not TYPE_CHECKING:
    __getattr__ = lazy_names(
        __name__,
        batch=["RenderRequest", "render_all", "render_all_json"],
        cli=["chart_app"],
        render=["load_chart", "render_training_job"],
    )
