"""The engine's config-map format: a stack file's ``config:`` as Pulumi hands it to programs.

The engine passes every value as a string (structured values as JSON text) and marks the
keys that hold a ``secure:`` value as secret; offline, a ``secure:`` value is never
decrypted but replaced by :data:`SECRET_PLACEHOLDER`. The offline plan builds this map from
the stack file (:func:`read_stack_file`), the program reads it back from the SDK
(:func:`engine_config`), so both see the same keys, values and secrets.

:func:`engine_config` reads SDK internals (``pulumi.runtime.config``): the config the
engine, or the plan's mock engine (``plan/engine.py``, ``set_all_config``), gave the
program. The SDK has no public API for the whole map; ``tests/config/test_pulumi_config.py``
is the canary that fails first when an SDK release changes them.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from trainstack.core.errors import ConfigError, EnvironmentVariableError, Problem, TrainstackError
from trainstack.core.project import Project

SECRET_PLACEHOLDER = "[secret]"


def engine_config() -> tuple[dict[str, Any], set[str]]:
    """(config map, secret keys) the engine (real or mock) gave the running program."""
    from pulumi.runtime import config as runtime_config

    env, keys = engine_environment()
    raw: dict[str, Any] = {**env, **runtime_config.CONFIG.get()}
    secret_keys = set(keys)
    secret_keys |= {key for key in raw if runtime_config.is_config_secret(key)}
    return raw, secret_keys


def engine_environment() -> tuple[dict[str, Any], list[str]]:
    """What the SDK reads of ``PULUMI_CONFIG`` and ``PULUMI_CONFIG_SECRET_KEYS``, checked:
    it decodes them as JSON without a check (``pulumi/runtime/config.py``), and a plan run
    in a shell that left one set would end in an internal error. Checked by every plan
    before its program runs (:func:`trainstack.plan.runner.plan_stack`)."""
    from pulumi.runtime import config as runtime_config

    env = _environment(runtime_config.get_config_env, "PULUMI_CONFIG", "a JSON object")
    keys = _environment(
        runtime_config.get_config_secret_keys_env, "PULUMI_CONFIG_SECRET_KEYS", "a JSON list"
    )
    if not isinstance(env, dict):
        raise _not_config("PULUMI_CONFIG", "a JSON object", f"JSON {type(env).__name__}")
    if not isinstance(keys, list) or not all(isinstance(key, str) for key in keys):
        raise _not_config("PULUMI_CONFIG_SECRET_KEYS", "a JSON list of text", "another value")
    return env, keys


def _environment(read: Callable[[], Any], name: str, allowed: str) -> Any:
    """What the SDK's ``read`` decodes of the variable ``name``."""
    try:
        return read()
    except (ValueError, RecursionError):  # JSONDecodeError, too many digits, too deep
        raise _not_config(name, allowed, "text that is not JSON") from None


def _not_config(name: str, allowed: str, found: str) -> EnvironmentVariableError:
    return EnvironmentVariableError(
        name,
        f"{found} (not shown: it may hold secrets)",
        f"{allowed}, as the Pulumi engine sets it for a program; unset it for `trainstack plan`",
    )


def decode_config_value(value: Any) -> Any:
    """Pulumi hands structured config to programs as JSON text; scalars may be plain text."""
    if not isinstance(value, str):
        return value
    try:
        return json.loads(value)
    except ValueError:  # no JSON, or an integer of more digits than Python reads: text
        return value


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
    path: Path
    """Where it is on disk: the file its messages' keys are found in."""


def read_stack_file(project: Project, stack: str) -> StackFile:
    """The config map, secret keys and display name of ``stack``'s file."""
    from trainstack.core.yaml.io import read_yaml

    path: Path = project.stack_file(stack)
    source = project.display(path)
    document = read_yaml(path, source)
    try:
        config, secret_keys = pulumi_config_map(document, source)
    except TrainstackError as error:
        raise error.reading({source: path}) from None
    section = document.get("config") if isinstance(document, dict) else None
    ciphertexts = {key: section[key] for key in secret_keys} if section else {}
    return StackFile(source, config, secret_keys, ciphertexts, path)
