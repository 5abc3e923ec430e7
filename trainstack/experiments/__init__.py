"""Experiments as code: one file per experiment, expanded, overridden per stack, validated.

Its public names; each is imported from its module on first use
(:mod:`trainstack.core.facades`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from trainstack.core.facades import lazy_names

if TYPE_CHECKING:
    from trainstack.experiments.dialect import serve_with
    from trainstack.experiments.lookup import StackRuns, load_stack_experiments
    from trainstack.experiments.model import ExperimentFile
    from trainstack.experiments.placement import role_pools
    from trainstack.experiments.resolve import Experiment
    from trainstack.experiments.runs import DIGEST_ANNOTATION, EXPERIMENT_LABEL, RUN_ANNOTATION
    from trainstack.experiments.select import NotSelected, resolve_selection

__all__ = [
    "DIGEST_ANNOTATION",
    "EXPERIMENT_LABEL",
    "RUN_ANNOTATION",
    "Experiment",
    "ExperimentFile",
    "NotSelected",
    "StackRuns",
    "load_stack_experiments",
    "resolve_selection",
    "role_pools",
    "serve_with",
]

if not TYPE_CHECKING:
    __getattr__ = lazy_names(
        __name__,
        dialect=["serve_with"],
        lookup=["StackRuns", "load_stack_experiments"],
        model=["ExperimentFile"],
        placement=["role_pools"],
        resolve=["Experiment"],
        runs=["DIGEST_ANNOTATION", "EXPERIMENT_LABEL", "RUN_ANNOTATION"],
        select=["NotSelected", "resolve_selection"],
    )
