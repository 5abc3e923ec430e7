"""Load and validate a stack's ``trainstack:`` configuration.

Two callers, one path: the Pulumi program reads the configuration the engine hands it
(``pulumi up`` or the offline plan, which feeds the stack file into the same runtime
config), so both see exactly the same validation and the same messages.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from trainstack.config.clusters.alicloud_rules import password_problem
from trainstack.config.data_stack import DataStackConfig
from trainstack.config.stack import StackConfig
from trainstack.core.credentials import holds_credential
from trainstack.core.errors import ConfigError, Problem, TrainstackError, dotted_path
from trainstack.core.names import placeholders
from trainstack.core.project import CONFIG_NAMESPACE, Project
from trainstack.core.validation import problems_from

KUBECONFIG_KEY = f"{CONFIG_NAMESPACE}:kubeconfig"
DATA_STORE_KEY = "dataStore"
OLD_POOL_KEY = "nodePool"
SECRET_PLACEHOLDER = "[secret]"
_PREFIX = f"{CONFIG_NAMESPACE}:"


@dataclass(frozen=True)
class LoadedStack:
    """A validated stack configuration and what came with it."""

    name: str
    source: str
    config: StackConfig
    kubeconfig: str | None
    """The kubeconfig secret's value (a placeholder offline); ``None`` when not set."""

    def placeholders(self) -> list[tuple[str, str]]:
        """(key, placeholder) of every value still to set before deploying, by key."""
        return _placeholders(self.config)


@dataclass(frozen=True)
class LoadedDataStack:
    """A validated data stack (``trainstack:dataStore``): file systems, no cluster."""

    name: str
    source: str
    config: DataStackConfig

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


def load_stack_config(
    stack: str, raw: dict[str, Any], secret_keys: set[str], source: str
) -> AnyStack:
    """Validate the runtime config map of ``stack`` (keys like ``trainstack:nodePools``).

    A stack with ``trainstack:dataStore`` is a data stack and may hold nothing else of
    ``trainstack:``; every other stack is a cluster stack.
    """
    values: dict[str, Any] = {}
    problems: list[Problem] = []
    kubeconfig: str | None = None
    secrets: dict[str, str] = {}
    passwords = _password_keys(raw)
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
    if not values and not secrets and kubeconfig is None and not problems:
        # An empty file (or one without trainstack: settings) is one problem, not one per key.
        empty = Problem(
            "config",
            "no trainstack: settings",
            "at least trainstack:cluster and trainstack:nodePools (see the README)",
        )
        raise ConfigError(source, [empty])
    if DATA_STORE_KEY in values:
        return _data_stack(stack, values, secrets, kubeconfig, problems, source)
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
        found = problems_from(error, StackConfig, _PREFIX)
        if problems:  # the old key's fix says where the pools go: no "missing nodePools"
            found = [p for p in found if p.path != f"{_PREFIX}nodePools"]
        problems.extend(found)
        config = None
    problems.extend(_secret_problems(config, raw, secrets))
    if problems or config is None:
        raise ConfigError(source, problems)
    return LoadedStack(name=stack, source=source, config=config, kubeconfig=kubeconfig)


def _password_keys(raw: dict[str, Any]) -> set[str]:
    """The config keys the pools name as ``login.passwordSecret`` (read before validation)."""
    pools = decode_config_value(raw.get(f"{_PREFIX}nodePools"))
    keys = set()
    for pool in pools if isinstance(pools, list) else []:
        login = pool.get("login") if isinstance(pool, dict) else None
        key = login.get("passwordSecret") if isinstance(login, dict) else None
        if isinstance(key, str):
            keys.add(key)
    return keys


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


def _secret_problems(
    config: StackConfig | None, raw: dict[str, Any], secrets: dict[str, str]
) -> list[Problem]:
    """Only node passwords may be secret besides the kubeconfig, and they must be."""
    wanted: dict[str, str] = {}
    for index, pool in enumerate(config.node_pools if config else []):
        if pool.login is not None and pool.login.password_secret is not None:
            wanted[pool.login.password_secret] = f"{_PREFIX}nodePools[{index}].login"
    problems = []
    for key in sorted(secrets):
        if key not in wanted:
            problems.append(
                Problem(
                    key,
                    "a secret value (not shown)",
                    f"plain configuration: only {KUBECONFIG_KEY} and the node passwords a "
                    "pool's login.passwordSecret names may be secret; reference Kubernetes "
                    "Secrets by name instead of putting credentials here",
                )
            )
    for key, where in sorted(wanted.items()):
        if key not in raw:
            problems.append(
                Problem(
                    f"{where}.passwordSecret",
                    json.dumps(key),
                    f"a config key that is set: `pulumi config set --secret {key}`",
                )
            )
        elif key not in secrets:
            problems.append(
                Problem(
                    key,
                    "a plain-text value (not shown)",
                    f"a secret: set it with `pulumi config set --secret {key}`",
                )
            )
        elif secrets[key] != SECRET_PLACEHOLDER:
            # Offline the value is never decrypted; under `pulumi up` it is checked here.
            rule = password_problem(secrets[key])
            if rule is not None:
                problems.append(Problem(key, "a password (not shown)", rule))
    return problems


