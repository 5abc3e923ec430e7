"""Load and validate a stack's ``trainstack:`` configuration.

Two callers, one path: the Pulumi program reads the configuration the engine hands it
(``pulumi up`` or the offline plan, which feeds the stack file into the same runtime
config), so both see exactly the same validation and the same messages.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from trainstack.config import cluster_template
from trainstack.config.data_stack import DataStackConfig
from trainstack.config.pulumi_config import decode_config_value, engine_config
from trainstack.config.secret_keys import (
    KUBECONFIG_KEY,
    password_keys,
    plain_credentials,
    secret_problems,
)
from trainstack.config.stack import StackConfig
from trainstack.core.errors import ConfigError, Problem, TrainstackError
from trainstack.core.mentions import Files
from trainstack.core.names import placeholders
from trainstack.core.project import CONFIG_NAMESPACE, Project
from trainstack.core.validation import problems_from

DATA_STORE_KEY = "dataStore"
OLD_POOL_KEY = "nodePool"
_PREFIX = f"{CONFIG_NAMESPACE}:"


@dataclass(frozen=True)
class LoadedStack:
    """A validated stack configuration and what came with it."""

    name: str
    source: str
    config: StackConfig
    kubeconfig: str | None
    """The kubeconfig secret's value (a placeholder offline); ``None`` when not set."""
    template: cluster_template.Template | None = None
    """The cluster template the stack names (``trainstack:clusterTemplate``), if any."""
    path: Path | None = None
    """The stack file on disk (``None``: values handed over without their file)."""

    @property
    def files(self) -> Files:
        """The stack file and its template by the names messages give them, where read."""
        own = {self.source: self.path} if self.path is not None else {}
        return {**own, **(self.template.files if self.template is not None else {})}

    def placeholders(self) -> list[tuple[str, str]]:
        """(key, placeholder) of every value still to set before deploying, by key; those
        of the cluster template as ``<template file>: <key>``, where they are written."""
        found = _placeholders(self.config)
        if self.template is None:
            return found
        return sorted(self.template.locate(key, value) for key, value in found)


@dataclass(frozen=True)
class LoadedDataStack:
    """A validated data stack (``trainstack:dataStore``): file systems, no cluster."""

    name: str
    source: str
    config: DataStackConfig
    path: Path | None = None
    """The stack file on disk (``None``: values handed over without their file)."""

    @property
    def files(self) -> Files:
        """The stack file by the name messages give it, where read."""
        return {self.source: self.path} if self.path is not None else {}

    def placeholders(self) -> list[tuple[str, str]]:
        """(key, placeholder) of every value still to set before deploying, by key."""
        return _placeholders(self.config)


def _placeholders(config: BaseModel) -> list[tuple[str, str]]:
    dumped = config.model_dump(mode="json", by_alias=True, exclude_none=True)
    found = [
        pair
        for key, value in dumped.items()
        for pair in placeholders(value, f"{CONFIG_NAMESPACE}:{key}")
    ]
    return sorted(found)


AnyStack = LoadedStack | LoadedDataStack
_MISSING = "nothing (the key is missing)"


def load_stack_config(
    stack: str, raw: dict[str, Any], secret_keys: set[str], source: str, path: Path | None = None
) -> AnyStack:
    """Validate the runtime config map of ``stack`` (keys like ``trainstack:nodePools``),
    read from the file ``source`` (on disk: ``path``; ``None`` for values handed over
    without their file: messages then name keys without lines).

    A stack with ``trainstack:dataStore`` is a data stack and may hold nothing else of
    ``trainstack:``; every other stack is a cluster stack.
    """
    try:
        return _load(stack, raw, secret_keys, source, path)
    except TrainstackError as error:
        raise error.reading({source: path} if path is not None else {}) from None


def _load(
    stack: str, raw: dict[str, Any], secret_keys: set[str], source: str, path: Path | None
) -> AnyStack:
    found = _by_kind(raw, secret_keys)
    if not found.values and not found.secrets and found.kubeconfig is None and not found.problems:
        # An empty file (or one without trainstack: settings) is one problem, not one per key.
        empty = Problem(
            "config",
            "no trainstack: settings",
            "at least trainstack:cluster and trainstack:nodePools (see docs/configuration.md)",
        )
        raise ConfigError(source, [empty])
    if DATA_STORE_KEY in found.values:
        data = _data_stack(
            stack, found.values, found.secrets, found.kubeconfig, found.problems, source
        )
        return dataclasses.replace(data, path=path)
    return _cluster_stack(stack, raw, found, source, path)


@dataclass(frozen=True)
class _ByKind:
    """A config map sorted by kind of key, and the problems seen while sorting it."""

    values: dict[str, Any]
    """The plain ``trainstack:`` settings, decoded, by key without the prefix."""
    secrets: dict[str, str]
    """The secret ``trainstack:`` keys other than the kubeconfig, by full key."""
    kubeconfig: str | None
    problems: list[Problem]


