"""One experiment's steps: from a candidate (a file's experiment or a matrix point) to the
releases a stack deploys.

Merge the stack's overrides, spell the job for the operator that serves it, add the node
pool's scheduling (to the roles that have a pod template of their own there), label it
with its team's queue, then (on an accelerated stack) apply the acceleration overrides;
the job is validated after each step so that an error names the file or the stack key
that caused it. One release per run the stack deploys.
Which candidates a stack resolves: :mod:`trainstack.experiments.select`.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from trainstack.config.node_pool import NodePool
from trainstack.config.stack import StackConfig
from trainstack.core.errors import ConfigError, ExperimentError, InvalidInputError, Problem
from trainstack.core.validation import problems_from
from trainstack.core.values import merged
from trainstack.core.warning_ids import Acknowledgement
from trainstack.experiments.catalog import ExperimentSource
from trainstack.experiments.dialect import in_operator_api
from trainstack.experiments.image_facts import ImageFacts
from trainstack.experiments.placement import with_placement
from trainstack.experiments.runs import base_values_digest, release_name, run_metadata
from trainstack.experiments.teams import namespace_and_team, queueable, with_queue
from trainstack.experiments.work import Work
from trainstack.metrics.spec import MetricSpec
from trainstack.training_job import TrainingJob

POINT = " (matrix point "
"""How an error's source names a matrix point: ``experiments/x.yaml (matrix point x-lr-1)``."""


@dataclass(frozen=True)
class Experiment:
    """One run of an experiment as deployed on one stack (one Helm release)."""

    release_name: str
    """The Helm release and job name: :attr:`point_name` for run 1, ``<point_name>-r<N>``
    after."""
    point_name: str
    """The experiment: the file's experiment, or a matrix point's own name; the same for all
    its runs."""
    file_experiment: str
    """The experiment (or matrix) name its file gives (``name:``)."""
    source: str
    namespace: str
    job: TrainingJob
    base_values: dict[str, Any]
    """Chart values without the stack's acceleration overrides (for the fairness report)."""
    acceleration_overrides: dict[str, Any] = field(default_factory=dict)
    point: dict[str, Any] | None = None
    team: str | None = None
    """The team whose namespace the experiment runs in (named in the file, or by namespace)."""
    queued: bool = False
    """Whether Kueue holds the job until its team's queue admits it (it has the queue label)."""
    run: int = 1
    metrics: tuple[MetricSpec, ...] = ()
    """What the experiment file declares its log reports (``metrics:``)."""
    pool: str | None = None
    """The GPU node pool its GPU pods run on (``None``: the stack has no GPU pool)."""
    acknowledgements: tuple[Acknowledgement, ...] = ()
    """The warnings its file acknowledges (``acknowledge``)."""
    image_facts: ImageFacts | None = None
    """What its file says its image holds (``imageFacts``)."""
    expected_duration: str | None = None
    """How long its file says one run takes (``expectedDuration``, e.g. ``1h30m``)."""
    work: Work | None = None
    """The work of one step (``work``): what its throughput is predicted from."""

    @functools.cached_property
    def base_digest(self) -> str:
        """The digest of :attr:`base_values` (the job's base-values annotation)."""
        return base_values_digest(self.base_values)

    @functools.cached_property
    def values(self) -> dict[str, Any]:
        """The chart values deployed on this stack."""
        return self.job.chart_values()


@dataclass(frozen=True)
class Candidate:
    """A file's experiment, or one point of its matrix, before the stack's steps."""

    name: str
    source: ExperimentSource
    job: dict[str, Any]
    point: dict[str, Any] | None


def resolve_candidate(
    candidate: Candidate, config: StackConfig, stack_file: str
) -> list[Experiment]:
    """The releases of ``candidate`` on the stack of ``config`` (its file: ``stack_file``):
    the experiment resolved, once per run."""
    return _runs(_resolve(candidate, config, stack_file), candidate, config)


def check_candidate(candidate: Candidate) -> TrainingJob:
    """Validate ``candidate``'s own job, as its file writes it (no stack's steps): what
    every experiment file gets, selected or not."""
    where = _where(candidate)
    return _validated(candidate.job, lambda problems: ExperimentError(where, problems), "job")


def _where(candidate: Candidate) -> str:
    where = candidate.source.display
    if candidate.point is not None:
        where += f"{POINT}{candidate.name})"
    return where


