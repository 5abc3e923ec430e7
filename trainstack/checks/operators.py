"""A job needs an operator that serves its kind in an API the chart renders.

(Settings the serving API would drop are refused earlier, while the experiment is
resolved: ``trainstack.experiments.dialect``.)
"""

from __future__ import annotations

from collections.abc import Sequence

from trainstack.checks.findings import Finding
from trainstack.config.stack import StackConfig
from trainstack.experiments.dialect import serve_with
from trainstack.experiments.resolve import Experiment
from trainstack.training_job.frameworks import framework


def operator_findings(
    experiments: Sequence[Experiment], config: StackConfig, source: str
) -> list[Finding]:
    """An error when no enabled operator serves the job as the chart renders it."""
    return [found for e in experiments for found in _operator(e, config, source)]


def _operator(experiment: Experiment, config: StackConfig, source: str) -> list[Finding]:
    spec = framework(experiment.job.framework)
    serving = config.operators.serving(spec.crd)
    if serving is not None and serving[1].dialect is not None:
        return []
    if serving is None:
        found = f"no enabled operator of trainstack:operators in {source} installs {spec.crd}"
    else:
        operator, served = serving
        found = (
            f"{operator.label} serves {spec.crd} as {served.kind} {served.api_version}, "
            "which the chart does not render"
        )
    return [
        Finding(
            experiment.source,
            experiment.release_name,
            "job.framework",
            f"{spec.name} jobs are {spec.kind} {' or '.join(spec.api_versions)} objects, "
            f"but {found}; "
            f"{serve_with(spec.crd, serving[0] if serving else None)}",
        )
    ]
