"""The plan's objects against the schemas of the APIs the stack installs (see
``trainstack.conformance``): a plan that certifies what a cluster would refuse or prune
is an error, never a plan."""

from __future__ import annotations

from collections.abc import Collection, Iterator
from pathlib import Path
from typing import Any

from trainstack.config.data_stack import DataStackConfig
from trainstack.config.stack import StackConfig
from trainstack.conformance import CrdSchemas, SchemaFiles, Violation, violations
from trainstack.core.errors import PlanError
from trainstack.operators.registry import release
from trainstack.plan.crd_dir import CRD_DIR_ENV
from trainstack.plan.model import PlannedResource, RenderedObject

_LISTED = 40


def schema_files(config: StackConfig | DataStackConfig) -> SchemaFiles:
    """(apiVersion, kind) -> schema file, for every custom kind the stack's operators serve."""
    files: dict[tuple[str, str], str] = {}
    if isinstance(config, DataStackConfig):
        return files  # a data stack creates no custom resources
    for operator in config.operators.enabled():
        files.update(operator.release.schemas)
    if config.queueing.enabled:
        kueue = release("kueue", config.queueing.chart.version)
        if kueue is not None:
            files.update(kueue.schemas)
    return files


def check_conformance(
    config: StackConfig | DataStackConfig,
    resources: tuple[PlannedResource, ...] | list[PlannedResource],
    objects: tuple[RenderedObject, ...] | list[RenderedObject],
    crd_dir: Path | None,
    passed: Collection[str] = (),
) -> str:
    """Raise :class:`PlanError` listing every violation; return the note for the plan.

    ``passed``: releases (URNs) whose objects are known to pass these very checks (the
    release cache, :mod:`trainstack.plan.render_cache`): their objects are not checked again.
    """
    crds = None if crd_dir is None else CrdSchemas(crd_dir)
    unchecked = [rendered for rendered in objects if rendered.release not in passed]
    refuse(
        violations(_planned_objects(resources, unchecked), crds, schema_files(config)), "planned"
    )
    if crds is None:
        return (
            "Kubernetes objects were checked against Kubernetes' strict schemas; custom "
            "resources only against the operator catalog's facts (give --crd-dir or "
            f"{CRD_DIR_ENV} to check them against their CRD schemas too)."
        )
    return (
        "Every planned object was checked against its API's schema with unknown fields "
        "refused: Kubernetes' own, and the CRDs of the operators this stack installs."
    )


def refuse(found: list[Violation], what: str) -> None:
    """Raise :class:`PlanError` listing ``found`` (the first few), if any: ``what`` says
    whose objects (``planned``, ``health``)."""
    if not found:
        return
    lines = [f"{len(found)} {what} object(s) would be refused or changed by the API server:"]
    lines += [f"  - {violation}" for violation in found[:_LISTED]]
    if len(found) > _LISTED:
        lines.append(f"  ... and {len(found) - _LISTED} more")
    raise PlanError("\n".join(lines))


def _planned_objects(
    resources: tuple[PlannedResource, ...] | list[PlannedResource],
    objects: tuple[RenderedObject, ...] | list[RenderedObject],
) -> Iterator[dict[str, Any]]:
    for resource in resources:
        inputs = resource.inputs
        # Patches (NodePatch...) are partial objects by design: only whole objects here.
        if "apiVersion" in inputs and "kind" in inputs and not resource.type.endswith("Patch"):
            yield inputs
    for rendered in objects:
        yield rendered.object
