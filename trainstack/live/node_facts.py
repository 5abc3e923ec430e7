"""A node as the API server returns it, read into its facts (:class:`NodeFacts`).

Sources (each fact's own source is in :mod:`trainstack.facts.model`):

- ``status.nodeInfo``, ``status.capacity``, ``status.allocatable``: Kubernetes' Node
  status (kubernetes/api v0.36.3, core/v1/types.go: NodeSystemInfo L6677-6703, capacity
  L6765, allocatable L6769);
- ``node.kubernetes.io/instance-type`` (beta: ``beta.kubernetes.io/instance-type``):
  Kubernetes' well-known label (core/v1/well_known_labels.go L26-27);
- GPUs, by NVIDIA GPU feature discovery (NVIDIA/k8s-device-plugin v0.20.0,
  docs/gpu-feature-discovery/README.md L199-223; internal/lm/resource.go L49-64, L160-179;
  internal/lm/nvml.go L126-140): ``nvidia.com/gpu.product``, ``gpu.memory`` (MiB),
  ``gpu.count``, ``cuda.driver-version.full`` and ``cuda.runtime-version.full`` (their
  deprecated forms ``cuda.driver.{major,minor,rev}`` and ``cuda.runtime.{major,minor}``
  are still written and read too);
- GPUs, by ACK (AlibabaCloudDocs/csk cb678bc9, "Use labels to schedule pods to
  GPU-accelerated nodes" L63-65, L79-81): ``aliyun.accelerator/nvidia_name``,
  ``nvidia_mem`` (e.g. ``12209MiB``), ``nvidia_count``. ACK documents no node label with
  the driver or CUDA version: those stay unknown without GPU feature discovery.

A field of the wrong type, or a string over :data:`~trainstack.core.limits.MAX_FACT_CHARS`,
is no answer the Kubernetes API gives: :class:`Malformed`, one error naming the node and
the field.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from trainstack.core.limits import MAX_FACT_CHARS
from trainstack.core.quantity import quantity_problem
from trainstack.facts.model import Gpu, NodeFacts, Resources
from trainstack.live.api import Malformed

GFD, ACK = "nvidia.com", "aliyun.accelerator"
INSTANCE_TYPE = ("node.kubernetes.io/instance-type", "beta.kubernetes.io/instance-type")
GPU_RESOURCE = "nvidia.com/gpu"
_MIB = re.compile(r"^([0-9]{1,9})(MiB)?$")


@dataclass(frozen=True)
class ObservedNode:
    """One node: its name, labels and facts."""

    name: str
    labels: Mapping[str, str]
    facts: NodeFacts


def text(value: Any, where: str) -> str | None:
    """A string field (``None`` when absent); anything else is :class:`Malformed`."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise Malformed(f"{where} is {type(value).__name__}, not a string")
    if len(value) > MAX_FACT_CHARS:
        raise Malformed(f"{where} has {len(value)} characters; allowed: {MAX_FACT_CHARS}")
    return value


def quantity(value: Any, where: str) -> str | None:
    """A quantity field (``None`` when absent), as Kubernetes writes one."""
    found = text(value, where)
    if found is not None and quantity_problem(found) is not None:
        raise Malformed(f"{where} is {found[:40]!r}, not a quantity")
    return found


def mapping(value: Any, where: str) -> dict[str, Any]:
    """An object field (``{}`` when absent)."""
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise Malformed(f"{where} is {type(value).__name__}, not an object")
    return value


def labels_of(metadata: dict[str, Any], where: str) -> dict[str, str]:
    """``metadata.labels``, every key and value a string."""
    labels = mapping(metadata.get("labels"), f"{where} metadata.labels")
    return {
        str(text(key, f"{where} label key")): str(text(value, f"{where} label {key!r}"))
        for key, value in labels.items()
    }


def _number(value: str | None) -> int | None:
    found = _MIB.match(value or "")
    return int(found[1]) if found else None


def _joined(labels: Mapping[str, str], *keys: str) -> str | None:
    """``major.minor[.rev]`` from the deprecated labels (``None`` without the major)."""
    parts = [labels.get(key) for key in keys]
    return ".".join(part for part in parts if part) if parts[0] else None


_GFD_READ = tuple(
    f"{GFD}/{key}"
    for key in (
        "gpu.product",
        "gpu.memory",
        "gpu.count",
        "cuda.driver-version.full",
        "cuda.driver.major",
        "cuda.runtime-version.full",
        "cuda.runtime.major",
    )
)
_ACK_READ = tuple(f"{ACK}/nvidia_{key}" for key in ("name", "mem", "count"))


def gpu_facts(labels: Mapping[str, str]) -> Gpu | None:
    """The GPUs the labels describe (GPU feature discovery first, then ACK's); ``None``:
    no GPU label of either."""
    read = [
        family
        for family, keys in ((GFD, _GFD_READ), (ACK, _ACK_READ))
        if any(key in labels for key in keys)
    ]
    if not read:
        return None
    product = labels.get(f"{GFD}/gpu.product") or labels.get(f"{ACK}/nvidia_name")
    memory = _number(labels.get(f"{GFD}/gpu.memory")) or _number(labels.get(f"{ACK}/nvidia_mem"))
    count = _number(labels.get(f"{GFD}/gpu.count")) or _number(labels.get(f"{ACK}/nvidia_count"))
    driver = labels.get(f"{GFD}/cuda.driver-version.full") or _joined(
        labels, f"{GFD}/cuda.driver.major", f"{GFD}/cuda.driver.minor", f"{GFD}/cuda.driver.rev"
    )
    cuda = labels.get(f"{GFD}/cuda.runtime-version.full") or _joined(
        labels, f"{GFD}/cuda.runtime.major", f"{GFD}/cuda.runtime.minor"
    )
    return Gpu(
        product=product,
        memory_mib=memory,
        count=count,
        driver_version=driver,
        cuda_version=cuda,
        labels=read,
    )


def _resources(status: dict[str, Any], key: str, where: str) -> Resources:
    found = mapping(status.get(key), f"{where} status.{key}")
    return Resources(
        cpu=quantity(found.get("cpu"), f"{where} status.{key}.cpu"),
        memory=quantity(found.get("memory"), f"{where} status.{key}.memory"),
        gpus=quantity(found.get(GPU_RESOURCE), f"{where} status.{key}.{GPU_RESOURCE}"),
        ephemeral_storage=quantity(
            found.get("ephemeral-storage"), f"{where} status.{key}.ephemeral-storage"
        ),
    )


def observed_node(item: dict[str, Any]) -> ObservedNode:
    """A Node object (as listed) read into its facts."""
    metadata = mapping(item.get("metadata"), "a node's metadata")
    name = text(metadata.get("name"), "a node's metadata.name") or "(unnamed)"
    where = f"node {name!r}:"
    labels = labels_of(metadata, where)
    status = mapping(item.get("status"), f"{where} status")
    info = mapping(status.get("nodeInfo"), f"{where} status.nodeInfo")

    def field(key: str) -> str | None:
        return text(info.get(key), f"{where} status.nodeInfo.{key}")

    facts = NodeFacts(
        instance_type=next((labels[k] for k in INSTANCE_TYPE if labels.get(k)), None),
        kubelet_version=field("kubeletVersion"),
        os_image=field("osImage"),
        kernel_version=field("kernelVersion"),
        container_runtime_version=field("containerRuntimeVersion"),
        architecture=field("architecture"),
        capacity=_resources(status, "capacity", where),
        allocatable=_resources(status, "allocatable", where),
        gpu=gpu_facts(labels),
    )
    return ObservedNode(name, labels, facts)
