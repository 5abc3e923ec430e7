"""Storage as the cluster kinds declare it: the registry joins every kind's source and
store into the stack models, a kind's own source reports its facts and mounts as it
declares, and shared code names no source or store of a kind."""

from __future__ import annotations

import ast
import dataclasses
import typing

import pytest

from tests.experiment_helpers import load
from tests.python_source import parse_python
from tests.stack_helpers import REPO, example_config
from tests.storage_helpers import SHARE, SHARE_DRIVER, share_dataset, use_share_kind
from trainstack.config.clusters import alicloud_storage
from trainstack.config.clusters.registry import KINDS, DatasetSource, DataStore
from trainstack.config.data_sources import resolve_datasets
from trainstack.config.storage import NfsSource, StackReferenceSource

EVERY_KIND = (NfsSource, StackReferenceSource)
"""The sources every kind may mount: an NFS export, a data stack's file system."""


def test_the_registry_joins_every_kinds_storage() -> None:
    sources = typing.get_args(typing.get_args(DatasetSource)[0])
    declared = [kind.storage.source for kind in KINDS if kind.storage.source is not None]
    assert set(sources) == {*declared, *EVERY_KIND}
    stores = {kind.storage.data_store for kind in KINDS} - {None}
    assert set(typing.get_args(DataStore) or (DataStore,)) == stores
    for kind in KINDS:
        assert kind.supports("data-stacks") == (kind.storage.data_store is not None)


def test_a_kinds_own_source_reports_its_facts_and_mounts_as_it_declares(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    use_share_kind(monkeypatch)
    stack = load(example_config("onprem"))
    config = stack.config.model_copy(update={"datasets": [share_dataset()]})
    stack = dataclasses.replace(stack, config=config)
    (resolved,) = resolve_datasets(stack, REPO / "stacks")
    facts = {name: (fact.value, fact.key) for name, fact in resolved.facts.items()}
    key = "trainstack:datasets[0]"
    assert facts == {
        "fileSystem": (f"example share {SHARE}", f"{key}.source.share"),
        "path": ("/", f"{key}.source.path"),
        "mountOptions": ([], f"{key}.mountOptions"),
        "tier": ("fast", f"{key}.source.tier"),  # a fact of its own: after the known ones
    }
    mount = config.cluster.mount(config.datasets[0].source)
    assert mount is not None and mount.csi_driver == SHARE_DRIVER


# The names only a kind's own modules, the storage kernel and the registry may use.
SOURCE_NAMES = frozenset(
    {"NfsSource", "StackReferenceSource"}
    | {
        name
        for name, value in vars(alicloud_storage).items()
        if isinstance(value, type) and value.__module__ == alicloud_storage.__name__
    }
)


def named_sources(tree: ast.AST) -> list[str]:
    """The source or store models a module names (imports and uses)."""
    found = [a.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) for a in n.names]
    found += [n.id for n in ast.walk(tree) if isinstance(n, ast.Name)]
    found += [n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)]
    return sorted({name for name in found if name in SOURCE_NAMES})


def _own(path: str) -> bool:
    """A module of the storage kernel, the registry, or a kind's own (``alicloud*.py``)."""
    if path in ("trainstack/config/storage.py", "trainstack/config/clusters/registry.py"):
        return True
    folder, _, name = path.rpartition("/")
    kinds = ("trainstack/config/clusters", "components/clusters")
    return folder in kinds and any(name.startswith(kind.provider) for kind in KINDS)


def test_shared_code_names_no_source_or_store_of_a_kind() -> None:
    offenders = {}
    for path in sorted([*REPO.glob("trainstack/**/*.py"), *REPO.glob("components/**/*.py")]):
        relative = path.relative_to(REPO).as_posix()
        if not _own(relative) and (names := named_sources(parse_python(path))):
            offenders[relative] = names
    assert offenders == {}


def test_the_guard_sees_a_dispatch_on_a_sources_type() -> None:
    chain = "if isinstance(source, NfsSource):\n    pass\nelif source.create:\n    pass\n"
    assert named_sources(ast.parse(chain)) == ["NfsSource"]
    assert SOURCE_NAMES >= {"AlicloudDataStore", "AlicloudNasSource", "NfsSource"}
