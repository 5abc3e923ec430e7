"""Write a plan to disk: ``resources.json`` and one readable YAML file per resource.

The stack's directory is written in full into a staging directory and swapped in whole,
on every exit path: see :mod:`trainstack.plan.output_dir` for the contract (what is
replaced, what is refused, what happens on signals and full disks). File names come
from :mod:`trainstack.file_names` only. Everything is sorted, so the same input gives
byte-identical files.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from trainstack.file_names import child, unique_file_names
from trainstack.plan.charts import HELM_RELEASE
from trainstack.plan.model import Plan, PlannedResource, RenderedObject
from trainstack.plan.output_dir import checkpoint, replacing
from trainstack.plan.review import review_json
from trainstack.yaml_io import canonical_yaml, dump_yaml, sorted_keys

RESOURCES_JSON = "resources.json"
RESOURCES_DIR = "resources"
NOTES_FILE = "NOTES.txt"
SECRET_DIGESTS_JSON = "secret-digests.json"
OBJECTS_JSON = "objects.json"
OBJECTS_DIR = "objects"
EXPERIMENTS_JSON = "experiments.json"
PROVIDER_CONFIG_JSON = "provider-config.json"
OUTPUTS_JSON = "outputs.json"
DATASETS_JSON = "datasets.json"
REVIEW_JSON = "review.json"


def write_plan(plan: Plan, output_dir: Path) -> Path:
    """Write ``plan`` as ``output_dir/<stack>/``, replacing the previous plan whole."""
    with replacing(output_dir, plan.stack.name) as staging:
        _write_into(plan, staging)
    return output_dir.resolve() / plan.stack.name


def _write(directory: Path, name: str, text: str) -> None:
    """A new file (``x``: never overwrites, so two names can never meet in one file)."""
    with child(directory, name).open("x", encoding="utf-8", newline="\n") as handle:
        handle.write(text)


def _write_into(plan: Plan, directory: Path) -> None:
    items = [resource.as_json() for resource in plan.resources]
    _write(directory, RESOURCES_JSON, canonical_json(items))
    checkpoint("writing")
    views = directory / RESOURCES_DIR
    views.mkdir()
    for file_name, resource in resource_file_names(plan.resources).items():
        _write(views, file_name, resource_yaml(resource))
    if plan.objects:
        _write_objects(plan, directory)
    if plan.experiments:
        experiments = [
            {
                "name": experiment.name,
                "namespace": experiment.namespace,
                "source": experiment.source,
                "release": _release_urn(plan, experiment.name),
                "values": experiment.values,
                "baseValues": experiment.base_values,
                "accelerationOverrides": experiment.acceleration_overrides,
            }
            for experiment in plan.experiments
        ]
        _write(directory, EXPERIMENTS_JSON, canonical_json(experiments))
    if plan.outputs:
        _write(directory, OUTPUTS_JSON, canonical_json(plan.outputs))
    if plan.datasets:
        datasets = [dataset.as_json() for dataset in plan.datasets]
        _write(directory, DATASETS_JSON, canonical_json(datasets))
    if plan.provider_config:
        _write(directory, PROVIDER_CONFIG_JSON, canonical_json(plan.provider_config))
    _write(directory, REVIEW_JSON, canonical_json(review_json(plan)))
    if plan.notes:
        _write(directory, NOTES_FILE, "\n".join(plan.notes) + "\n")
    digests = secret_digests(plan)
    if any(digests.values()):
        _write(directory, SECRET_DIGESTS_JSON, canonical_json(digests))
    checkpoint("written")


def _write_objects(plan: Plan, directory: Path) -> None:
    items = [rendered.as_json() for rendered in plan.objects]
    _write(directory, OBJECTS_JSON, canonical_json(items))
    views = directory / OBJECTS_DIR
    views.mkdir()
    for file_name, rendered in object_file_names(plan.objects).items():
        _write(views, file_name, canonical_yaml(rendered.object))


def _release_urn(plan: Plan, release_name: str) -> str:
    """The URN of the experiment's Helm release (its name is the experiment's)."""
    for resource in plan.resources:
        if resource.type == HELM_RELEASE and resource.inputs.get("name") == release_name:
            return resource.urn
    return ""


def secret_digests(plan: Plan) -> dict[str, Any]:
    """Keyed digests of masked secrets (present only when the plan was made with a key)."""
    return {
        "config": dict(plan.config_digests),
        "resources": {r.urn: dict(r.secret_digests) for r in plan.resources if r.secret_digests},
        "objects": {
            "/".join(o.key): dict(o.secret_digests) for o in plan.objects if o.secret_digests
        },
    }


def canonical_json(data: Any) -> str:
    """JSON with sorted keys and a final newline: stable across runs and machines."""
    return json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


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
