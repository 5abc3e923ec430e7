"""Everything ``trainstack run`` will submit to one stack, made and checked offline first."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from trainstack.core.project import Project
from trainstack.experiments.overrides import Override
from trainstack.submit.objects import object_ref
from trainstack.submit.prepare import (
    Prepared,
    check_objects,
    load_cluster_stack,
    prepare_experiment,
    render_objects,
)
from trainstack.submit.runset import (
    Run,
    check_stack_label,
    honours_ttl,
    make_runs,
    run_names,
)

DAY = 86_400


@dataclass(frozen=True)
class Request:
    """What the command line asks of every stack."""

    experiment: str
    overrides: tuple[Override, ...]
    count: int
    name: str | None
    ttl: int | None
    """Seconds to keep a finished run; ``None``: ``--keep``."""
    crd_dir: Path | None


@dataclass(frozen=True)
class Campaign:
    """The runs of one command on one stack, their objects and what to tell the user."""

    prepared: Prepared
    runs: tuple[Run, ...]
    objects: dict[str, tuple[dict[str, Any], ...]]
    """Each run's objects, by run name, in the chart's order (the job first)."""
    notes: tuple[str, ...]

    @property
    def stack(self) -> str:
        return self.prepared.stack.name


def make_campaign(project: Project, stack_name: str, request: Request, campaign: str) -> Campaign:
    """The runs of ``request`` on ``stack_name``: resolved, checked and rendered as the
    plan does (every error before anything is sent anywhere)."""
    stack = load_cluster_stack(project, stack_name)
    check_stack_label(stack.name)
    prepared = prepare_experiment(project, stack, request.experiment, request.overrides)
    runs: list[Run] = []
    notes: list[str] = []
    for experiment in prepared.first_runs:
        names = run_names(experiment, campaign, request.count, request.name)
        honoured = honours_ttl(experiment, stack.config.operators)
        runs += make_runs(
            experiment, stack.name, names, campaign, prepared.overrides, request.ttl, honoured
        )
        if request.ttl is not None and not honoured:
            notes.append(
                f"{experiment.point_name} on {stack.name}: its operator keeps finished jobs "
                f"(no ttlSecondsAfterFinished in its API): delete each run with `trainstack "
                f"runs {stack.name} --delete RUN` when its results are collected"
            )
    objects = {run.name: tuple(render_objects(project, run.experiment)) for run in runs}
    every = [document for rendered in objects.values() for document in rendered]
    check_objects(stack, every, request.crd_dir)
    for document in every:
        object_ref(document)  # a kind trainstack cannot submit fails here, offline
    if not prepared.selected:
        notes.append(
            f"{request.experiment} is not selected by stack {stack.name} "
            "(trainstack:experiments.select): `pulumi up` does not deploy it; its runs exist "
            "only through `trainstack run`"
        )
    return Campaign(prepared, tuple(runs), objects, tuple(notes))


def ttl_words(seconds: int | None) -> str:
    """``7 days``, ``36 hours``, ``90 s``; ``kept`` without a TTL."""
    if seconds is None:
        return "kept"
    if seconds and seconds % DAY == 0:
        return f"{seconds // DAY} day(s)"
    if seconds and seconds % 3600 == 0:
        return f"{seconds // 3600} hour(s)"
    return f"{seconds} s"
