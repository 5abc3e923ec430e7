"""What each dataset of a cluster stack resolves to: which data, where, read how.

A ``stack-reference`` dataset is looked up in its data stack's file (same stack
directory): the data stack must exist, hold that file system, and share the cluster's
network (the keys its store's ``network`` names: ACK's region and VPC, as NAS mount
targets serve their VPC only). Every dataset gets its *facts* (path and mount options,
and what its source or its store's file system reports: file system, zone, storage
type, protocol), each with the key it comes from, so that the fairness report can name
the key when two clusters would read different data.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from trainstack.config.datasets import Dataset
from trainstack.config.loader import (
    LoadedDataStack,
    LoadedStack,
    load_stack_config,
)
from trainstack.config.populate import Populate
from trainstack.config.pulumi_config import read_stack_file
from trainstack.config.storage import Fact, Referenced, StoreFileSystem
from trainstack.core.errors import ConfigError, Problem, TrainstackError
from trainstack.core.project import Project

FACTS = ("fileSystem", "path", "zoneId", "storageType", "protocolType", "mountOptions")
"""What two clusters must agree on to read the same data, in report order."""
DECLARED_FACTS = ("manifest",)
"""What a stack may declare of the data (``manifestSha256``): compared when both stacks
declare it; declared on one side or neither, unknown (checked on the runs' results)."""


@dataclass(frozen=True)
class Reference:
    """A file system of a data stack that a dataset mounts."""

    stack: LoadedDataStack
    index: int
    file_system: StoreFileSystem

    @property
    def key(self) -> str:
        """Where the file system is declared, in the data stack's spelling."""
        return f"trainstack:dataStore.fileSystems[{self.index}]"


@dataclass(frozen=True)
class ResolvedDataset:
    """A dataset of a cluster stack and what it resolves to."""

    name: str
    facts: dict[str, Fact]
    reference: Reference | None = None
    populate: Populate | None = None
    """The data stack's populate spec, on the first dataset mounting the whole file system
    (the one whose claim the populate Job, or the wait for it, mounts)."""
    populates: bool = False
    """Whether this stack runs the populate Job (``populate.stack``) rather than waiting."""

    def as_json(self) -> dict[str, Any]:
        """The ``datasets.json`` item."""
        return {
            "name": self.name,
            "facts": {
                name: {"value": fact.value, "key": fact.key} for name, fact in self.facts.items()
            },
        }


def populate_job_name(dataset: str, runs: bool) -> str:
    """The Job that populates ``dataset`` (``runs``: on the stack the data stack names) or
    waits for it (on the others): a DNS label, at most 63 characters."""
    role = "populate" if runs else "wait-populated"
    return f"{role}-{dataset}"[:63].rstrip("-")


def resolve_datasets(stack: LoadedStack, stack_dir: Path) -> tuple[ResolvedDataset, ...]:
    """Every dataset of ``stack`` with its facts; data stacks are read from ``stack_dir``."""
    problems: list[Problem] = []
    loaded: dict[str, LoadedDataStack | None] = {}
    resolved = []
    for index, dataset in enumerate(stack.config.datasets):
        key = f"trainstack:datasets[{index}]"
        referenced = dataset.source.referenced()
        if referenced is not None:
            reference = _reference(stack, key, referenced, stack_dir, loaded, problems)
            if reference is not None:
                resolved.append(_referenced(dataset, key, referenced, reference))
            continue
        resolved.append(_local(stack, dataset, key))
    resolved = [_with_manifest(stack, item) for item in resolved]
    resolved = _with_populate(stack, resolved, problems)
    if problems:
        raise ConfigError(stack.source, problems, stack.files)
    return tuple(resolved)


def _with_manifest(stack: LoadedStack, item: ResolvedDataset) -> ResolvedDataset:
    """The manifest digest the stack declares for the dataset, as a fact of its own."""
    index, dataset = next(
        (i, d) for i, d in enumerate(stack.config.datasets) if d.name == item.name
    )
    if dataset.manifest_sha256 is None:
        return item
    fact = Fact(dataset.manifest_sha256, f"trainstack:datasets[{index}].manifestSha256")
    return dataclasses.replace(item, facts={**item.facts, "manifest": fact})


def _with_populate(
    stack: LoadedStack, resolved: list[ResolvedDataset], problems: list[Problem]
) -> list[ResolvedDataset]:
    """Each populated file system's spec on the first dataset mounting all of it."""
    done: set[tuple[str, int]] = set()
    out = []
    for index, item in enumerate(resolved):
        reference = item.reference
        spec = None if reference is None else reference.file_system.populate
        dataset = stack.config.datasets[index]
        if reference is None or spec is None:
            out.append(item)
            continue
        whole = dataset.sub_path is None and item.facts["path"].value == reference.file_system.path
        identity = (reference.stack.name, reference.index)
        if not whole or identity in done:
            out.append(item)
            continue
        done.add(identity)
        key = f"{reference.key}.populate in {reference.stack.source}"
        facts = {**item.facts, "populate": Fact(f"sha256:{spec.digest}", key)}
        out.append(
            dataclasses.replace(
                item, facts=facts, populate=spec, populates=spec.stack == stack.name
            )
        )
    for item in resolved:
        reference = item.reference
        spec = None if reference is None else reference.file_system.populate
        if reference is None or spec is None or spec.stack != stack.name:
            continue
        if (reference.stack.name, reference.index) not in done:
            problems.append(
                Problem(
                    "trainstack:datasets",
                    f"no dataset mounting all of {reference.key} of {reference.stack.source}",
                    f"a dataset mounting the whole file system (no subPath): {stack.name} runs "
                    f"its populate Job ({reference.key}.populate.stack)",
                )
            )
            done.add((reference.stack.name, reference.index))
    return out


def _reference(
    stack: LoadedStack,
    key: str,
    source: Referenced,
    stack_dir: Path,
    loaded: dict[str, LoadedDataStack | None],
    problems: list[Problem],
) -> Reference | None:
    cluster = stack.config.cluster
    if not cluster.supports("data-stacks"):
        problems.append(
            Problem(
                f"{key}.source.type",
                '"stack-reference"',
                f"`nfs` or an existing `alicloud-nas` mount target on {cluster.label} (a "
                "data stack's NAS serves the VPC of alicloud clusters)",
            )
        )
        return None
    if source.stack not in loaded:
        loaded[source.stack] = _load_data_stack(stack, key, source.stack, stack_dir, problems)
    data = loaded[source.stack]
    if data is None:
        return None
    store = data.config.data_store
    found = store.file_system(source.file_system)
    if found is None:
        names = ", ".join(fs.name for fs in store.file_systems)
        problems.append(
            Problem(
                f"{key}.source.dataset",
                repr(source.file_system),
                f"a file system of data stack {source.stack} ({data.source}): {names}",
            )
        )
        return None
    network = store.network()
    for field, mine in cluster.network().items():
        theirs = network.get(field)
        if mine != theirs:
            problems.append(
                Problem(
                    _written(stack, f"cluster.{field}"),
                    repr(mine),
                    f"{theirs!r}, the {field} of data stack {source.stack} "
                    f"({data.source}: trainstack:dataStore.{field}) that {key} mounts: "
                    f"{store.network_reason}",
                )
            )
    return Reference(data, found[0], found[1])


def _load_data_stack(
    stack: LoadedStack, key: str, name: str, stack_dir: Path, problems: list[Problem]
) -> LoadedDataStack | None:
    project = Project(root=stack_dir.parent, name="", stack_config_dir=stack_dir)
    try:
        stack_file = read_stack_file(project, name)
        other = load_stack_config(
            name, stack_file.config, stack_file.secret_keys, stack_file.source, stack_file.path
        )
    except TrainstackError as error:
        problems.append(Problem(f"{key}.source.stack", repr(name), f"a valid data stack: {error}"))
        return None
    if not isinstance(other, LoadedDataStack):
        problems.append(
            Problem(
                f"{key}.source.stack",
                repr(name),
                f"a data stack (one with trainstack:dataStore); {other.source} is a cluster stack",
            )
        )
        return None
    return other


def _referenced(
    dataset: Dataset, key: str, source: Referenced, reference: Reference
) -> ResolvedDataset:
    file_system, where = reference.file_system, reference.key
    path = dataset.source.path
    in_file = f" in {reference.stack.source}"
    path_key = f"{key}.source.path" if path else f"{where}.path{in_file}"
    facts = {
        "fileSystem": Fact(
            f"data stack {source.stack}, file system {source.file_system}", f"{key}.source"
        ),
        "path": Fact(dataset.export_path(path or file_system.path), path_key),
        **file_system.facts(where, in_file),
        "mountOptions": Fact(list(dataset.mount_options), f"{key}.mountOptions"),
    }
    return ResolvedDataset(dataset.name, _in_order(facts), reference)


def _local(stack: LoadedStack, dataset: Dataset, key: str) -> ResolvedDataset:
    facts = {
        "path": Fact(dataset.export_path(), f"{key}.source.path"),
        "mountOptions": Fact(list(dataset.mount_options), f"{key}.mountOptions"),
        **dataset.source.facts(stack.name, f"{key}.source"),
    }
    return ResolvedDataset(dataset.name, _in_order(facts))


def _in_order(facts: dict[str, Fact]) -> dict[str, Fact]:
    """The facts in report order (:data:`FACTS`), then any a kind adds, in its order."""
    known = {name: facts[name] for name in FACTS if name in facts}
    return known | {name: fact for name, fact in facts.items() if name not in known}


def _written(stack: LoadedStack, key: str) -> str:
    """A problem's path: ``key`` in the stack file, ``FILE: KEY`` in its cluster template."""
    file, written = stack.config.written(key, stack.source)
    return written if file == stack.source else f"{file}: {written}"
