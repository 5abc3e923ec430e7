"""mypy checks every provider API group the code uses, and reads no other.

pyproject.toml skips the providers' subpackages (``follow_imports = "skip"``) except those
listed as ``silent``: a group used but not listed would be typed ``Any`` and its calls go
unchecked, with no error to say so. The groups used are read from the code mypy checks:
``import pulumi_kubernetes as k8s`` then ``k8s.core.v1.Secret``, or ``from
pulumi_alicloud import cs``.
"""

from __future__ import annotations

import ast
import functools
import importlib.util
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from tests.python_source import parse_python
from tests.stack_helpers import REPO

PROVIDERS = ("pulumi_kubernetes", "pulumi_alicloud")


@functools.cache
def _mypy_config() -> dict[str, Any]:
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    mypy: dict[str, Any] = config["tool"]["mypy"]
    return mypy


def _mypy_overrides() -> list[dict[str, object]]:
    overrides: list[dict[str, object]] = _mypy_config().get("overrides", [])
    return overrides


def _patterns(follow: str) -> set[str]:
    found: set[str] = set()
    for override in _mypy_overrides():
        if override.get("follow_imports") == follow:
            modules = override["module"]
            found.update([modules] if isinstance(modules, str) else modules)  # type: ignore[list-item]
    return found


def _covered(module: str, patterns: set[str]) -> bool:
    """mypy's structured patterns: ``a.b.*`` is ``a.b`` and below, ``a.b`` is itself."""
    return any(
        module == pattern or (pattern.endswith(".*") and (module + ".").startswith(pattern[:-1]))
        for pattern in patterns
    )


def _is_module(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except ModuleNotFoundError:
        return False


def _dotted(node: ast.expr) -> list[str] | None:
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    return [node.id, *reversed(parts)]


def provider_modules_used(tree: ast.Module) -> set[str]:
    """Every provider module ``tree`` reaches: imported, or named through an alias."""
    aliases: dict[str, str] = {}
    used: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] in PROVIDERS:
                    aliases[alias.asname or alias.name] = alias.name
                    used.add(alias.name)
        elif isinstance(node, ast.ImportFrom) and node.module:
            if node.module.split(".")[0] in PROVIDERS:
                used.add(node.module)
                for alias in node.names:
                    if _is_module(f"{node.module}.{alias.name}"):
                        aliases[alias.asname or alias.name] = f"{node.module}.{alias.name}"
                        used.add(f"{node.module}.{alias.name}")
    for node in ast.walk(tree):
        chain = _dotted(node) if isinstance(node, ast.Attribute) else None
        if not chain or chain[0] not in aliases:
            continue
        module = aliases[chain[0]]
        for part in chain[1:]:
            if not _is_module(f"{module}.{part}"):
                break
            module = f"{module}.{part}"
            used.add(module)
    return used


def _checked_sources() -> Iterator[Path]:
    for entry in _mypy_config()["files"]:
        path = REPO / entry
        yield from sorted(path.rglob("*.py")) if path.is_dir() else [path]


@functools.cache
def _used_by_the_code() -> frozenset[str]:
    return frozenset().union(*(provider_modules_used(parse_python(p)) for p in _checked_sources()))


def test_every_provider_group_the_code_uses_is_type_checked() -> None:
    used = _used_by_the_code()
    assert {"pulumi_kubernetes.core.v1", "pulumi_alicloud.cs"} <= used  # the reader reads
    unchecked = sorted(module for module in used if not _covered(module, _patterns("silent")))
    assert unchecked == [], f"add to the silent list in pyproject.toml: {unchecked}"


def test_no_group_is_checked_that_the_code_does_not_use() -> None:
    used = _used_by_the_code()
    # What the code reaches through a package's own imports, not by name: the helpers
    # every module imports, and k8s.Provider (``from .provider import *``) with its inputs.
    helpers = {
        "pulumi_alicloud._utilities",
        "pulumi_kubernetes._utilities",
        "pulumi_kubernetes.provider",
        "pulumi_kubernetes._inputs",
    }
    idle = sorted(
        pattern
        for pattern in _patterns("silent")
        if pattern not in helpers and not any(_covered(module, {pattern}) for module in used)
    )
    assert idle == [], f"not used by the code, remove from pyproject.toml: {idle}"


def test_a_group_named_through_an_alias_is_found() -> None:
    tree = ast.parse(
        "import pulumi_kubernetes as k8s\n"
        "from pulumi_alicloud import nas\n"
        "k8s.apps.v1.Deployment('d')\n"
        "nas.FileSystem('f')\n"
    )
    used = provider_modules_used(tree)
    assert {"pulumi_kubernetes.apps", "pulumi_kubernetes.apps.v1", "pulumi_alicloud.nas"} <= used
    assert not _covered("pulumi_kubernetes.apps.v1", _patterns("silent"))
    assert _covered("pulumi_kubernetes.apps.v1", _patterns("skip"))
