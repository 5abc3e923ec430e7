"""Write a plan to disk: ``resources.json`` and one readable YAML file per resource.

The stack's directory is written in full to a temporary sibling and then swapped in,
so a failed plan never leaves a half-written or mixed directory behind. Everything is
sorted, so the same input gives byte-identical files.
"""

from __future__ import annotations

import json
import re
import shutil
import tempfile
from pathlib import Path
from typing import Any

from trainstack.plan.charts import HELM_RELEASE
from trainstack.plan.model import Plan, PlannedResource
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


def write_plan(plan: Plan, output_dir: Path) -> Path:
    """Write ``plan`` under ``output_dir/<stack>/``; returns that directory."""
    output_dir.mkdir(parents=True, exist_ok=True)
    target = output_dir / plan.stack.name
    staging = Path(tempfile.mkdtemp(prefix=f".{plan.stack.name}-", dir=output_dir))
    try:
        _write_into(plan, staging)
        if target.exists():
            shutil.rmtree(target)
        staging.rename(target)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return target


def _write_into(plan: Plan, directory: Path) -> None:
    items = [resource.as_json() for resource in plan.resources]
    (directory / RESOURCES_JSON).write_text(canonical_json(items), encoding="utf-8")
    views = directory / RESOURCES_DIR
    views.mkdir()
    for file_name, resource in resource_file_names(plan.resources).items():
        (views / file_name).write_text(resource_yaml(resource), encoding="utf-8")
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
        (directory / EXPERIMENTS_JSON).write_text(canonical_json(experiments), encoding="utf-8")
    if plan.outputs:
        (directory / OUTPUTS_JSON).write_text(canonical_json(plan.outputs), encoding="utf-8")
    if plan.datasets:
        datasets = [dataset.as_json() for dataset in plan.datasets]
        (directory / DATASETS_JSON).write_text(canonical_json(datasets), encoding="utf-8")
    if plan.provider_config:
        (directory / PROVIDER_CONFIG_JSON).write_text(
            canonical_json(plan.provider_config), encoding="utf-8"
        )
    if plan.notes:
        (directory / NOTES_FILE).write_text("\n".join(plan.notes) + "\n", encoding="utf-8")
    digests = secret_digests(plan)
    if any(digests.values()):
        (directory / SECRET_DIGESTS_JSON).write_text(canonical_json(digests), encoding="utf-8")


def _write_objects(plan: Plan, directory: Path) -> None:
    items = [rendered.as_json() for rendered in plan.objects]
    (directory / OBJECTS_JSON).write_text(canonical_json(items), encoding="utf-8")
    views = directory / OBJECTS_DIR
    views.mkdir()
    for rendered in plan.objects:
        file_name = _slug("--".join(part or "_" for part in rendered.key)) + ".yaml"
        (views / file_name).write_text(canonical_yaml(rendered.object), encoding="utf-8")


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


def resource_file_names(resources: tuple[PlannedResource, ...]) -> dict[str, PlannedResource]:
    """A stable, readable, unique file name per resource (``<type>--<name>.yaml``)."""
    names: dict[str, PlannedResource] = {}
    for resource in resources:
        base = f"{_slug(resource.type)}--{_slug(resource.name)}"
        candidate, counter = f"{base}.yaml", 2
        while candidate in names:
            candidate, counter = f"{base}-{counter}.yaml", counter + 1
        names[candidate] = resource
    return names


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "-", text).strip("-")