def _resolve(candidate: Candidate, config: StackConfig, stack_file: str) -> Experiment:
    spec = candidate.source.spec
    where = _where(candidate)
    # Each step's values are validated once: a 1,000-experiment plan resolves them all.
    job = candidate.job
    current = check_candidate(candidate)
    overrides = config.experiments.overrides
    for key in dict.fromkeys([spec.name, candidate.name]):
        if key in overrides:
            job = merged(job, overrides[key])
            current = _validated(
                job,
                lambda problems: ConfigError(stack_file, problems),
                f"trainstack:experiments.overrides.{key}",
            )
    pool = _gpu_pool(candidate, config, stack_file)
    # The dialect first: it decides which roles have pod templates of their own to place.
    spelt = _in_operator_api(job, config, where)
    if spelt is not job:
        job = spelt
        current = _validated(job, lambda problems: ExperimentError(where, problems), "job")
    job = with_placement(job, current, config, pool)
    namespace, team = namespace_and_team(spec, config)
    queued = queueable(job, team, config)
    if queued:
        assert team is not None  # only a team's job is queued
        job = with_queue(job, team)
    base = _validated(job, lambda problems: ExperimentError(where, problems), "job")

    acceleration = config.acceleration
    applied: dict[str, Any] = {}
    final = base
    if acceleration.enabled and acceleration.experiment_overrides:
        applied = dict(acceleration.experiment_overrides)
        final = _validated(
            merged(job, applied),
            lambda problems: ConfigError(stack_file, problems),
            "trainstack:acceleration.experimentOverrides",
        )
    return Experiment(
        release_name=candidate.name,
        point_name=candidate.name,
        file_experiment=spec.name,
        source=candidate.source.display,
        namespace=namespace,
        job=final,
        base_values=base.chart_values(),
        acceleration_overrides=applied,
        point=candidate.point,
        team=team,
        queued=queued,
        metrics=tuple(spec.metrics),
        pool=None if pool is None else pool.name,
        acknowledgements=tuple(spec.acknowledge),
        image_facts=spec.image_facts,
        expected_duration=spec.expected_duration,
        work=spec.work,
    )


def _in_operator_api(job: dict[str, Any], config: StackConfig, where: str) -> dict[str, Any]:
    """The job spelled for the operator serving it on the stack (refused if it would lose
    a setting there)."""
    values, problems = in_operator_api(
        job,
        config.operators,
        lambda raw: _validated(raw, lambda found: ExperimentError(where, found), "job"),
    )
    if problems:
        raise ExperimentError(where, problems)
    return values


def _runs(experiment: Experiment, candidate: Candidate, config: StackConfig) -> list[Experiment]:
    """One release per run the stack deploys, each job labelled and annotated with its run.

    The metadata goes on the deployed job only, not in ``base_values``: the digest is of the
    base values, and the same runs on two stacks render the same metadata.
    """
    settings = config.experiments.runs
    runs = settings.get(candidate.name) or settings.get(candidate.source.spec.name)
    numbers = runs.numbers() if runs is not None else range(1, 2)
    job = experiment.job
    deployed = []
    for run in numbers:
        labels, annotations = run_metadata(experiment.release_name, run, experiment.base_digest)
        with_metadata = job.model_copy(
            update={
                "labels": {**job.labels, **labels},
                "annotations": {**job.annotations, **annotations},
            }
        )
        deployed.append(
            dataclasses.replace(
                experiment,
                release_name=release_name(experiment.release_name, run),
                job=with_metadata,
                run=run,
            )
        )
    return deployed


def _validated(job: Mapping[str, Any], error: Any, prefix: str) -> TrainingJob:
    try:
        return TrainingJob.model_validate(job)
    except ValidationError as failure:
        raise error(problems_from(failure, TrainingJob, prefix + ".")) from failure


def _gpu_pool(candidate: Candidate, config: StackConfig, stack_file: str) -> NodePool | None:
    """The experiment's GPU pool: the stack's choice, the file's, else the first GPU pool."""
    spec = candidate.source.spec
    chosen = config.experiments.node_pools
    for key in (candidate.name, spec.name):
        if key in chosen:
            where, name = f"trainstack:experiments.nodePools.{key}", chosen[key]
            error: type[InvalidInputError] = ConfigError
            source = stack_file
            break
    else:
        if spec.node_pool is None:
            return config.gpu_pools[0] if config.gpu_pools else None
        where, name, error, source = (
            "nodePool",
            spec.node_pool,
            ExperimentError,
            candidate.source.display,
        )
    pool = config.pool(name)
    if pool is None or not pool.is_gpu:
        names = ", ".join(p.name for p in config.gpu_pools) or "none"
        found = repr(name) if pool is None else f"{name!r} (a CPU pool)"
        raise error(
            source,
            [Problem(where, found, f"a GPU pool of trainstack:nodePools in {stack_file}: {names}")],
        )
    return pool
