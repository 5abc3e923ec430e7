"""Warnings a file means: matched with the acknowledgements of experiments and the stack.

What may be acknowledged where: :mod:`trainstack.core.warning_ids`. An experiment file's
acknowledgement covers that warning of any of its experiments (matrix points, runs); the
stack's covers it for the experiment (or matrix) it names, else anywhere on the stack. A
warning both acknowledge is the file's.

An acknowledgement covers a warning of its kind (``warning``) at its key (``key``) only:
a new warning of the same kind about another key (a team's CPU quota next to the GPU
quota it was written for) is a new warning, never silently covered.

An acknowledgement that matches no warning of the plan is itself a warning
(``staleAcknowledgement``, which cannot be acknowledged): it shows in the plan and, as a
new warning, in the pull request, so stale ones never pile up unseen, while a stack whose
overrides remove what a shared experiment file acknowledges still plans (and deploys).
A stack acknowledgement naming an experiment the experiments directory does not have is
an error, like an override of one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from trainstack.checks.findings import Finding, warning
from trainstack.config.stack import StackConfig
from trainstack.core.errors import ConfigError, Problem
from trainstack.core.warning_ids import UNACKNOWLEDGEABLE, Acknowledgement, StackAcknowledgement
from trainstack.experiments.resolve import Experiment

STALE = "staleAcknowledgement"


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
    warnings: Sequence[Finding],
    experiments: Sequence[Experiment],
    config: StackConfig,
    source: str,
    stack_name: str,
    known: Sequence[str] = (),
) -> tuple[list[Finding], list[Acknowledged]]:
    """(warnings left, stale acknowledgements among them; acknowledged warnings).

    ``source``: how messages name the stack's file; ``stack_name``: the stack, named by a
    stale acknowledgement of an experiment file.
    ``known``: the names of the directory's experiments the stack does not run (a stack
    acknowledgement may name them; it then matches nothing here).
    """
    taken: dict[Finding, Acknowledged] = {}
    stale: list[Finding] = []
    files = {e.source: (e.file_experiment, e.acknowledgements) for e in experiments}
    for file, (name, acknowledgements) in sorted(files.items()):
        for index, item in enumerate(acknowledgements):
            matched = [w for w in warnings if w.source == file and _covers(item, w)]
            _take(taken, matched, item, f"{file}: acknowledge[{index}]")
            if not matched:
                stale.append(_stale_in_file(file, name, index, item, stack_name))
    names = {e.file_experiment for e in experiments} | {e.point_name for e in experiments}
    problems = []
    for index, entry in enumerate(config.acknowledge):
        # The stack file's, or the cluster template's it names (shared by its stacks).
        file, key = config.written(f"acknowledge[{index}]", source)
        if entry.experiment is not None and entry.experiment not in names | set(known):
            path = key if file == source else f"{file}: {key}"
            problems.append(_unknown_experiment(path, entry.experiment, names | set(known)))
            continue
        matched = [
            w
            for w in warnings
            if _covers(entry, w)
            and (entry.experiment is None or entry.experiment in _names_of(w, experiments))
        ]
        _take(taken, matched, entry, f"{file}: {key}")
        if not matched:
            stale.append(_stale_on_stack(file, key, entry))
    if problems:
        raise ConfigError(source, problems)
    left = [w for w in warnings if w not in taken]
    return sorted([*left, *stale]), sorted(taken.values())


def _covers(item: Acknowledgement, found: Finding) -> bool:
    """The acknowledgement is of the warning's kind and was written for its key."""
    return found.check == item.warning and found.key == item.key


def _take(
    taken: dict[Finding, Acknowledged], matched: list[Finding], item: Acknowledgement, where: str
) -> None:
    for found in matched:
        taken.setdefault(found, Acknowledged(found, item.reason, where))


def _names_of(found: Finding, experiments: Sequence[Experiment]) -> set[str]:
    """The experiment and matrix names of a warning's experiment (a release name)."""
    return {
        name
        for e in experiments
        if e.release_name == found.experiment
        for name in (e.point_name, e.file_experiment)
    }


def _stale_in_file(
    file: str, name: str, index: int, item: Acknowledgement, stack_name: str
) -> Finding:
    return warning(
        file,
        name,
        f"acknowledge[{index}].warning",
        f"{item.warning} at {item.key}: no experiment of this file gets that warning there "
        f"on stack {stack_name}: "
        "remove the acknowledgement (a warning that only some stacks give is acknowledged in "
        "their stack files: trainstack:acknowledge with experiment)",
        STALE,
    )


def _stale_on_stack(source: str, key: str, entry: StackAcknowledgement) -> Finding:
    who = f"experiment {entry.experiment} gets" if entry.experiment else "the stack gives"
    return warning(
        source,
        entry.experiment or "(stack)",
        f"{key}.warning",
        f"{entry.warning} at {entry.key}: {who} no such warning: remove the acknowledgement",
        STALE,
    )


def _unknown_experiment(key: str, name: str, known: set[str]) -> Problem:
    return Problem(
        f"{key}.experiment",
        repr(name),
        f"the name of an experiment or matrix: {', '.join(sorted(known)) or 'none found'}",
    )


def how_to_acknowledge(found: Finding, config: StackConfig, source: str) -> str:
    """Where and how a warning is acknowledged, for the line under it (empty for the kinds
    that cannot be): its own file's list with its kind and key, and for an experiment's
    warning the stack's list too (this stack only)."""
    if found.severity != "warning" or found.check in UNACKNOWLEDGEABLE:
        return ""
    item = f"{{warning: {found.check}, key: {found.key}, reason: <why it is meant>}}"
    if found.source == source:
        named = "" if found.experiment.startswith("(") else f"experiment: {found.experiment}, "
        stacked = item.replace("key:", f"{named}key:")
        return f"to acknowledge it: add {stacked} to {source}: trainstack:acknowledge"
    file, _ = config.written(found.key, source)
    if file == found.source:  # a key of the stack's cluster template
        return (
            f"to acknowledge it: add {item} to {file}: acknowledge (every stack naming it), "
            f"or to {source}: trainstack:acknowledge (this stack)"
        )
    stacked = item.replace("key:", f"experiment: {found.experiment}, key:")
    return (
        f"to acknowledge it: add {item} to {found.source}: acknowledge (every stack), or "
        f"{stacked} to {source}: trainstack:acknowledge (this stack)"
    )
