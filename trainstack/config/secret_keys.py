"""Which keys of a stack's config may hold secrets, and which must.

The kubeconfig (``trainstack:kubeconfig``) and the node passwords a pool's
``login.passwordSecret`` names must be secret; no other ``trainstack:`` key may be (a
Kubernetes Secret is referenced by name instead). A provider setting whose name says it
holds a credential must be secret too. Values are never shown in a problem.
"""

from __future__ import annotations

import json
from typing import Any

from trainstack.config.clusters.alicloud_rules import password_problem
from trainstack.config.pulumi_config import SECRET_PLACEHOLDER, decode_config_value
from trainstack.config.stack import StackConfig
from trainstack.core.credentials import holds_credential
from trainstack.core.errors import Problem
from trainstack.core.key_paths import dotted_path
from trainstack.core.project import CONFIG_NAMESPACE

KUBECONFIG_KEY = f"{CONFIG_NAMESPACE}:kubeconfig"
_PREFIX = f"{CONFIG_NAMESPACE}:"


def password_keys(raw: dict[str, Any]) -> set[str]:
    """The config keys the pools name as ``login.passwordSecret`` (read before validation)."""
    pools = decode_config_value(raw.get(f"{_PREFIX}nodePools"))
    keys = set()
    for pool in pools if isinstance(pools, list) else []:
        login = pool.get("login") if isinstance(pool, dict) else None
        key = login.get("passwordSecret") if isinstance(login, dict) else None
        if isinstance(key, str):
            keys.add(key)
    return keys


def secret_problems(
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
            problems += [
                Problem(
                    path,
                    "a secret value (not shown)",
                    f"plain configuration: only {KUBECONFIG_KEY} and the node passwords a "
                    "pool's login.passwordSecret names may be secret; reference Kubernetes "
                    "Secrets by name instead of putting credentials here",
                )
                for path in secure_leaves(key, raw.get(key))
            ]
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


def secure_leaves(key: str, value: Any) -> list[str]:
    """Where inside ``key`` its ``secure:`` values are (offline: the placeholders left by
    :func:`~trainstack.config.pulumi_config.pulumi_config_map`), e.g.
    ``trainstack:nodePools[0].desiredSize``; the key itself when it is secret as a whole."""
    leaves = [
        dotted_path(location, key)
        for location, leaf in _leaves(decode_config_value(value))
        if leaf == SECRET_PLACEHOLDER
    ]
    return leaves or [key]


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
