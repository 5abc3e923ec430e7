"""The aiacc stack's cluster as ``trainstack inspect`` reads it, recorded, with knobs.

The answers are the recorded ones of ``tests/live/data/cluster/`` (an ACK GPU node with
GPU feature discovery's and ACK's labels, a CPU node, the operators' Deployments, the
jobs' CRDs, Kueue's ConfigMap), served for ``n`` GPU and CPU nodes named like ACK's. A
:class:`Shape` changes one fact at a time (a label, a ``nodeInfo`` field, an image, the
server's version, how many nodes), so that two clusters differ in just that.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from tests.live.apiserver import DATA, RecordedApi

CLUSTER = DATA / "cluster"
NODES = "/api/v1/nodes"
DEPLOYMENTS = "/apis/apps/v1/deployments"
CRDS = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions"
KUEUE_CONFIG = "/api/v1/namespaces/kueue-system/configmaps/kueue-manager-config"
JOB_CRDS = ("mpijobs.kubeflow.org", "pytorchjobs.kubeflow.org", "tfjobs.kubeflow.org")


def recorded(name: str) -> Any:
    """One recorded answer (a fresh copy)."""
    return json.loads((CLUSTER / name).read_text(encoding="utf-8"))


@dataclass
class Shape:
    """What the recorded cluster holds; the defaults are the aiacc stack as declared."""

    gpu_nodes: int = 4
    cpu_nodes: int = 2
    other_nodes: int = 0
    gpu_labels: dict[str, str | None] = field(default_factory=dict)
    """Labels set (or removed, ``None``) on every GPU node."""
    gpu_node_info: dict[str, str] = field(default_factory=dict)
    """``status.nodeInfo`` fields set on every GPU node."""
    images: dict[str, str] = field(default_factory=dict)
    """Deployment name -> the image of its container."""
    git_version: str = "v1.30.7-aliyun.1"


def _node(template: str, number: int, labels: dict[str, str | None], info: dict[str, str]) -> Any:
    node = recorded(template)
    name = f"cn-beijing.192.168.0.{number}"
    node["metadata"]["name"] = name
    node["metadata"]["labels"]["kubernetes.io/hostname"] = name
    node["status"]["addresses"] = [
        {"type": "InternalIP", "address": f"192.168.0.{number}"},
        {"type": "Hostname", "address": name},
    ]
    for key, value in labels.items():
        if value is None:
            node["metadata"]["labels"].pop(key, None)
        else:
            node["metadata"]["labels"][key] = value
    node["status"]["nodeInfo"].update(info)
    return node


def nodes(shape: Shape) -> list[Any]:
    """The Node objects of ``shape``, as the API server lists them (by name)."""
    found = [
        _node("node-gpu-v100.json", 21 + index, shape.gpu_labels, shape.gpu_node_info)
        for index in range(shape.gpu_nodes)
    ]
    found += [_node("node-cpu.json", 51 + index, {}, {}) for index in range(shape.cpu_nodes)]
    for index in range(shape.other_nodes):
        other = _node("node-cpu.json", 81 + index, {"trainstack.io/pool": None}, {})
        found.append(other)
    return sorted(found, key=lambda node: node["metadata"]["name"])


def deployments(shape: Shape) -> list[Any]:
    """The Deployments of ``shape`` (every namespace)."""
    found = recorded("deployments.json")
    for item in found:
        image = shape.images.get(item["metadata"]["name"])
        if image is not None:
            item["spec"]["template"]["spec"]["containers"][0]["image"] = image
    return found


def record_cluster(api: RecordedApi, shape: Shape | None = None, page: int = 500) -> None:
    """Add the routes ``inspect`` reads to ``api`` (lists in pages of ``page`` items)."""
    shape = shape or Shape()
    version = recorded("version.json")
    version["gitVersion"] = shape.git_version
    api.object("/version", version)
    api.paged(NODES, "NodeList", "v1", nodes(shape), page)
    api.paged(DEPLOYMENTS, "DeploymentList", "apps/v1", deployments(shape), page)
    for crd in JOB_CRDS:
        api.object(f"{CRDS}/{crd}", recorded(f"crd-{crd}.json"))
    api.object(KUEUE_CONFIG, recorded("configmap-kueue-manager-config.json"))
