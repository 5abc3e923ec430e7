"""Load a plan directory (``trainstack plan STACK --output-dir DIR`` wrote ``DIR/STACK``).

Reads ``resources.json`` and, when present, ``objects.json`` (objects rendered from the
project's chart for each experiment release), ``experiments.json``,
``provider-config.json`` and ``secret-digests.json``. Objects get a stack-independent
:class:`ObjectKey`: URNs contain the stack's name, so two stacks' URNs never match.
"""

from __future__ import annotations

import json
import secrets
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from trainstack.credentials import holds_credential
from trainstack.diff.model import Experiment, ObjectKey, PlanObject, Snapshot
from trainstack.diff.paths import Location, dotted, leaves_equal_to
from trainstack.diff.warnings import review_from_json
from trainstack.errors import DiffError
from trainstack.limits import MAX_PLAN_FILE_BYTES
from trainstack.plan.charts import HELM_RELEASE
from trainstack.plan.masking import COMPUTED, SECRET, Masker
from trainstack.plan.writer import (
    DATASETS_JSON,
    EXPERIMENTS_JSON,
    OBJECTS_JSON,
    PROVIDER_CONFIG_JSON,
    RESOURCES_JSON,
    REVIEW_JSON,
    SECRET_DIGESTS_JSON,
)

ACCELERATION_TYPE = "trainstack:acceleration:Acceleration"
STACK_TYPE = "pulumi:pulumi:Stack"
CONFIG_TYPE = "pulumi:config"

# Chart objects should arrive masked; any Secret data that did not is masked here, with
# digests under a key that lives only as long as this process (both sides load here).
_LOAD_KEY = secrets.token_bytes(32)


@dataclass(frozen=True)
class _Entry:
    """An object before keys are made unique: its natural key and where it came from."""

    parts: tuple[str, ...]
    label: str
    origin: str
    document: Any
    digests: dict[Location, str]
    pulumi_type: str
    acceleration: bool
    experiment: str | None
    options: dict[str, Any] = field(default_factory=dict)


