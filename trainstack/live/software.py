"""What is installed on the cluster: operators, the jobs' CRDs, Kueue's configuration, the
acceleration component.

Read with few requests, whatever the cluster's size: one list of Deployments (every
namespace, page by page: each operator's controller, the acceleration chart's workloads),
one ``GET`` per CRD the stack's jobs use and one for Kueue's ConfigMap. Which Deployment
runs which operator, with which image, is the catalog's (``Controller`` of each release in
``trainstack/operators/``); what a Helm chart's workloads are labelled with is Helm's
convention (``app.kubernetes.io/instance: <release>``, ``helm.sh/chart: <chart>-<version>``,
https://helm.sh/docs/chart_best_practices/labels/).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from lightkube.generic_resource import create_namespaced_resource

from trainstack.config.acceleration import AckAddon
from trainstack.config.stack import StackConfig
from trainstack.core.errors import InvalidInputError
from trainstack.core.yaml.io import parse_yaml
from trainstack.facts.model import AccelerationFacts, CrdFacts, KueueFacts, OperatorFacts
from trainstack.live.api import ApiReader, Malformed
from trainstack.live.cluster import CRDS
from trainstack.live.node_facts import labels_of, mapping, text
from trainstack.operators.kueue import KUEUE_CONFIG_KEY, kueue_fullname
from trainstack.operators.registry import image_version, release
from trainstack.operators.spec import Controller

DEPLOYMENTS = create_namespaced_resource("apps", "v1", "Deployment", "deployments")
CONFIG_MAPS = create_namespaced_resource("", "v1", "ConfigMap", "configmaps")
ALL_NAMESPACES = "*"
HELM_INSTANCE, HELM_CHART = "app.kubernetes.io/instance", "helm.sh/chart"


@dataclass(frozen=True)
class SeenDeployment:
    """What is kept of a Deployment: where it is, its labels, its containers' images."""

    namespace: str
    name: str
    labels: dict[str, str]
    images: dict[str, str]
    """Container name -> image."""


def seen_deployment(item: dict[str, Any]) -> SeenDeployment:
    """A Deployment (as listed), kept small."""
    metadata = mapping(item.get("metadata"), "a Deployment's metadata")
    name = text(metadata.get("name"), "a Deployment's metadata.name") or ""
    where = f"Deployment {name!r}:"
    template = mapping(mapping(item.get("spec"), f"{where} spec").get("template"), where)
    containers = mapping(template.get("spec"), f"{where} template").get("containers") or []
    if not isinstance(containers, list):
        raise Malformed(f"{where} spec.template.spec.containers is not a list")
    images = {}
    for container in containers:
        found = mapping(container, f"{where} a container")
        key = text(found.get("name"), f"{where} a container's name") or ""
        images[key] = text(found.get("image"), f"{where} container {key!r} image") or ""
    return SeenDeployment(
        namespace=text(metadata.get("namespace"), f"{where} metadata.namespace") or "",
        name=name,
        labels=labels_of(metadata, where),
        images=images,
    )


def read_deployments(reader: ApiReader) -> list[SeenDeployment]:
    """Every Deployment of the cluster (``GET /apis/apps/v1/deployments``, paged)."""
    return reader.list(
        DEPLOYMENTS, "listing Deployments", seen_deployment, namespace=ALL_NAMESPACES
    )


def _controllers(config: StackConfig) -> list[tuple[str, Controller | None]]:
    """(operator key, its controller) of every operator the stack installs, Kueue's too."""
    found = [(operator.key, operator.release.controller) for operator in config.operators.enabled()]
    queueing = config.queueing
    if queueing.enabled:
        catalog = release("kueue", queueing.chart.version)
        image = catalog.controller.image if catalog and catalog.controller else None
        deployment = f"{kueue_fullname(queueing.release_name)}-controller-manager"
        found.append(("kueue", Controller(queueing.namespace, deployment, "manager", image)))
    return sorted(found, key=lambda item: item[0])


