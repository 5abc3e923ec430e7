"""Warnings a file means: matched with the acknowledgements of experiments and the stack.

What may be acknowledged where: :mod:`trainstack.warning_checks`. An experiment file's
acknowledgement covers that warning of any of its experiments (matrix points, runs); the
stack's covers it for the experiment (or matrix) it names, else anywhere on the stack. A
warning both acknowledge is the file's. Every acknowledgement must match a warning of
this stack's plan: one that matches nothing is an error naming it, so that stale ones
never pile up (a file acknowledging what only some stacks warn about moves the
acknowledgement into those stacks' files).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from trainstack.checks.findings import Finding
from trainstack.config.loader import LoadedStack
from trainstack.errors import ConfigError, ExperimentError, InvalidInputError, Problem, raise_all
from trainstack.experiments.resolve import Experiment
from trainstack.warning_checks import Acknowledgement, StackAcknowledgement


@dataclass(frozen=True, order=True)
class Acknowledged:
    """A warning a file means, and why."""

    warning: Finding
    reason: str
    by: str
    """Where the acknowledgement is: ``experiments/x.yaml: acknowledge[0]``."""

    def __str__(self) -> str:
        return f"{self.warning} (acknowledged in {self.by}: {self.reason})"


def acknowledge(
    warnings: Sequence[Finding], experiments: Sequence[Experiment], stack: LoadedStack
) -> tuple[list[Finding], list[Acknowledged]]:
    """(warnings left, acknowledged warnings); raises for acknowledgements that match none."""
    taken: dict[Finding, Acknowledged] = {}
    errors: list[InvalidInputError] = []
    files = {experiment.source: experiment.acknowledgements for experiment in experiments}
    for file, acknowledgements in sorted(files.items()):
        problems = []
        for index, item in enumerate(acknowledgements):
            matched = [w for w in warnings if w.source == file and w.check == item.warning]
            where = f"{file}: acknowledge[{index}]"
            _take(taken, matched, item, where)
            if not matched:
                problems.append(_unmatched_in_file(index, item, stack))
        if problems:
            errors.append(ExperimentError(file, problems))
    problems = []
    for index, entry in enumerate(stack.config.acknowledge):
        key = f"trainstack:acknowledge[{index}]"
        names = _releases(entry, experiments)
        if names is None:
            problems.append(_unknown_experiment(key, entry, experiments))
            continue
        matched = [
            w
            for w in warnings
            if w.check == entry.warning and (entry.experiment is None or w.experiment in names)
        ]
        _take(taken, matched, entry, f"{stack.source}: {key}")
        if not matched:
            problems.append(_unmatched_on_stack(key, entry))
    if problems:
        errors.append(ConfigError(stack.source, problems))
    raise_all(errors)
    left = [w for w in warnings if w not in taken]
    return left, sorted(taken.values())


def _take(
    taken: dict[Finding, Acknowledged],
    matched: list[Finding],
    item: Acknowledgement,
    where: str,
) -> None:
    for found in matched:
        taken.setdefault(found, Acknowledged(found, item.reason, where))


def _releases(entry: StackAcknowledgement, experiments: Sequence[Experiment]) -> set[str] | None:
    """The release names of the experiment (or matrix) ``entry`` names; ``None``: unknown."""
    if entry.experiment is None:
        return set()
    names = {e.name for e in experiments if entry.experiment in (e.experiment_name, e.base_name)}
    return names or None


def _unmatched_in_file(index: int, item: Acknowledgement, stack: LoadedStack) -> Problem:
    return Problem(
        f"acknowledge[{index}].warning",
        f"{item.warning!r}, which no experiment of this file gets on stack {stack.name}",
        "an acknowledgement of a warning the plan gives: remove it (a warning that only "
        "some stacks give is acknowledged in their files: trainstack:acknowledge with "
        "experiment)",
    )


def _unmatched_on_stack(key: str, entry: StackAcknowledgement) -> Problem:
    where = f"experiment {entry.experiment}" if entry.experiment else "anything on this stack"
    return Problem(
        f"{key}.warning",
        f"{entry.warning!r}, which {where} does not get",
        "an acknowledgement of a warning the plan gives: remove it",
    )


def _unknown_experiment(
    key: str, entry: StackAcknowledgement, experiments: Sequence[Experiment]
) -> Problem:
    known = sorted({e.base_name for e in experiments} | {e.experiment_name for e in experiments})
    return Problem(
        f"{key}.experiment",
        repr(entry.experiment),
        f"an experiment or matrix this stack runs: {', '.join(known) or 'none'}",
    )
