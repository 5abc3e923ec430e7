"""Runs of an experiment: one release per run, and what each job says about itself.

Re-running an experiment, or repeating it for statistics, changes no job value: the stack
says which runs it deploys (``trainstack:experiments.runs``) and each run is its own
release, named ``<experiment>`` for run 1 and ``<experiment>-r<N>`` after it, so raising
``count`` keeps the releases (and jobs) of the runs already there. Every rendered job
carries the metadata below so that ``trainstack results collect`` knows what it reads.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

EXPERIMENT_LABEL = "trainstack.io/experiment"
"""Label on the job and its pods: the experiment (without run suffix) it belongs to."""
RUN_ANNOTATION = "trainstack.io/run"
"""Annotation on the job and its pods: the run number (a decimal string)."""
DIGEST_ANNOTATION = "trainstack.io/base-values-digest"
"""Annotation on the job and its pods: :func:`base_values_digest` of the experiment."""

SUBMITTED_LABEL = "trainstack.io/submitted-by"
"""Label on a job ``trainstack run`` created (and its pods): :data:`SUBMITTED_BY`. Jobs
``pulumi up`` deploys have none; ``trainstack runs`` lists and deletes only jobs with it."""
SUBMITTED_BY = "trainstack-run"
STACK_LABEL = "trainstack.io/stack"
"""Label on a job ``trainstack run`` created: the stack it was run on."""
CAMPAIGN_LABEL = "trainstack.io/campaign"
"""Label on a job ``trainstack run`` created: the one command that created it with its
sibling runs (the random part of their names)."""
OVERRIDES_ANNOTATION = "trainstack.io/overrides"
"""Annotation on a job ``trainstack run`` created: its ``--set`` values as JSON
(:func:`trainstack.experiments.overrides.recorded_json`), ``{}`` without any."""

DIGEST_PREFIX = "sha256:"


def base_values_digest(base_values: Mapping[str, Any]) -> str:
    """The digest of an experiment's base values (what the fairness report compares).

    ``experiments.json`` of a plan holds the same values as ``baseValues``; the job's
    annotation, the results files and ``results compare`` all use this one function.
    """
    text = json.dumps(base_values, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return DIGEST_PREFIX + hashlib.sha256(text.encode("utf-8")).hexdigest()


def release_name(experiment: str, run: int) -> str:
    """The release (and job) of one run: the experiment's own name for run 1."""
    return experiment if run == 1 else f"{experiment}-r{run}"


def run_metadata(experiment: str, run: int, digest: str) -> tuple[dict[str, str], dict[str, str]]:
    """The labels and annotations every job of ``experiment`` carries for ``run``."""
    labels = {EXPERIMENT_LABEL: experiment}
    annotations = {RUN_ANNOTATION: str(run), DIGEST_ANNOTATION: digest}
    return labels, annotations


def submitted_metadata(
    experiment: str, stack: str, campaign: str, digest: str, overrides: str
) -> tuple[dict[str, str], dict[str, str]]:
    """The labels and annotations of a job ``trainstack run`` created: no run number (the
    results are numbered when collected, in the order the jobs were created)."""
    labels = {
        EXPERIMENT_LABEL: experiment,
        SUBMITTED_LABEL: SUBMITTED_BY,
        STACK_LABEL: stack,
        CAMPAIGN_LABEL: campaign,
    }
    return labels, {DIGEST_ANNOTATION: digest, OVERRIDES_ANNOTATION: overrides}
