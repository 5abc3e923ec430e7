"""Write a plan to disk: ``resources.json`` and one readable YAML file per resource.

The stack's directory is written in full into a staging directory and swapped in whole,
on every exit path: see :mod:`trainstack.plan.output_dir` for the contract (what is
replaced, what is refused, what happens on signals and full disks). File names come
from :mod:`trainstack.core.file_names` only. Everything is sorted, so the same input gives
byte-identical files.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from trainstack.checks.effective_resources import effective_resources
from trainstack.config.loader import LoadedStack
from trainstack.core.file_names import child, unique_file_names
from trainstack.core.yaml.io import canonical_yaml, dump_yaml, sorted_keys
from trainstack.cost.record import COST_JSON, cost_file
from trainstack.experiments.resolve import Experiment
from trainstack.plan.capacity_record import CAPACITY_JSON, capacity_file
from trainstack.plan.charts import HELM_RELEASE
from trainstack.plan.files import (
    DATASETS_JSON,
    EXPERIMENTS_JSON,
    OBJECTS_JSON,
    OUTPUTS_JSON,
    PROVIDER_CONFIG_JSON,
    RESOURCES_JSON,
    REVIEW_JSON,
    SECRET_DIGESTS_JSON,
    DatasetItem,
    ExperimentItem,
    Fact,
    ObjectItem,
    ResourceItem,
    SecretDigests,
    encode,
)
from trainstack.plan.model import Plan, PlannedResource, RenderedObject
from trainstack.plan.output_dir import checkpoint, replacing
from trainstack.plan.review import review_file

__all__ = [
    "CAPACITY_JSON",
    "COST_JSON",
    "DATASETS_JSON",
    "EXPERIMENTS_JSON",
    "NOTES_FILE",
    "OBJECTS_JSON",
    "OUTPUTS_JSON",
    "PROVIDER_CONFIG_JSON",
    "RESOURCES_JSON",
    "REVIEW_JSON",
    "SECRET_DIGESTS_JSON",
    "canonical_json",
    "write_plan",
]

RESOURCES_DIR = "resources"
NOTES_FILE = "NOTES.txt"
OBJECTS_DIR = "objects"


def write_plan(plan: Plan, output_dir: Path) -> Path:
    """Write ``plan`` as ``output_dir/<stack>/``, replacing the previous plan whole."""
    with replacing(output_dir, plan.stack.name) as staging:
        _write_into(plan, staging)
    return output_dir.resolve() / plan.stack.name


def _write(directory: Path, name: str, text: str | bytes) -> None:
    """A new file (``x``: never overwrites, so two names can never meet in one file)."""
    data = text.encode("utf-8") if isinstance(text, str) else text
    with child(directory, name).open("xb") as handle:
        handle.write(data)


def _write_list(directory: Path, name: str, items: Iterable[Any]) -> None:
    """A new file of a JSON list, byte for byte :func:`encode` of the whole list, written
    item by item: the whole text of a plan's largest files (``objects.json`` of 1,000
    experiments is 40 MB, with its unindented copy beside it while it is made) never sits
    in memory at once. A newline in a JSON text is always the indentation's (strings
    escape theirs), so indenting each item's own text by two spaces nests it in the list."""
    with child(directory, name).open("xb") as handle:
        separator = b"[\n  "
        for item in items:
            handle.write(separator)
            handle.write(encode(item)[:-1].replace(b"\n", b"\n  "))
            separator = b",\n  "
        handle.write(b"[]\n" if separator == b"[\n  " else b"\n]\n")


def _write_into(plan: Plan, directory: Path) -> None:
    _write_list(directory, RESOURCES_JSON, map(resource_item, plan.resources))
    checkpoint("writing")
    views = directory / RESOURCES_DIR
    views.mkdir()
    for file_name, resource in resource_file_names(plan.resources).items():
        _write(views, file_name, resource_yaml(resource))
    if plan.objects:
        _write_objects(plan, directory)
    if plan.experiments:
        releases = _release_urns(plan)
        experiments = (
            ExperimentItem(
                name=experiment.release_name,
                namespace=experiment.namespace,
                source=experiment.source,
                release=releases.get(experiment.release_name, ""),
                values=experiment.values,
                base_values=experiment.base_values,
                acceleration_overrides=experiment.acceleration_overrides,
                effective_resources=_effective(plan, experiment),
            )
            for experiment in plan.experiments
        )
        _write_list(directory, EXPERIMENTS_JSON, experiments)
    if plan.outputs:
        _write(directory, OUTPUTS_JSON, encode(plan.outputs))
    if plan.datasets:
        datasets = [
            DatasetItem(
                dataset.name,
                {name: Fact(fact.value, fact.key) for name, fact in dataset.facts.items()},
            )
            for dataset in plan.datasets
        ]
        _write(directory, DATASETS_JSON, encode(datasets))
    if plan.provider_config:
        _write(directory, PROVIDER_CONFIG_JSON, encode(plan.provider_config))
    _write(directory, REVIEW_JSON, encode(review_file(plan)))
    if plan.cost is not None:
        _write(directory, COST_JSON, encode(cost_file(plan.cost)))
    if isinstance(plan.stack, LoadedStack):
        capacity = capacity_file(plan.stack.name, plan.stack.config, plan.stack.source)
        _write(directory, CAPACITY_JSON, encode(capacity))
    if plan.notes:
        _write(directory, NOTES_FILE, "\n".join(plan.notes) + "\n")
    digests = secret_digests(plan)
    if digests.config or digests.resources or digests.objects:
        _write(directory, SECRET_DIGESTS_JSON, encode(digests))
    checkpoint("written")


