"""Settings several cluster stacks share: ``trainstack:clusterTemplate``.

Two stacks compared for fairness (``aiacc`` and ``baseline``) must run on clusters that
are the same in everything but what is measured. Written twice, two copies drift; so a
stack may name a *cluster template*, a YAML file in the stack directory holding
``cluster`` and ``nodePools`` exactly as they would stand under ``trainstack:``. Every
stack naming the same file gets the same cluster (version, spec, network, add-ons) and
pools, by construction. A stack may not set a key its template sets (there is no
override: a difference would be a copy again); what differs per stack stays in the
stack file (``trainstack:acceleration``), and a created cluster's name defaults to
``trainstack-<stack>``.

Under ``pulumi up`` the program reads the file too (the same loader); its problems
are reported against the template file, with the key as it is written there.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from trainstack.core.errors import ConfigError, Problem, TrainstackError
from trainstack.core.files import link_leaving, outside_problem
from trainstack.core.mentions import Files
from trainstack.core.project import CONFIG_NAMESPACE, Project
from trainstack.core.yaml.io import read_yaml

TEMPLATE_KEY = "clusterTemplate"
SHARED_KEYS = ("cluster", "nodePools")
ACKNOWLEDGE = "acknowledge"
"""Warnings every stack naming the template means: listed before each stack's own
``trainstack:acknowledge`` (one acknowledgement, written once, for both stacks)."""
_ALLOWED = (*SHARED_KEYS, ACKNOWLEDGE)
_ACK_ITEM = re.compile(rf"^{ACKNOWLEDGE}\[(\d+)\](.*)$", re.DOTALL)
_NAME = re.compile(
    r"^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}(/[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}){0,3}\.yaml$"
)
_PREFIX = f"{CONFIG_NAMESPACE}:"


@dataclass(frozen=True)
class Template:
    """A template a stack names: where it is, and the keys it gave the stack."""

    display: str
    path: Path
    keys: tuple[str, ...]
    acknowledgements: int = 0
    """How many of the stack's ``acknowledge`` items are the template's (they come first)."""

    @property
    def files(self) -> Files:
        """The template by the name messages give it."""
        return {self.display: self.path}

    def locate(self, key: str, value: str) -> tuple[str, str]:
        """``(key, value)`` of a stack's key, as ``<template>: <key>`` when the template
        sets it (``trainstack:cluster.create.version``)."""
        if self.sets(key):
            return f"{self.display}: {key.removeprefix(_PREFIX)}", value
        return key, value

    def sets(self, key: str) -> bool:
        """Whether ``key`` (``nodePools[0].desiredSize``, with or without the
        ``trainstack:`` prefix) is written in the template."""
        bare = key.removeprefix(_PREFIX)
        item = _ACK_ITEM.match(bare)
        if item is not None:
            return int(item.group(1)) < self.acknowledgements
        return any(bare == k or bare.startswith((f"{k}.", f"{k}[")) for k in self.keys)

    def stack_key(self, key: str) -> str:
        """A key of the stack's own file as written there: its acknowledgements are
        numbered after the template's (``acknowledge[2]`` is the stack's ``[0]`` after two)."""
        bare = key.removeprefix(_PREFIX)
        item = _ACK_ITEM.match(bare)
        if item is None or not self.acknowledgements:
            return key
        index = int(item.group(1)) - self.acknowledgements
        return f"{_PREFIX}{ACKNOWLEDGE}[{index}]{item.group(2)}"

    def claim(self, problems: list[Problem]) -> tuple[list[Problem], list[Problem]]:
        """(problems of the template's keys, as the template spells them; the others)."""
        mine: list[Problem] = []
        others: list[Problem] = []
        for problem in problems:
            key = problem.path.removeprefix(_PREFIX)
            if self.sets(key):
                related = tuple(r.removeprefix(_PREFIX) for r in problem.related)
                mine.append(Problem(key, problem.found, problem.allowed, related))
            else:
                path = self.stack_key(problem.path)
                others.append(Problem(path, problem.found, problem.allowed, problem.related))
        return mine, others


def _project_root(directory: Path) -> Path:
    """The project the stack directory belongs to (the directory itself outside one)."""
    try:
        return Project.find(directory).root
    except TrainstackError:
        return directory


def expand(
    values: dict[str, Any], problems: list[Problem], source: str, stack_file: Path | None
) -> tuple[dict[str, Any], Template | None]:
    """``values`` of the stack file ``source`` (on disk: ``stack_file``, ``None`` when the
    values were handed over otherwise) with the template's keys added (``clusterTemplate``
    removed; the file is found beside the stack file); problems of the stack's own keys
    are appended to ``problems``, the template's are raised."""
    if TEMPLATE_KEY not in values:
        return values, None
    values = dict(values)
    name = values.pop(TEMPLATE_KEY)
    key = f"{_PREFIX}{TEMPLATE_KEY}"
    if not isinstance(name, str) or not _NAME.fullmatch(name) or ".." in name.split("/"):
        problems.append(
            Problem(
                key,
                repr(name) if isinstance(name, str) else type(name).__name__,
                "a `.yaml` file in the stack directory, as a relative path "
                "(`templates/workload-1-ack.yaml`)",
            )
        )
        return values, None
    if stack_file is not None:  # the template is beside it
        directory = stack_file.parent
    else:  # values without their file: the project's stack directory
        try:
            directory = Project.find().stack_config_dir
        except TrainstackError as error:
            problems.append(Problem(key, name, f"a file of a project ({error})"))
            return values, None
    path = directory / name
    display = str(PurePosixPath(source).parent / name)
    # The stack directory resolved (it lies in its project), then each part of `name`.
    base = directory.resolve()
    leaving = link_leaving(base / name, _project_root(base))
    if leaving is not None:
        # Never followed: its values would be quoted in errors (a link to ~/.git-credentials).
        outside = outside_problem(leaving, "a file inside the project")
        where = str(PurePosixPath(source).parent / leaving.relative_to(base))
        problems.append(Problem(key, f"{where}: {outside.found}", outside.allowed))
        return values, None
    if not path.is_file():
        problems.append(Problem(key, name, f"a file that exists ({display} does not)"))
        return values, None
    document = read_yaml(path, display)
    files = {display: path}
    if not isinstance(document, dict) or not document:
        found = "an empty file" if not document else type(document).__name__
        raise ConfigError(
            display, [Problem("(file)", found, f"a mapping of {', '.join(_ALLOWED)}")], files
        )
    extra = sorted(str(k) for k in document if k not in _ALLOWED)
    if extra:
        raise ConfigError(
            display,
            [
                Problem(k, "a key a template does not share", f"only {', '.join(_ALLOWED)}")
                for k in extra
            ],
            files,
        )
    shared_acks = document.pop(ACKNOWLEDGE, [])
    if not isinstance(shared_acks, list):
        problem = Problem(ACKNOWLEDGE, type(shared_acks).__name__, "a list")
        raise ConfigError(display, [problem], files)
    if shared_acks:
        own = values.get(ACKNOWLEDGE, [])
        values[ACKNOWLEDGE] = [*shared_acks, *(own if isinstance(own, list) else [own])]
    for shared in sorted(document):
        if shared in values:
            problems.append(
                Problem(
                    f"{_PREFIX}{shared}",
                    f"set here and in the template {display}",
                    "one place: the template (shared, the same for every stack naming it), "
                    "or the stack without a template",
                )
            )
        values[shared] = document[shared]
    return values, Template(display, path, tuple(sorted(document)), len(shared_acks))
