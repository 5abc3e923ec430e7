"""What ``results collect`` adds to each run it records: telemetry, flags and goodput.

Called once per run by :mod:`trainstack.results.collect` (``extras_of``), after the run's
log was read and before anything is written; the Prometheus is opened on the first run.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from trainstack.config.stack import StackConfig
from trainstack.experiments.resolve import Experiment
from trainstack.facts.model import RunEnvironment
from trainstack.live.api import ApiReader
from trainstack.live.jobs import LiveJob
from trainstack.live.options import ClusterOptions
from trainstack.results.goodput import goodput_of, restarts_of
from trainstack.results.record import MetricValue
from trainstack.results.telemetry import TelemetryReader, job_end
from trainstack.results.telemetry_model import RunTelemetry
from trainstack.training_job.frameworks import FrameworkSpec


class RunExtras:
    """Telemetry and goodput of each run of one ``results collect``."""

    def __init__(
        self, config: StackConfig, api: Callable[[], ApiReader], options: ClusterOptions
    ) -> None:
        self.reader = TelemetryReader(config.telemetry, api, options)
        self.recorded = 0

    def of(
        self,
        job: LiveJob,
        spec: FrameworkSpec,
        experiment: Experiment,
        metrics: Mapping[str, MetricValue],
        gpus: int,
        environment: RunEnvironment,
        pods: Sequence[Mapping[str, Any]],
        notes: list[str],
    ) -> dict[str, Any]:
        """The ``telemetry`` and ``goodput`` keys of the run's record."""
        self.recorded += 1
        telemetry = self.reader.of_run(job, spec, gpus, notes)
        products: list[str | None] = [
            group.facts.gpu.product for group in environment.nodes if group.facts.gpu
        ]
        if isinstance(telemetry, RunTelemetry):
            products += [node.model for node in telemetry.nodes]
        goodput = goodput_of(
            created=job.created,
            started=job.start_time,
            ended=job_end(job),
            telemetry=telemetry,
            restarts=restarts_of(job.status, pods),
            metrics=metrics,
            gpus=gpus,
            products=products,
            work=experiment.work,
        )
        return {"telemetry": telemetry, "goodput": goodput}

    def closing_notes(self) -> list[str]:
        """What to say once about telemetry, after the runs (and the Prometheus closed)."""
        self.reader.close()
        why = self.reader.why_not()
        if why is None or not self.recorded:
            return []
        return [f"telemetry not collected: {why} (docs/telemetry.md)"]
