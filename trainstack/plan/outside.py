"""What deploying a stack fetches from outside the cluster's region, and how to mirror it.

``pulumi up`` downloads operator manifests, kustomize bases and Helm charts on the machine
that runs it; the cluster's nodes pull the images (operators', hooks', experiments'). In a
region without egress (common in mainland China) each of these can fail a deployment
half-way: a failed chart hook rolls an atomic release back. The plan lists every such
fetch whose host is not inside the cluster's region (the cluster kind says which hosts
are: ``ClusterModel.in_region``), each with the stack or experiment key that points it
at a mirror, sorted so that the list is the same for the same input.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any
from urllib.parse import urlsplit

from trainstack.config.loader import LoadedStack
from trainstack.config.operators import EnabledOperator
from trainstack.config.queueing import Queueing
from trainstack.config.stack import StackConfig
from trainstack.core.images import container_images, registry_host
from trainstack.core.names import is_placeholder
from trainstack.operators.registry import family as operator_family
from trainstack.operators.registry import release
from trainstack.operators.spec import (
    ChartInstall,
    KustomizeInstall,
    ManifestInstall,
    OperatorRelease,
    Pull,
)
from trainstack.plan.model import Plan
from trainstack.plan.outside_data import data_pulls
from trainstack.plan.outside_pull import DEPLOYER, NODES, OutsidePull

__all__ = ["DEPLOYER", "NODES", "OutsidePull", "outside_pulls"]


def outside_pulls(plan: Plan) -> list[OutsidePull]:
    """Every fetch of a deployment of ``plan`` from outside its cluster's region, sorted."""
    stack = plan.stack
    if not isinstance(stack, LoadedStack):
        return []
    config = stack.config
    found = [pull for operator in config.operators.enabled() for pull in _operator(operator)]
    found += list(_queueing(config.queueing))
    found += list(_experiments(plan))
    found += list(_health(config))
    found += list(data_pulls(plan.datasets))
    cluster = config.cluster
    return sorted(
        {pull for pull in found if not cluster.in_region(pull.host or _host(pull.reference))}
    )


def _host(reference: str) -> str:
    if "://" in reference:
        return urlsplit(reference).hostname or ""
    return registry_host(reference)


def _operator(operator: EnabledOperator) -> Iterator[OutsidePull]:
    key = f"trainstack:operators.{operator.key}"
    settings, found = operator.settings, operator.release
    install = found.install
    name = f"{operator_family(operator.key).title} {found.version}"
    if isinstance(install, ManifestInstall):
        url = settings.manifest_url or install.url
        yield OutsidePull(DEPLOYER, url, f"{name} release manifest", f"{key}.manifestUrl")
    elif isinstance(install, KustomizeInstall) and settings.kustomization is None:
        what = f"{name} kustomize base (fetched by kustomize)"
        yield OutsidePull(DEPLOYER, install.remote, what, f"{key}.kustomization")
    elif isinstance(install, ChartInstall):
        repo = settings.chart_repo or install.repo
        chart = f"{repo}/{install.name}:{install.version}"
        yield OutsidePull(DEPLOYER, chart, f"{name} chart", f"{key}.chartRepo")
    yield from _pulls(found, name, key, settings.values, settings.mirrored)


def _queueing(queueing: Queueing) -> Iterator[OutsidePull]:
    if not queueing.enabled:
        return
    found = release("kueue", queueing.chart.version)
    if found is None:
        return
    key = "trainstack:queueing"
    name = f"Kueue {found.version}"
    chart = f"{queueing.chart.repo}/{queueing.chart.name}:{queueing.chart.version}"
    yield OutsidePull(DEPLOYER, chart, f"{name} chart", f"{key}.chart.repo")
    yield from _pulls(found, name, key, queueing.values, lambda image: image)


def _pulls(
    found: OperatorRelease, name: str, key: str, values: Mapping[str, Any], mirrored: Any
) -> Iterator[OutsidePull]:
    """The release's own pulls, as the stack's mirrors leave them."""
    for pull in found.pulls:
        reference = mirrored(pull.reference) if pull.mirror == "images" else pull.reference
        if pull.mirror.startswith("values."):
            reference = _from_values(values, pull) or reference
        what = f"{name} {pull.what}"
        yield OutsidePull(NODES, reference, what, f"{key}.{pull.mirror}", not pull.verified)


def _from_values(values: Mapping[str, Any], pull: Pull) -> str | None:
    """The image a chart's image values point at (``registry``/``repository``/``tag``),
    when the stack sets them."""
    node: Any = values
    for part in pull.mirror.split(".")[1:]:
        node = node.get(part) if isinstance(node, Mapping) else None
    if not isinstance(node, Mapping) or not isinstance(node.get("repository"), str):
        return None
    registry, tag = node.get("registry"), node.get("tag")
    image = f"{registry}/{node['repository']}" if registry else str(node["repository"])
    return f"{image}:{tag}" if tag else image


def _health(config: StackConfig) -> Iterator[OutsidePull]:
    """The images ``trainstack health`` runs on the nodes (pulled when it runs)."""
    images = config.health.images.model_dump(by_alias=True)
    for key, image in sorted(images.items()):
        if image is not None and not is_placeholder(image):
            what = f"image of trainstack health ({key} checks)"
            yield OutsidePull(NODES, image, what, f"trainstack:health.images.{key}")


def _experiments(plan: Plan) -> Iterator[OutsidePull]:
    by_release = {f"{e.release_name}-release": e for e in plan.experiments}
    keys_of: dict[str, dict[str, list[str]]] = {}  # per experiment, walked once
    for rendered in plan.objects:
        experiment = by_release.get(rendered.release.rpartition("::")[2])
        if experiment is None:
            continue
        for image in container_images(rendered.object):
            if is_placeholder(image):
                continue  # listed under "set before deploying"; checked once it is set
            if experiment.release_name not in keys_of:
                keys_of[experiment.release_name] = _keys_by_value(experiment.values)
            keys = sorted(keys_of[experiment.release_name].get(image, ()))
            mirror = f"{experiment.source}: job.{keys[0]}" if keys else f"{experiment.source}: job"
            what = f"image of experiment {experiment.file_experiment}"
            yield OutsidePull(NODES, image, what, mirror)


def _keys_by_value(values: Any) -> dict[str, list[str]]:
    """The dotted keys of ``values`` by the text they hold (an image is found by it)."""
    found: dict[str, list[str]] = {}
    stack: list[tuple[str, Any]] = [("", values)]
    while stack:
        prefix, value = stack.pop()
        if isinstance(value, dict):
            stack.extend((f"{prefix}{key}.", item) for key, item in value.items())
        elif isinstance(value, str):
            found.setdefault(value, []).append(prefix.rstrip("."))
    return found
