"""The Kubernetes objects ``trainstack health`` creates: plain dictionaries, checked against
Kubernetes' and the MPI operator's schemas before anything is sent (or written).

- a Namespace (:func:`namespace`), when the one of ``trainstack:health.namespace`` is absent;
- per node, a Job on the DCGM image (:data:`NODE_SCRIPT`: ``nvidia-smi -q``, the two GEMM
  tests, ``dcgmi diag``), then a Job running ``all_reduce_perf`` over all its GPUs;
- per multi-node shape of the stack's experiments, an MPIJob (``kubeflow.org/v2beta1``)
  running ``all_reduce_perf`` under ``mpirun`` across that many nodes of the pool.

Every object carries :data:`MANAGED_BY` and :data:`RUN_LABEL` (this run's id): the end of a
run deletes by that selector, so nothing of anyone else's is ever touched. Pods are
placed by ``kubernetes.io/hostname`` (a well-known label, kubernetes/api core/v1
well_known_labels.go) plus the pool's labels, tolerate the pool's taints, request every
GPU of the node, and run without privileges or host namespaces.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from trainstack.config.health import HealthSettings
from trainstack.config.node_pool import NodePool
from trainstack.core.names import MANAGED_BY

RUN_LABEL = "trainstack.io/health-run"
CHECK_LABEL = "trainstack.io/health-check"
NODE_ANNOTATION = "trainstack.io/node"
HOSTNAME_LABEL = "kubernetes.io/hostname"
NODE_CHECK, NCCL_NODE, NCCL_SPAN = "node", "nccl-node", "nccl-span"
ALL_REDUCE = "/opt/nccl_tests/build/all_reduce_perf"
SIZES = ["-b", "1M", "-e", "1G", "-f", "2"]
"""1 MiB to 1 GiB, doubling: the gradient buckets frameworks fuse (Horovod's 64 MiB fusion
buffer, PyTorch DDP's 25 MiB buckets) and the largest size, nearest the links' peak."""
MARK = "=== trainstack:"
NODE_SCRIPT = f"""\
echo "{MARK} nvidia-smi -q"
nvidia-smi -q
echo "{MARK} exit $?"
echo "{MARK} dcgmproftester12 -t 1004"
dcgmproftester12 --no-dcgm-validation -t 1004 -d "$TRAINSTACK_GEMM_SECONDS"
echo "{MARK} exit $?"
echo "{MARK} dcgmproftester12 --cublas -t 1007"
dcgmproftester12 --no-dcgm-validation --cublas -t 1007 -d "$TRAINSTACK_GEMM_SECONDS"
echo "{MARK} exit $?"
echo "{MARK} dcgmi diag"
nv-hostengine && dcgmi diag -r "$TRAINSTACK_DIAG_LEVEL"
echo "{MARK} exit $?"
"""
"""The node check, one section per tool, each ended by its exit status (read by
:mod:`trainstack.health.sections`). A constant: the level and duration are environment
variables, so no value is ever part of the script's text. The GEMM tests run before
``nv-hostengine`` starts: dcgmproftester runs DCGM embedded (its documentation)."""


@dataclass(frozen=True)
class Target:
    """One node to check: its name and pool."""

    node: str
    pool: NodePool

    @property
    def gpus(self) -> int:
        return self.pool.gpus_per_node


@dataclass(frozen=True)
class Span:
    """One multi-node shape of the stack's experiments: N pods of G GPUs in a pool."""

    pool: NodePool
    pods: int
    gpus: int
    experiments: tuple[str, ...]

    @property
    def name(self) -> str:
        return f"{self.pool.name}: {self.pods} pods x {self.gpus} GPUs"


def object_name(check: str, key: str, run: str) -> str:
    """``health-CHECK-HASH-RUN``: a DNS label however long the node's name (hashed)."""
    digest = hashlib.sha256(key.encode()).hexdigest()[:10]
    return f"health-{check}-{digest}-{run}"[:63].rstrip("-")


def labels(run: str, check: str | None = None) -> dict[str, str]:
    """The labels of every object of run ``run`` (the check's too, when given)."""
    found = {**MANAGED_BY, RUN_LABEL: run}
    if check is not None:
        found[CHECK_LABEL] = check
    return found


def namespace(settings: HealthSettings, run: str) -> dict[str, Any]:
    """The namespace of the checks, Pod Security ``baseline`` enforced (root in the
    container, as the DCGM and nccl-tests images run, but no privilege or host access)."""
    return {
        "apiVersion": "v1",
        "kind": "Namespace",
        "metadata": {
            "name": settings.namespace,
            "labels": {
                **labels(run),
                "pod-security.kubernetes.io/enforce": "baseline",
            },
        },
    }


def _security() -> dict[str, Any]:
    return {"allowPrivilegeEscalation": False, "capabilities": {"drop": ["NET_RAW"]}}


def _placement(pool: NodePool, node: str | None) -> dict[str, Any]:
    selector = dict(sorted(pool.labels.items()))
    if node is not None:
        selector[HOSTNAME_LABEL] = node
    placed: dict[str, Any] = {"nodeSelector": selector}
    if pool.tolerations:
        placed["tolerations"] = pool.tolerations
    return placed


def _shm() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """NCCL's shared memory between the ranks of a pod (an in-memory emptyDir)."""
    volume = {"name": "dshm", "emptyDir": {"medium": "Memory"}}
    return [volume], [{"name": "dshm", "mountPath": "/dev/shm"}]


def _job(
    name: str, settings: HealthSettings, run: str, check: str, node: str, pod: dict[str, Any]
) -> dict[str, Any]:
    return {
        "apiVersion": "batch/v1",
        "kind": "Job",
        "metadata": {
            "name": name,
            "namespace": settings.namespace,
            "labels": labels(run, check),
            "annotations": {NODE_ANNOTATION: node},
        },
        "spec": {
            "backoffLimit": 0,
            "template": {
                "metadata": {"labels": labels(run, check)},
                "spec": {
                    "restartPolicy": "Never",
                    "automountServiceAccountToken": False,
                    "enableServiceLinks": False,
                    **pod,
                },
            },
        },
    }


def node_job(target: Target, settings: HealthSettings, run: str) -> dict[str, Any]:
    """The DCGM Job of one node: nvidia-smi -q, GEMM FP16 and FP32, dcgmi diag."""
    container = {
        "name": "check",
        "image": settings.images.dcgm,
        "command": ["/bin/sh", "-c", NODE_SCRIPT],
        "env": [
            {"name": "TRAINSTACK_DIAG_LEVEL", "value": str(settings.diag_level)},
            {"name": "TRAINSTACK_GEMM_SECONDS", "value": str(settings.gemm_seconds)},
        ],
        "resources": {"limits": {"nvidia.com/gpu": str(target.gpus)}},
        "securityContext": _security(),
    }
    pod = {**_placement(target.pool, target.node), "containers": [container]}
    name = object_name(NODE_CHECK, target.node, run)
    return _job(name, settings, run, NODE_CHECK, target.node, pod)


def nccl_node_job(target: Target, settings: HealthSettings, run: str) -> dict[str, Any]:
    """The nccl-tests Job of one node: all_reduce_perf over all its GPUs in one process."""
    volumes, mounts = _shm()
    container = {
        "name": "all-reduce",
        "image": settings.images.nccl_tests_image(),
        "command": [ALL_REDUCE, *SIZES, "-g", str(target.gpus)],
        "resources": {"limits": {"nvidia.com/gpu": str(target.gpus)}},
        "securityContext": _security(),
        "volumeMounts": mounts,
    }
    pod = {**_placement(target.pool, target.node), "containers": [container], "volumes": volumes}
    name = object_name(NCCL_NODE, target.node, run)
    return _job(name, settings, run, NCCL_NODE, target.node, pod)


def span_job(
    span: Span, settings: HealthSettings, run: str, api_version: str, launcher_pool: NodePool | None
) -> dict[str, Any]:
    """The MPIJob of one shape: ``mpirun -np N*G all_reduce_perf -g 1`` across N nodes."""
    volumes, mounts = _shm()
    ranks = span.pods * span.gpus
    launcher = {
        "name": "launcher",
        "image": settings.images.nccl_tests_image(),
        "command": ["mpirun", "--allow-run-as-root", "-np", str(ranks), "-bind-to", "none"],
        "args": [ALL_REDUCE, *SIZES, "-g", "1"],
        "securityContext": _security(),
    }
    worker = {
        "name": "worker",
        "image": settings.images.nccl_tests_image(),
        "resources": {"limits": {"nvidia.com/gpu": str(span.gpus)}},
        "securityContext": _security(),
        "volumeMounts": mounts,
    }
    launcher_placement = _placement(launcher_pool, None) if launcher_pool else {}
    common = {"automountServiceAccountToken": False, "enableServiceLinks": False}
    return {
        "apiVersion": api_version,
        "kind": "MPIJob",
        "metadata": {
            "name": object_name(NCCL_SPAN, span.name, run),
            "namespace": settings.namespace,
            "labels": labels(run, NCCL_SPAN),
            "annotations": {NODE_ANNOTATION: span.name},
        },
        "spec": {
            "slotsPerWorker": span.gpus,
            "runPolicy": {"backoffLimit": 0, "cleanPodPolicy": "None"},
            "mpiReplicaSpecs": {
                "Launcher": {
                    "replicas": 1,
                    "restartPolicy": "Never",
                    "template": {
                        "metadata": {"labels": labels(run, NCCL_SPAN)},
                        "spec": {**common, **launcher_placement, "containers": [launcher]},
                    },
                },
                "Worker": {
                    "replicas": span.pods,
                    "template": {
                        "metadata": {"labels": labels(run, NCCL_SPAN)},
                        "spec": {
                            **common,
                            **_placement(span.pool, None),
                            "containers": [worker],
                            "volumes": volumes,
                        },
                    },
                },
            },
        },
    }