def operator_facts(
    config: StackConfig, deployments: Sequence[SeenDeployment]
) -> list[OperatorFacts]:
    """Each operator's controller as found among ``deployments``."""
    by_place = {(d.namespace, d.name): d for d in deployments}
    facts = []
    for key, controller in _controllers(config):
        if controller is None:
            facts.append(
                OperatorFacts(key=key, deployment=None, found=None, image=None, version=None)
            )
            continue
        seen = by_place.get((controller.namespace, controller.deployment))
        images = seen.images if seen else {}
        image = images.get(controller.container) or next(iter(images.values()), None)
        facts.append(
            OperatorFacts(
                key=key,
                deployment=f"{controller.namespace}/{controller.deployment}",
                found=seen is not None,
                image=image,
                version=image_version(key, image) if image else None,
            )
        )
    return facts


def acceleration_facts(
    config: StackConfig, deployments: Sequence[SeenDeployment]
) -> AccelerationFacts:
    """The stack's acceleration component, and its chart's workloads if it is one."""
    component = config.acceleration.component
    if component is None:
        return AccelerationFacts(declared=None, found=None, version=None)
    if isinstance(component, AckAddon):
        declared = f"ACK add-on {component.name} {component.version}"
        return AccelerationFacts(declared=declared, found=None, version=None)
    chart = component.chart
    prefix = f"{chart.name}-"
    labelled = [
        d
        for d in deployments
        if d.namespace == component.namespace and d.labels.get(HELM_INSTANCE) == chart.name
    ]
    versions = sorted(
        {
            d.labels[HELM_CHART][len(prefix) :]
            for d in labelled
            if d.labels.get(HELM_CHART, "").startswith(prefix)
        }
    )
    return AccelerationFacts(
        declared=f"chart {chart.name} {chart.version}",
        found=bool(labelled),
        version=", ".join(versions) or None,
    )


def crd_facts(reader: ApiReader, names: Sequence[str]) -> list[CrdFacts]:
    """Each CRD's served and storage versions (``GET .../customresourcedefinitions/NAME``)."""
    return [_crd(reader, name) for name in sorted(set(names))]


def _crd(reader: ApiReader, name: str) -> CrdFacts:
    what = f"reading CustomResourceDefinition {name}"
    item = reader.get(CRDS, name, what)
    if item is None:
        return CrdFacts(name=name, found=False, served=[], storage=None)
    with reader.errors(what):
        versions = mapping(item.get("spec"), "spec").get("versions") or []
        if not isinstance(versions, list):
            raise Malformed("spec.versions is not a list")
        served, storage = [], None
        for entry in versions:
            found = mapping(entry, "spec.versions[]")
            version = text(found.get("name"), "spec.versions[].name") or ""
            if found.get("served") is True:
                served.append(version)
            if found.get("storage") is True:
                storage = version
    return CrdFacts(name=name, found=True, served=served, storage=storage)


def kueue_facts(reader: ApiReader, config: StackConfig) -> KueueFacts | None:
    """Kueue's configuration from its manager's ConfigMap (when the stack queues)."""
    queueing = config.queueing
    if not queueing.enabled:
        return None
    name = f"{kueue_fullname(queueing.release_name)}-manager-config"
    place = f"{queueing.namespace}/{name}"
    what = f"reading ConfigMap {place}"
    item = reader.get(CONFIG_MAPS, name, what, namespace=queueing.namespace)
    with reader.errors(what):
        data = mapping((item or {}).get("data"), "data")
        found = text_block(data.get(KUEUE_CONFIG_KEY), KUEUE_CONFIG_KEY)
        if found is None:
            return KueueFacts(
                config_map=place, found=False, api_version=None, frameworks=[], sha256=None
            )
        try:
            document = mapping(parse_yaml(found, f"{place}: {KUEUE_CONFIG_KEY}"), KUEUE_CONFIG_KEY)
        except InvalidInputError:
            raise Malformed(f"{KUEUE_CONFIG_KEY} is not valid YAML") from None
        frameworks = mapping(document.get("integrations"), "integrations").get("frameworks")
        if not isinstance(frameworks or [], list):
            raise Malformed("integrations.frameworks is not a list")
        return KueueFacts(
            config_map=place,
            found=True,
            api_version=text(document.get("apiVersion"), "apiVersion"),
            frameworks=[text(f, "integrations.frameworks[]") or "" for f in frameworks or []],
            sha256=hashlib.sha256(found.encode("utf-8")).hexdigest(),
        )


def text_block(value: Any, where: str) -> str | None:
    """A string field of any length (a configuration file held in a ConfigMap)."""
    if value is not None and not isinstance(value, str):
        raise Malformed(f"{where} is {type(value).__name__}, not a string")
    return value