def _by_kind(raw: dict[str, Any], secret_keys: set[str]) -> _ByKind:
    """Provider settings (checked for plain credentials), the kubeconfig, secrets, values."""
    values: dict[str, Any] = {}
    problems: list[Problem] = []
    kubeconfig: str | None = None
    secrets: dict[str, str] = {}
    passwords = password_keys(raw)
    for key in sorted(raw):
        if not key.startswith(_PREFIX):
            # Provider settings such as alicloud:region belong to their providers; only
            # a credential in plain text is refused (it would be written and shown).
            problems += plain_credentials(key, raw[key], secret_keys)
            continue
        if key == KUBECONFIG_KEY:
            if key not in secret_keys:
                problems.append(
                    Problem(
                        key,
                        "a plain-text value (not shown)",
                        "a secret: set it with `pulumi config set --secret "
                        f"{KUBECONFIG_KEY} < kubeconfig.yaml`",
                    )
                )
            kubeconfig = str(raw[key])
            continue
        if key in secret_keys:
            secrets[key] = str(raw[key])
            continue
        if key in passwords:
            continue  # a node password in plain text: refused below, never echoed
        values[key[len(_PREFIX) :]] = decode_config_value(raw[key])
    return _ByKind(values, secrets, kubeconfig, problems)


def _cluster_stack(
    stack: str, raw: dict[str, Any], found: _ByKind, source: str, path: Path | None
) -> LoadedStack:
    """A cluster stack: the old single-pool key refused, the rest validated, then secrets."""
    problems = list(found.problems)
    values, template = cluster_template.expand(found.values, problems, source, path)
    # Its problems may name the template's keys (`FILE: KEY`).
    files = template.files if template is not None else {}
    if OLD_POOL_KEY in values:
        problems.append(
            Problem(
                f"{_PREFIX}{OLD_POOL_KEY}",
                "the single node pool of earlier versions",
                f"{_PREFIX}nodePools, a list: move the mapping under it as its first item "
                f"(`{_PREFIX}nodePools: [{{name: ..., ...}}]`), add `login: {{keyName: ...}}` "
                "on alicloud, and a CPU pool (gpusPerNode: 0) for launchers if you have one",
            )
        )
        values.pop(OLD_POOL_KEY)
    try:
        config = StackConfig.model_validate(values)
    except ValidationError as error:
        invalid = problems_from(error, StackConfig, _PREFIX)
        if problems:  # the old key's fix says where the pools go: no "missing nodePools"
            invalid = [p for p in invalid if p.path != f"{_PREFIX}nodePools"]
        # A key set aside as secret is refused as such below, not said to be missing too.
        invalid = [p for p in invalid if p.path not in found.secrets or p.found != _MISSING]
        if any(p.path == f"{_PREFIX}{cluster_template.TEMPLATE_KEY}" for p in problems):
            # The template that was to set them is the one problem, not its keys missing too.
            its_keys = {f"{_PREFIX}{key}" for key in cluster_template.SHARED_KEYS}
            invalid = [p for p in invalid if p.path not in its_keys or p.found != _MISSING]
        if template is not None:
            shared, invalid = template.claim(invalid)
            if shared:
                raise ConfigError(template.display, shared, files) from None
        problems.extend(invalid)
        config = None
    if config is not None and config.cluster.creates and found.kubeconfig is not None:
        # One line for the key: its fix is to unset it, whether it is secret or not.
        plain = any(p.path == KUBECONFIG_KEY for p in problems)
        problems = [p for p in problems if p.path != KUBECONFIG_KEY]
        problems.append(
            Problem(
                KUBECONFIG_KEY,
                f"a kubeconfig (not shown{', in plain text' if plain else ''}), with "
                "trainstack:cluster.create",
                "unset: the kubeconfig of a cluster the stack creates is fetched from it",
            )
        )
    problems.extend(secret_problems(config, raw, found.secrets))
    if problems or config is None:
        raise ConfigError(source, problems, files)
    return LoadedStack(
        name=stack,
        source=source,
        config=config.shares(template),
        kubeconfig=found.kubeconfig,
        template=template,
        path=path,
    )


def _data_stack(
    stack: str,
    values: dict[str, Any],
    secrets: dict[str, str],
    kubeconfig: str | None,
    problems: list[Problem],
    source: str,
) -> LoadedDataStack:
    """A data stack: only ``trainstack:dataStore``, no secret, no cluster."""
    others = sorted({*(k for k in values if k != DATA_STORE_KEY), *secrets})
    values = {DATA_STORE_KEY: values[DATA_STORE_KEY]}
    for key in others:
        name = key if key.startswith(_PREFIX) else f"{_PREFIX}{key}"
        problems.append(
            Problem(
                name,
                "a setting of a cluster stack",
                f"nothing in a data stack: it holds only {_PREFIX}{DATA_STORE_KEY} (clusters "
                "mount its file systems through a stack-reference dataset source)",
            )
        )
    if kubeconfig is not None:
        problems.append(Problem(KUBECONFIG_KEY, "a kubeconfig", "nothing in a data stack"))
    try:
        config = DataStackConfig.model_validate(values)
    except ValidationError as error:
        problems.extend(problems_from(error, DataStackConfig, _PREFIX))
        raise ConfigError(source, problems) from None
    if problems:
        raise ConfigError(source, problems)
    return LoadedDataStack(name=stack, source=source, config=config)


def load_from_pulumi() -> AnyStack:
    """The current stack's configuration, as the Pulumi engine (real or mock) provides it."""
    import pulumi

    stack = pulumi.get_stack()
    raw, secret_keys = engine_config()
    source, path = stack_source(stack)
    return load_stack_config(stack, raw, secret_keys, source, path)


def stack_source(stack: str) -> tuple[str, Path | None]:
    """How error messages name the stack's file (relative to the project), and the file
    the engine read the values from (the project's, ``None`` outside a project)."""
    try:
        project = Project.find()
    except TrainstackError:
        return f"Pulumi.{stack}.yaml", None
    path = project.stack_config_dir / f"Pulumi.{stack}.yaml"
    return project.display(path), path