def plain_credentials(key: str, value: Any, secret_keys: set[str]) -> list[Problem]:
    """A problem per credential-looking provider setting (or nested key) in plain text.

    Which names hold credentials: :mod:`trainstack.core.credentials`. The value is never shown.
    A key with any ``secure:`` part is a secret as a whole (Pulumi treats it so).
    """
    if key in secret_keys:
        return []
    if holds_credential(key):
        fix = f"a secret: set it with `pulumi config set --secret {key} <value>`"
        return [Problem(key, "a plain-text value (not shown)", fix)]
    return [
        Problem(
            dotted_path(location, key),
            "a plain-text value (not shown)",
            f"a secret: make it `secure:` with `pulumi config set --path --secret "
            f"'{dotted_path(location, key)}' <value>`",
        )
        for location, leaf in _leaves(decode_config_value(value))
        if isinstance(location[-1], str) and holds_credential(location[-1])
    ]


def _leaves(value: Any, location: tuple[int | str, ...] = ()) -> list[tuple[Any, Any]]:
    if isinstance(value, dict):
        return [pair for k, item in value.items() for pair in _leaves(item, (*location, k))]
    if isinstance(value, list):
        return [pair for i, item in enumerate(value) for pair in _leaves(item, (*location, i))]
    return [(location, value)] if location else []


def decode_config_value(value: Any) -> Any:
    """Pulumi hands structured config to programs as JSON text; scalars may be plain text."""
    if not isinstance(value, str):
        return value
    try:
        return json.loads(value)
    except json.JSONDecodeError:
        return value


def load_from_pulumi() -> AnyStack:
    """The current stack's configuration, as the Pulumi engine (real or mock) provides it."""
    import pulumi
    from pulumi.runtime import config as runtime_config

    stack = pulumi.get_stack()
    raw: dict[str, Any] = {**runtime_config.get_config_env(), **runtime_config.CONFIG.get()}
    secret_keys = set(runtime_config.get_config_secret_keys_env())
    secret_keys |= {key for key in raw if runtime_config.is_config_secret(key)}
    return load_stack_config(stack, raw, secret_keys, stack_source(stack))


def stack_source(stack: str) -> str:
    """How error messages name the stack's file (relative to the project)."""
    try:
        project = Project.find()
    except TrainstackError:
        return f"Pulumi.{stack}.yaml"
    return project.display(project.stack_config_dir / f"Pulumi.{stack}.yaml")


def pulumi_config_map(document: Any, source: str) -> tuple[dict[str, str], set[str]]:
    """A stack file's ``config:`` section as the Pulumi engine passes it to programs.

    Values stored as ``secure:`` are never decrypted: they become a fixed placeholder
    and their keys are marked secret, exactly like the engine marks them.
    """
    if document is None:
        return {}, set()
    if not isinstance(document, dict):
        raise ConfigError(source, [Problem("(document)", "not a mapping", "a mapping")])
    section = document.get("config")
    if section is None:
        return {}, set()
    if not isinstance(section, dict):
        raise ConfigError(
            source, [Problem("config", json.dumps(section, default=str)[:60], "a mapping")]
        )
    config: dict[str, str] = {}
    secret_keys: set[str] = set()
    for key, value in section.items():
        masked, had_secret = _mask_secure(value)
        if had_secret:
            secret_keys.add(str(key))
        config[str(key)] = masked if isinstance(masked, str) else json.dumps(masked)
    return config, secret_keys


def _mask_secure(value: Any) -> tuple[Any, bool]:
    """Replace every ``{secure: ...}`` leaf by the placeholder; report whether any was found."""
    if isinstance(value, dict):
        if set(value) == {"secure"}:
            return SECRET_PLACEHOLDER, True
        found = False
        masked: dict[str, Any] = {}
        for key, item in value.items():
            masked[key], inner = _mask_secure(item)
            found = found or inner
        return masked, found
    if isinstance(value, list):
        pairs = [_mask_secure(item) for item in value]
        return [item for item, _ in pairs], any(inner for _, inner in pairs)
    return value, False


@dataclass(frozen=True)
class StackFile:
    """A stack file as the engine would see it, plus the encrypted values it holds."""

    source: str
    config: dict[str, str]
    secret_keys: set[str]
    ciphertexts: dict[str, Any]
    """The raw ``secure:`` values of the secret keys (never decrypted, never printed)."""


def read_stack_file(project: Project, stack: str) -> StackFile:
    """The config map, secret keys and display name of ``stack``'s file."""
    from trainstack.core.yaml.io import read_yaml

    path: Path = project.stack_file(stack)
    source = project.display(path)
    document = read_yaml(path, source)
    config, secret_keys = pulumi_config_map(document, source)
    section = document.get("config") if isinstance(document, dict) else None
    ciphertexts = {key: section[key] for key in secret_keys} if section else {}
    return StackFile(source, config, secret_keys, ciphertexts)
