"""Load a plan directory (``trainstack plan STACK --output-dir DIR`` wrote ``DIR/STACK``).

Reads ``resources.json`` and, when present, ``objects.json`` (objects rendered from the
project's chart for each experiment release), ``experiments.json``,
``provider-config.json`` and ``secret-digests.json``. Objects get a stack-independent
:class:`ObjectKey` (:mod:`trainstack.diff.object_keys`).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from trainstack.core.credentials import holds_credential
from trainstack.core.errors import DiffError
from trainstack.cost.record import COST_JSON, CostFile
from trainstack.diff.model import Experiment, Snapshot
from trainstack.diff.object_keys import (
    Entry,
    kubernetes_identity,
    kubernetes_label,
    stack_free,
    unique_keys,
)
from trainstack.diff.paths import Location, dotted, leaves_equal_to
from trainstack.diff.warning_changes import review_from_file
from trainstack.plan.capacity_record import CAPACITY_JSON, CapacityFile
from trainstack.plan.charts import HELM_RELEASE
from trainstack.plan.files import (
    DATASETS_JSON,
    EXPERIMENTS_JSON,
    OBJECTS_JSON,
    PROVIDER_CONFIG_JSON,
    RESOURCES_JSON,
    REVIEW_JSON,
    SECRET_DIGESTS_JSON,
    STACK_TYPE,
    DatasetItem,
    ExperimentItem,
    Mapping,
    ObjectItem,
    ResourceItem,
    ReviewFile,
    SecretDigests,
    read,
)
from trainstack.plan.masking import SECRET, Masker

ACCELERATION_TYPE = "trainstack:acceleration:Acceleration"
CONFIG_TYPE = "pulumi:config"

# Chart objects should arrive masked; any Secret data that did not is masked here, with
# digests under a key that lives only as long as this process (both sides load here).
_LOAD_KEY = secrets.token_bytes(32)


def load_snapshot(directory: Path, stack: str | None = None) -> Snapshot:
    """The snapshot of the plan in ``directory`` (named after the stack unless ``stack``).

    Every file is read into its type of :mod:`trainstack.plan.files`, the shapes the
    writer writes.
    """
    if not (directory / RESOURCES_JSON).is_file():
        raise DiffError(
            f"no plan in {directory}: {RESOURCES_JSON} is missing; "
            f"make one with `trainstack plan STACK --output-dir DIR` and pass DIR/STACK"
        )
    resources = read(directory / RESOURCES_JSON, list[ResourceItem], [])
    digests = read(directory / SECRET_DIGESTS_JSON, SecretDigests, SecretDigests())
    experiments = _experiments(read(directory / EXPERIMENTS_JSON, list[ExperimentItem], []))
    releases = {experiment.release: experiment.ref for experiment in experiments.values()}
    by_urn = {item.urn: item for item in resources}
    plan = _Plan(_acceleration_urns(by_urn), releases, digests)
    entries = [_resource_entry(item, plan) for item in resources]
    entries += [
        _chart_entry(item, plan) for item in read(directory / OBJECTS_JSON, list[ObjectItem], [])
    ]
    entries += _config_entries(read(directory / PROVIDER_CONFIG_JSON, Mapping, {}))
    datasets = {
        item.name: {
            name: {"value": fact.value, "key": fact.key} for name, fact in item.facts.items()
        }
        for item in read(directory / DATASETS_JSON, list[DatasetItem], [])
    }
    return Snapshot(
        stack=stack or directory.name,
        objects=unique_keys(entries),
        experiments=experiments,
        config_digests=dict(sorted(digests.config.items())),
        datasets=datasets,
        review=review_from_file(read(directory / REVIEW_JSON, ReviewFile, None)),
        cost=read(directory / COST_JSON, CostFile, None),
        capacity=read(directory / CAPACITY_JSON, CapacityFile, None),
    )


def empty_snapshot(stack: str) -> Snapshot:
    """A stack that does not exist on one side: everything shows as added or removed."""
    return Snapshot(stack=stack, objects={}, exists=False)


@dataclass(frozen=True)
class _Plan:
    """What each entry needs to know about the rest of its plan."""

    accelerated: set[str]
    """URNs of the acceleration components and their descendants."""
    releases: dict[str, str]
    """Experiment (``namespace/name``) by the URN of its release."""
    digests: SecretDigests
    """``secret-digests.json``."""

    def masked(
        self, section: dict[str, dict[str, str]], owner: str, document: Any
    ) -> dict[Location, str]:
        """Digests of the masked leaves of ``document`` (listed under ``section``/``owner``)."""
        by_path = section.get(owner) or {}
        found = ((loc, by_path.get(dotted(loc))) for loc in leaves_equal_to(document, SECRET))
        return {loc: str(digest) for loc, digest in found if digest is not None}


def _resource_entry(item: ResourceItem, plan: _Plan) -> Entry:
    urn, type_token, name, inputs = item.urn, item.type, item.name, item.inputs
    masked = plan.masked(plan.digests.resources, urn, inputs)
    accel, experiment = urn in plan.accelerated, plan.releases.get(urn)
    options = item.options
    lifecycle = _lifecycle(options)
    identity = kubernetes_identity(inputs) if type_token.startswith("kubernetes:") else None
    if identity is not None and type_token != HELM_RELEASE:
        parts, label = identity
        shown = {**inputs, "options": lifecycle} if lifecycle else inputs
        return Entry(
            parts,
            label,
            f"{type_token}::{name}",
            shown,
            masked,
            type_token,
            accel,
            experiment,
            options,
        )
    document: dict[str, Any] = {"inputs": inputs}
    if lifecycle:
        document["options"] = lifecycle
    parent = item.parent
    if parent:
        # The parent says which component owns the resource; its URN names the stack.
        document["parent"] = stack_free(parent)
    if type_token == STACK_TYPE:
        # The root stack resource is named after the stack: match it by type alone.
        parts, label = ("pulumi", STACK_TYPE, ""), f"{STACK_TYPE} (the stack)"
    else:
        parts, label = ("pulumi", type_token, name), f"{type_token} {name}"
    located = {("inputs", *loc): digest for loc, digest in masked.items()}
    return Entry(
        parts,
        label,
        f"{type_token}::{name}",
        document,
        located,
        type_token,
        accel,
        experiment,
        options,
    )


# The options that decide what happens to a resource when it changes or goes away
# (dependsOn and provider only order and route the calls: not shown in diffs).
_LIFECYCLE = (
    "protect",
    "retainOnDelete",
    "deleteBeforeReplace",
    "replaceOnChanges",
    "ignoreChanges",
)


def _lifecycle(options: dict[str, Any]) -> dict[str, Any]:
    """The lifecycle options a resource sets (defaults left out, to keep diffs short)."""
    return {key: options[key] for key in _LIFECYCLE if options.get(key)}


def _chart_entry(item: ObjectItem, plan: _Plan) -> Entry:
    release, document = item.release, item.object
    kind, name, namespace = item.kind, item.name, item.namespace
    # Chart objects' digests, by kind/namespace/name (written by `trainstack plan`).
    masked = plan.masked(plan.digests.objects, f"{kind}/{namespace}/{name}", document)
    document, late = _mask_secret_data(document)
    return Entry(
        parts=("kubernetes", kind, namespace, name),
        label=kubernetes_label(kind, namespace, name),
        origin=f"release {stack_free(release)}",
        document=document,
        digests={**late, **masked},
        pulumi_type="",
        acceleration=release in plan.accelerated,
        experiment=plan.releases.get(release),
    )


def _config_entries(config: Any) -> list[Entry]:
    """Provider settings (a cloud's region...): they change where things are deployed.

    A credential in plain text (a plan made before trainstack refused them) is masked
    here: a diff never shows one.
    """
    return [
        Entry(
            parts=("config", str(key)),
            label=f"config {key}",
            origin=f"config {key}",
            document={"value": _without_credentials(str(key), value)},
            digests={},
            pulumi_type=CONFIG_TYPE,
            acceleration=False,
            experiment=None,
        )
        for key, value in sorted(_mapping(config).items())
    ]


def _without_credentials(name: str, value: Any) -> Any:
    if holds_credential(name):
        return SECRET
    if isinstance(value, dict):
        return {str(key): _without_credentials(str(key), item) for key, item in value.items()}
    if isinstance(value, list):
        return [_without_credentials("", item) for item in value]
    return value


def _mask_secret_data(document: dict[str, Any]) -> tuple[dict[str, Any], dict[Location, str]]:
    """Secret data that reached the plan unmasked is masked now, never shown."""
    if document.get("kind") != "Secret":
        return document, {}
    already = set(leaves_equal_to(document, SECRET))
    masker = Masker(_LOAD_KEY)
    masked = masker.mask(document)
    fresh = {
        loc: masker.digests[dotted(loc)]
        for loc in leaves_equal_to(masked, SECRET)
        if loc not in already and dotted(loc) in masker.digests
    }
    return masked, fresh


def _acceleration_urns(by_urn: dict[str, ResourceItem]) -> set[str]:
    """URNs of the acceleration components and of everything below them."""
    found: set[str] = set()
    for urn in by_urn:
        chain, current, seen = [], urn, set()
        while current in by_urn and current not in seen:
            seen.add(current)
            chain.append(current)
            if by_urn[current].type == ACCELERATION_TYPE or current in found:
                found.update(chain)
                break
            current = by_urn[current].parent
    return found


def _experiments(items: list[ExperimentItem]) -> dict[str, Experiment]:
    found: dict[str, Experiment] = {}
    for item in items:
        experiment = Experiment(
            name=item.name,
            namespace=item.namespace,
            release=item.release,
            values=item.values,
            base_values=item.base_values,
            overrides=item.acceleration_overrides,
            resources=item.effective_resources,
        )
        found[experiment.ref] = experiment
    return dict(sorted(found.items()))


def _mapping(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}