def _effective(plan: Plan, experiment: Experiment) -> dict[str, Any]:
    """Per role, what its pods get after the team's LimitRange."""
    stack = plan.stack
    team = None
    if isinstance(stack, LoadedStack) and experiment.team is not None:
        team = stack.config.team(experiment.team)
    return {role.role: role.as_json() for role in effective_resources(experiment.job, team)}


def resource_item(resource: PlannedResource) -> ResourceItem:
    """The ``resources.json`` item of ``resource``."""
    return ResourceItem(
        urn=resource.urn,
        type=resource.type,
        name=resource.name,
        parent=resource.parent,
        inputs=resource.inputs,
        options=resource.options,
    )


def object_item(rendered: RenderedObject) -> ObjectItem:
    """The ``objects.json`` item of ``rendered``."""
    kind, namespace, name = rendered.key
    return ObjectItem(
        release=rendered.release,
        api_version=str(rendered.object.get("apiVersion", "")),
        kind=kind,
        namespace=namespace,
        name=name,
        object=rendered.object,
    )


def _write_objects(plan: Plan, directory: Path) -> None:
    _write_list(directory, OBJECTS_JSON, map(object_item, plan.objects))
    views = directory / OBJECTS_DIR
    views.mkdir()
    for file_name, rendered in object_file_names(plan.objects).items():
        _write(views, file_name, canonical_yaml(rendered.object))


def _release_urns(plan: Plan) -> dict[str, str]:
    """The URN of each Helm release by its name (an experiment's release has its name)."""
    urns: dict[str, str] = {}
    for resource in plan.resources:
        name = resource.inputs.get("name")
        if resource.type == HELM_RELEASE and isinstance(name, str):
            urns.setdefault(name, resource.urn)
    return urns


def secret_digests(plan: Plan) -> SecretDigests:
    """Keyed digests of masked secrets (present only when the plan was made with a key)."""
    return SecretDigests(
        config=dict(plan.config_digests),
        resources={r.urn: dict(r.secret_digests) for r in plan.resources if r.secret_digests},
        objects={"/".join(o.key): dict(o.secret_digests) for o in plan.objects if o.secret_digests},
    )


def canonical_json(data: Any) -> str:
    """JSON with sorted keys and a final newline: stable across runs and machines."""
    return encode(data).decode("utf-8")


def resource_yaml(resource: PlannedResource) -> str:
    """The readable view of one resource: identity first, then inputs (keys sorted)."""
    return dump_yaml(
        {
            "urn": resource.urn,
            "type": resource.type,
            "name": resource.name,
            "parent": resource.parent,
            "options": sorted_keys(resource.options),
            "inputs": sorted_keys(resource.inputs),
        }
    )


def resource_file_names(resources: Sequence[PlannedResource]) -> dict[str, PlannedResource]:
    """A stable, readable, unique file name per resource (``<type>--<name>.yaml``).

    Two resources of one type and name (under different parents) add their URN.
    """
    return unique_file_names(_identities(resources, lambda r: (r.type, r.name), "urn"), ".yaml")


def object_file_names(objects: Sequence[RenderedObject]) -> dict[str, RenderedObject]:
    """A unique file name per rendered object (``<kind>--<namespace>--<name>.yaml``).

    Two objects of one kind, namespace and name (from two releases) add their release.
    """
    return unique_file_names(_identities(objects, lambda o: o.key, "release"), ".yaml")


def _identities(
    items: Sequence[Any], natural: Callable[[Any], tuple[str, ...]], extra: str
) -> list[tuple[list[str], Any]]:
    counts = Counter(natural(item) for item in items)
    pairs: list[tuple[list[str], Any]] = []
    for item in items:
        parts = list(natural(item))
        if counts[natural(item)] > 1:
            parts.append(str(getattr(item, extra)))
        pairs.append((parts, item))
    return pairs
