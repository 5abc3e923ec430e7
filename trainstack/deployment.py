"""Everything a stack deploys, checked: its configuration, its experiments, the warnings.

The Pulumi program and ``trainstack plan`` both start here, so a mistake stops
``pulumi preview``/``up`` and the offline plan alike, before any resource is registered.
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Iterator
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path

from trainstack.checks import Finding, check_experiments, enforce
from trainstack.config.loader import LoadedStack, load_from_pulumi
from trainstack.config.placeholders import placeholders
from trainstack.errors import PlaceholderError, TrainstackError
from trainstack.experiments.resolve import Experiment, resolve_experiments

CHART_PATH = "./charts/training-job"
"""The project's own chart, relative to the project root (absolute paths would differ on
every machine and show up as a change in every diff)."""


_PREPARED: ContextVar[Deployment | None] = ContextVar("trainstack_prepared", default=None)
"""Set by the offline plan while it runs the program (see :func:`reusing`)."""


@dataclass(frozen=True)
class Deployment:
    """A validated stack, the experiments it runs, and the warnings about them."""

    stack: LoadedStack
    experiments: tuple[Experiment, ...]
    warnings: tuple[Finding, ...]
    offline: bool = False
    """Run by ``trainstack plan`` under the mock engine: nothing is downloaded or read from
    a cluster, and placeholders are allowed (and listed)."""

    def placeholders(self) -> list[tuple[str, str]]:
        """(key, placeholder) of every value still to set: the stack's, then its experiments'."""
        return self.stack.placeholders() + experiment_placeholders(self.experiments)


def experiment_placeholders(experiments: tuple[Experiment, ...]) -> list[tuple[str, str]]:
    """(``<file>: job.<key>``, placeholder) of the experiments' values still to set, once per
    file (the points of a matrix share theirs), sorted."""
    found = {
        (f"{experiment.source}: {key}", value)
        for experiment in experiments
        for key, value in placeholders(experiment.values, "job")
    }
    return sorted(found)


def prepare(project_root: Path, stack: LoadedStack) -> Deployment:
    """Resolve and check the experiments of ``stack``; raise on any error."""
    experiments = resolve_experiments(project_root, stack)
    warnings = enforce(check_experiments(experiments, stack))
    return Deployment(stack, tuple(experiments), tuple(warnings))


def prepare_for_program() -> Deployment:
    """:func:`prepare` for the Pulumi program: errors end the run cleanly, warnings are logged.

    Under ``trainstack plan`` the plan has already prepared this very configuration
    (see :func:`reusing`); the program then validates the configuration again but does
    not resolve and check every experiment a second time.
    """
    import pulumi

    try:
        stack = load_from_pulumi()
        earlier = _PREPARED.get()
        if earlier is not None:
            if earlier.stack.config == stack.config:
                return earlier
            return dataclasses.replace(prepare(Path.cwd(), stack), offline=True)
        deployment = prepare(Path.cwd(), stack)
        found = deployment.placeholders()
        if found:
            raise PlaceholderError(stack.source, found)
    except TrainstackError as error:
        raise pulumi.RunError(str(error)) from None
    for warning in deployment.warnings:
        pulumi.log.warn(f"warning: {warning}")
    return deployment


@contextlib.contextmanager
def reusing(deployment: Deployment) -> Iterator[None]:
    """Let the program reuse ``deployment`` while it runs (the offline plan)."""
    token = _PREPARED.set(dataclasses.replace(deployment, offline=True))
    try:
        yield
    finally:
        _PREPARED.reset(token)