def load_snapshot(directory: Path, stack: str | None = None) -> Snapshot:
    """The snapshot of the plan in ``directory`` (named after the stack unless ``stack``)."""
    resources = _read_list(directory, RESOURCES_JSON, required=True)
    digests = _read_json(directory / SECRET_DIGESTS_JSON, default={})
    if not isinstance(digests, dict):
        raise DiffError(f"{directory / SECRET_DIGESTS_JSON}: expected a JSON object")
    experiments = _experiments(directory, _read_list(directory, EXPERIMENTS_JSON))
    releases = {experiment.release: experiment.ref for experiment in experiments.values()}
    by_urn = {_text(item, "urn", directory / RESOURCES_JSON, i): item for i, item in resources}
    plan = _Plan(_acceleration_urns(by_urn), releases, digests)
    entries = [
        _resource_entry(item, directory / RESOURCES_JSON, index, plan) for index, item in resources
    ]
    entries += [
        _chart_entry(item, directory / OBJECTS_JSON, index, plan)
        for index, item in _read_list(directory, OBJECTS_JSON)
    ]
    entries += _config_entries(_read_json(directory / PROVIDER_CONFIG_JSON, default={}))
    config = {str(k): str(v) for k, v in sorted(_mapping(digests.get("config", {})).items())}
    datasets = {
        _text(item, "name", directory / DATASETS_JSON, index): _mapping(item.get("facts"))
        for index, item in _read_list(directory, DATASETS_JSON)
    }
    return Snapshot(
        stack=stack or directory.name,
        objects=_unique(entries),
        experiments=experiments,
        config_digests=config,
        datasets=datasets,
        review=review_from_json(
            _read_json(directory / REVIEW_JSON, default=None), directory / REVIEW_JSON
        ),
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
    digests: dict[str, Any]
    """``secret-digests.json``."""

    def masked(self, section: str, owner: str, document: Any) -> dict[Location, str]:
        """Digests of the masked leaves of ``document`` (listed under ``section``/``owner``)."""
        by_path = _mapping(_mapping(self.digests.get(section)).get(owner))
        found = ((loc, by_path.get(dotted(loc))) for loc in leaves_equal_to(document, SECRET))
        return {loc: str(digest) for loc, digest in found if digest is not None}


def _resource_entry(item: dict[str, Any], source: Path, index: int, plan: _Plan) -> _Entry:
    urn = _text(item, "urn", source, index)
    type_token, name = _text(item, "type", source, index), _text(item, "name", source, index)
    inputs = item.get("inputs", {})
    if not isinstance(inputs, dict):
        raise DiffError(f"{source}: item [{index}] ({urn}): 'inputs' is not an object")
    masked = plan.masked("resources", urn, inputs)
    accel, experiment = urn in plan.accelerated, plan.releases.get(urn)
    options = _mapping(item.get("options"))
    lifecycle = _lifecycle(options)
    identity = _kubernetes_identity(inputs) if type_token.startswith("kubernetes:") else None
    if identity is not None and type_token != HELM_RELEASE:
        parts, label = identity
        shown = {**inputs, "options": lifecycle} if lifecycle else inputs
        return _Entry(
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
    parent = str(item.get("parent") or "")
    if parent:
        # The parent says which component owns the resource; its URN names the stack.
        document["parent"] = _stack_free(parent)
    if type_token == STACK_TYPE:
        # The root stack resource is named after the stack: match it by type alone.
        parts, label = ("pulumi", STACK_TYPE, ""), f"{STACK_TYPE} (the stack)"
    else:
        parts, label = ("pulumi", type_token, name), f"{type_token} {name}"
    located = {("inputs", *loc): digest for loc, digest in masked.items()}
    return _Entry(
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


def _chart_entry(item: dict[str, Any], source: Path, index: int, plan: _Plan) -> _Entry:
    release = _text(item, "release", source, index)
    document = item.get("object")
    if not isinstance(document, dict):
        raise DiffError(f"{source}: item [{index}]: 'object' is missing or not an object")
    kind, name = _text(item, "kind", source, index), _text(item, "name", source, index)
    namespace = str(item.get("namespace") or "")
    # Chart objects' digests, by kind/namespace/name (written by `trainstack plan`).
    masked = plan.masked("objects", f"{kind}/{namespace}/{name}", document)
    document, late = _mask_secret_data(document)
    return _Entry(
        parts=("kubernetes", kind, namespace, name),
        label=_kubernetes_label(kind, namespace, name),
        origin=f"release {_stack_free(release)}",
        document=document,
        digests={**late, **masked},
        pulumi_type="",
        acceleration=release in plan.accelerated,
        experiment=plan.releases.get(release),
    )


def _config_entries(config: Any) -> list[_Entry]:
    """Provider settings (``alicloud:region``...): they change where things are deployed.

    A credential in plain text (a plan made before trainstack refused them) is masked
    here: a diff never shows one.
    """
    return [
        _Entry(
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


def _kubernetes_identity(inputs: dict[str, Any]) -> tuple[tuple[str, ...], str] | None:
    """``(kind, namespace, name)`` of a Kubernetes object, when the plan knows its name."""
    metadata = inputs.get("metadata")
    kind = inputs.get("kind")
    if not isinstance(kind, str) or not isinstance(metadata, dict):
        return None
    name, namespace = metadata.get("name"), metadata.get("namespace") or ""
    if not isinstance(name, str) or name == COMPUTED or not isinstance(namespace, str):
        return None  # auto-named: only the Pulumi type and name identify it
    return ("kubernetes", kind, namespace, name), _kubernetes_label(kind, namespace, name)


def _kubernetes_label(kind: str, namespace: str, name: str) -> str:
    return f"{kind} {namespace}/{name}" if namespace else f"{kind} {name}"


def _stack_free(urn: str) -> str:
    """``<type>::<name>`` of a URN (``urn:pulumi:STACK::PROJECT::TYPE$...::NAME``)."""
    parts = urn.split("::", 3)
    if len(parts) < 4:
        return urn
    type_token = parts[2].split("$")[-1]
    return type_token if type_token == STACK_TYPE else f"{type_token}::{parts[3]}"


def _acceleration_urns(by_urn: dict[str, dict[str, Any]]) -> set[str]:
    """URNs of the acceleration components and of everything below them."""
    found: set[str] = set()
    for urn in by_urn:
        chain, current, seen = [], urn, set()
        while current in by_urn and current not in seen:
            seen.add(current)
            chain.append(current)
            if by_urn[current].get("type") == ACCELERATION_TYPE or current in found:
                found.update(chain)
                break
            current = str(by_urn[current].get("parent") or "")
    return found


def _unique(entries: list[_Entry]) -> dict[ObjectKey, PlanObject]:
    """Key every entry; entries sharing a natural key get their origin appended."""
    groups: dict[tuple[str, ...], list[_Entry]] = defaultdict(list)
    for entry in entries:
        groups[entry.parts].append(entry)
    objects: dict[ObjectKey, PlanObject] = {}
    for parts, group in sorted(groups.items()):
        for entry in sorted(group, key=lambda e: e.origin):
            clash = len(group) > 1
            key = ObjectKey(
                parts=(*parts, entry.origin) if clash else parts,
                label=f"{entry.label} [{entry.origin}]" if clash else entry.label,
            )
            objects[key] = PlanObject(
                key=key,
                document=entry.document,
                secret_digests=entry.digests,
                pulumi_type=entry.pulumi_type,
                acceleration=entry.acceleration,
                experiment=entry.experiment,
                options=entry.options,
            )
    return objects


def _experiments(directory: Path, items: list[tuple[int, Any]]) -> dict[str, Experiment]:
    source = directory / EXPERIMENTS_JSON
    found: dict[str, Experiment] = {}
    for index, item in items:
        experiment = Experiment(
            name=_text(item, "name", source, index),
            namespace=str(item.get("namespace") or ""),
            release=_text(item, "release", source, index),
            values=item.get("values", {}),
            base_values=item.get("baseValues", {}),
            overrides=item.get("accelerationOverrides", {}),
        )
        found[experiment.ref] = experiment
    return dict(sorted(found.items()))


def _read_list(directory: Path, name: str, required: bool = False) -> list[tuple[int, Any]]:
    path = directory / name
    if required and not path.is_file():
        raise DiffError(
            f"no plan in {directory}: {name} is missing; "
            f"make one with `trainstack plan STACK --output-dir DIR` and pass DIR/STACK"
        )
    data = _read_json(path, default=[])
    if not isinstance(data, list):
        raise DiffError(f"{path}: expected a JSON list, found {type(data).__name__}")
    for index, item in enumerate(data):
        if not isinstance(item, dict):
            raise DiffError(f"{path}: item [{index}] is not an object")
    return list(enumerate(data))


def _read_json(path: Path, default: Any) -> Any:
    if not path.is_file():
        return default
    try:
        if path.stat().st_size > MAX_PLAN_FILE_BYTES:
            raise DiffError(
                f"{path}: larger than {MAX_PLAN_FILE_BYTES} bytes (trainstack's limit on a "
                "plan file); is this a plan directory of `trainstack plan`?"
            )
        return json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as error:
        raise DiffError(
            f"{path}: not valid JSON ({error.msg} at line {error.lineno}, column {error.colno})"
        ) from None
    except UnicodeDecodeError as error:
        raise DiffError(f"{path}: not UTF-8 (byte {error.start})") from None
    except RecursionError:
        raise DiffError(f"{path}: nested too deeply to be a plan") from None
    except OSError as error:
        raise DiffError(f"{path}: unreadable ({error.strerror or error})") from None


def _text(item: dict[str, Any], field: str, source: Path, index: int) -> str:
    value = item.get(field)
    if not isinstance(value, str):
        raise DiffError(f"{source}: item [{index}]: '{field}' missing or not a string")
    return value


def _mapping(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}
