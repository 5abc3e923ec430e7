"""The runs one ``trainstack run`` creates on one stack: each a copy of the experiment's
release under a name of its own, labelled so that ``status``, ``logs``, ``results
collect`` and ``runs`` find it, cleaned up by the operator after its time to live.

A run's name is ``<experiment>-<campaign>-<N>``: the campaign is 6 random characters
shared by the runs of one command (their label :data:`~trainstack.experiments.runs.
CAMPAIGN_LABEL`), ``N`` counts from 1; a long experiment name is cut so that the name of
every pod (``<run>-worker-3``) stays a DNS label. ``--name`` gives the name instead
(``NAME`` for one run, ``NAME-<N>`` for several), never cut.

The time to live is ``runPolicy.ttlSecondsAfterFinished``, set on the run's job only
where the operator serving its kind honours it (the operator catalog's ``honours``, from
each API's CRD: MPIJob v2beta1, and TFJob/PyTorchJob v1 of training-operator, have
``spec.runPolicy.ttlSecondsAfterFinished``; ack-arena's TFJob/PyTorchJob have it directly
under ``spec``, its MPIJob v1alpha1 and Trainer's TrainJob none); elsewhere the run is kept
until ``trainstack runs STACK --delete RUN``, and the command says so. The time to live is
not part of the experiment's base values: a run's results compare with the stack's own.
"""

from __future__ import annotations

import dataclasses
import re
import secrets
import string
from dataclasses import dataclass
from typing import Any

from trainstack.console.safe_text import printable
from trainstack.core.errors import TrainstackError
from trainstack.core.names import LABEL_VALUE_PATTERN, RELEASE_NAME_MAX
from trainstack.experiments.overrides import recorded_json
from trainstack.experiments.resolve import Experiment
from trainstack.experiments.runs import RUN_ANNOTATION, submitted_metadata
from trainstack.training_job.frameworks import framework
from trainstack.training_job.naming import HOSTNAME_MAX, release_name_problems

CAMPAIGN_CHARS = 6
_ALPHABET = string.ascii_lowercase + string.digits
TTL_KEY = "runPolicy.ttlSecondsAfterFinished"


@dataclass(frozen=True)
class Run:
    """One run to submit: the experiment's release renamed, relabelled, with its TTL."""

    stack: str
    experiment: Experiment
    ttl: int | None
    """Seconds the operator keeps the finished job; ``None``: kept (not honoured, or
    ``--keep``)."""

    @property
    def name(self) -> str:
        return self.experiment.release_name


def campaign_id() -> str:
    """6 random lowercase letters and digits: 2e9 campaigns, each name unique in practice
    (and checked against the cluster before anything is applied)."""
    return "".join(secrets.choice(_ALPHABET) for _ in range(CAMPAIGN_CHARS))


def run_names(experiment: Experiment, campaign: str, count: int, base: str | None) -> list[str]:
    """The names of ``count`` runs of ``experiment`` (see the module's documentation)."""
    spec = framework(experiment.job.framework)
    longest = max(spec.pod_suffixes(experiment.job), key=len)
    limit = min(RELEASE_NAME_MAX, HOSTNAME_MAX - len(longest))
    if base is not None:
        names = [base] if count == 1 else [f"{base}-{index}" for index in range(1, count + 1)]
    else:
        tail = f"-{campaign}-{count}"
        head = experiment.point_name[: max(1, limit - len(tail))].rstrip("-")
        names = [f"{head}-{campaign}-{index}" for index in range(1, count + 1)]
    for name in names:
        reasons = [str(problem) for problem in release_name_problems(name, experiment.job)]
        if len(name) > RELEASE_NAME_MAX:
            reasons.append(f"{len(name)} characters; a release has at most {RELEASE_NAME_MAX}")
        if reasons:
            raise TrainstackError(
                f"--name: {printable(name, 80)!r} cannot name a run of {experiment.point_name}: "
                f"{reasons[0]}"
            )
    return names


def check_stack_label(stack: str) -> None:
    """The stack's name is the value of a label on its runs: a label value it must be."""
    if len(stack) > 63 or re.fullmatch(LABEL_VALUE_PATTERN, stack) is None:
        raise TrainstackError(
            f"stack name {stack!r} cannot label its runs (trainstack.io/stack): a label value "
            "is at most 63 letters, digits, '-', '_' or '.', starting and ending with a "
            "letter or digit"
        )


def make_runs(
    experiment: Experiment,
    stack: str,
    names: list[str],
    campaign: str,
    overrides: dict[str, Any],
    ttl: int | None,
    honoured: bool,
) -> list[Run]:
    """One :class:`Run` per name: the job labelled and annotated as a run of ``stack`` (no
    run number: results are numbered when collected), its TTL set where ``honoured``."""
    labels, annotations = submitted_metadata(
        experiment.point_name, stack, campaign, experiment.base_digest, recorded_json(overrides)
    )
    job = experiment.job
    kept = {key: value for key, value in job.annotations.items() if key != RUN_ANNOTATION}
    update: dict[str, Any] = {
        "labels": {**job.labels, **labels},
        "annotations": {**kept, **annotations},
    }
    own_ttl = job.run_policy.ttl_seconds_after_finished
    chosen = ttl if honoured else None
    if own_ttl is None and chosen is not None:
        update["run_policy"] = job.run_policy.model_copy(
            update={"ttl_seconds_after_finished": chosen}
        )
    relabelled = job.model_copy(update=update)
    return [
        Run(
            stack=stack,
            experiment=dataclasses.replace(experiment, release_name=name, job=relabelled),
            ttl=own_ttl if own_ttl is not None else chosen,
        )
        for name in names
    ]


def honours_ttl(experiment: Experiment, stack_operators: Any) -> bool:
    """Whether the operator serving ``experiment``'s kind on the stack honours a TTL."""
    spec = framework(experiment.job.framework)
    serving = stack_operators.serving(spec.crd)
    return TTL_KEY in spec.settings and serving is not None and TTL_KEY in serving[1].honours
