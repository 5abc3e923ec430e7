"""What the project's other stacks select of an experiments directory.

An experiment that no stack selects is checked (every file is) but never deployed: the
plan warns about it (``selectedByNoStack``), naming the stack files that could select it.
Each other stack file is read for its ``trainstack:experiments`` alone; a data stack runs
no experiment, and a stack file that cannot be read or whose ``trainstack:experiments`` is
invalid is passed over here (its own plan reports why).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from pydantic import ValidationError

from trainstack.config.experiments import StackExperiments
from trainstack.config.loader import DATA_STORE_KEY
from trainstack.config.pulumi_config import decode_config_value, read_stack_file
from trainstack.core.errors import TrainstackError
from trainstack.core.project import Project

EXPERIMENTS_KEY = "trainstack:experiments"
DATA_STORE = f"trainstack:{DATA_STORE_KEY}"


@dataclass(frozen=True)
class OtherStack:
    """Another cluster stack of the project and what it selects."""

    source: str
    """Its file, as messages name it."""
    experiments: StackExperiments


def other_stacks(project: Project, stack: str, directory: str) -> tuple[OtherStack, ...]:
    """The project's cluster stacks other than ``stack`` that run experiments of
    ``directory``, sorted by name."""
    found = []
    for name in project.stacks():
        if name == stack:
            continue
        try:
            stack_file = read_stack_file(project, name)
            raw = stack_file.config
            if DATA_STORE in raw or not any(k.startswith("trainstack:") for k in raw):
                continue
            value = decode_config_value(raw[EXPERIMENTS_KEY]) if EXPERIMENTS_KEY in raw else {}
            settings = StackExperiments.model_validate(value)
        except (TrainstackError, ValidationError):
            continue
        if settings.directory == directory:
            found.append(OtherStack(stack_file.source, settings))
    return tuple(found)


def selected_by_any(names: Iterable[str], stacks: Iterable[OtherStack]) -> bool:
    """Whether any of ``stacks`` selects the experiment known by ``names``."""
    names = tuple(names)
    return any(other.experiments.selects(names) for other in stacks)
