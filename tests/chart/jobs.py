"""Helpers for chart tests: minimal values per framework and accessors into a rendered job."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.stack_helpers import REPO
from trainstack.chart.render import render_training_job
from trainstack.core.values import merged

CHART_DIR = REPO / "charts" / "training-job"
CI_VALUES = sorted((CHART_DIR / "ci").glob("*-values.yaml"))
IMAGE = "registry.example.com/team/train:1.0"
REPLICA_SPECS = {
    "MPIJob": "mpiReplicaSpecs",
    "TFJob": "tfReplicaSpecs",
    "PyTorchJob": "pytorchReplicaSpecs",
}


def job_values(framework: str = "mpi", **overrides: Any) -> dict[str, Any]:
    """The smallest valid values of ``framework``, with ``overrides`` merged in."""
    base = {"framework": framework, "image": {"name": IMAGE}, "command": "python train.py"}
    return merged(base, overrides)


def render_job(values: dict[str, Any], release: str = "job", chart_dir: Path = CHART_DIR) -> dict:
    """The single job object the chart renders for ``values``."""
    objects = render_training_job(values, release=release, namespace="team", chart_dir=chart_dir)
    assert len(objects) == 1, [obj.get("kind") for obj in objects]
    return objects[0]


def render_kinds(values: dict[str, Any], release: str = "job") -> dict[str, dict[str, Any]]:
    """Kind -> the object of that kind the chart renders (each kind once)."""
    objects = render_training_job(values, release=release, namespace="team", chart_dir=CHART_DIR)
    kinds = {obj["kind"]: obj for obj in objects}
    assert len(kinds) == len(objects), [obj["kind"] for obj in objects]
    return kinds


def replica_specs(job: dict[str, Any]) -> dict[str, Any]:
    """Replica type -> replica spec (``Launcher``, ``Worker``, ``Chief``...)."""
    specs: dict[str, Any] = job["spec"][REPLICA_SPECS[job["kind"]]]
    return specs


def pod_spec(job: dict[str, Any], role: str) -> dict[str, Any]:
    """The pod spec of one replica type."""
    spec: dict[str, Any] = replica_specs(job)[role]["template"]["spec"]
    return spec


def container(job: dict[str, Any], role: str) -> dict[str, Any]:
    """The (only) container of one replica type."""
    containers = pod_spec(job, role)["containers"]
    assert len(containers) == 1
    first: dict[str, Any] = containers[0]
    return first


def mounts(job: dict[str, Any], role: str) -> dict[str, dict[str, Any]]:
    """Mount path -> volume mount of one replica type's container."""
    return {m["mountPath"]: m for m in container(job, role).get("volumeMounts", [])}


def volumes(job: dict[str, Any], role: str) -> dict[str, dict[str, Any]]:
    """Volume name -> volume of one replica type's pods."""
    return {v["name"]: v for v in pod_spec(job, role).get("volumes", [])}


def env(job: dict[str, Any], role: str) -> list[tuple[str, str]]:
    """(name, value) of one replica type's environment, in order."""
    return [(e["name"], e["value"]) for e in container(job, role).get("env", [])]
