"""Everything one health run creates, decided before anything is sent: the nodes, the
shapes, the objects, and which images are still placeholders."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from trainstack.config.stack import StackConfig
from trainstack.core.names import is_placeholder
from trainstack.experiments.lookup import StackRuns
from trainstack.health.jobs import Span, Target, namespace, nccl_node_job, node_job, span_job
from trainstack.health.targets import node_targets, spans, used_pools
from trainstack.training_job.frameworks import framework

MPI_V2 = "kubeflow.org/v2beta1"
"""The MPIJob API the interconnect test is written for (mpi-operator 0.3 and later)."""


@dataclass(frozen=True)
class Checks:
    """The run's objects, by phase, and what was left out (and why)."""

    run: str
    namespace: dict[str, Any]
    node_jobs: tuple[tuple[Target, dict[str, Any]], ...]
    nccl_jobs: tuple[tuple[Target, dict[str, Any]], ...]
    span_jobs: tuple[tuple[Span, dict[str, Any]], ...]
    notes: tuple[str, ...]

    def objects(self) -> list[dict[str, Any]]:
        """Every object, in the order they are created."""
        return [
            self.namespace,
            *(job for _, job in self.node_jobs),
            *(job for _, job in self.nccl_jobs),
            *(job for _, job in self.span_jobs),
        ]


def mpi_api(config: StackConfig) -> str | None:
    """The MPIJob API the stack's MPI operator serves, if any."""
    serving = config.operators.serving(framework("mpi").crd)
    return serving[1].api_version if serving else None


def plan_checks(
    resolved: StackRuns, members: Mapping[str, Sequence[str]], wanted: Sequence[str], run: str
) -> Checks:
    """The objects of one run on the nodes ``members`` lists per pool (``wanted``:
    ``--node``)."""
    config = resolved.stack.config
    settings = config.health
    pools = used_pools(resolved)
    targets = node_targets(pools, members, wanted)
    notes: list[str] = []
    shapes = spans(resolved, pools)
    api = mpi_api(config)
    span_jobs: list[tuple[Span, dict[str, Any]]] = []
    if shapes and api != MPI_V2:
        served = f"serves MPIJob {api}" if api else "has no MPI operator"
        notes.append(
            f"interconnect across nodes not measured: the stack {served}; the test runs as "
            f"an MPIJob {MPI_V2} (trainstack:operators.mpiOperator)"
        )
    elif wanted and shapes:
        notes.append("interconnect across nodes not measured: --node checks single nodes")
    else:
        span_jobs = [
            (span, span_job(span, settings, run, MPI_V2, config.cpu_pool)) for span in shapes
        ]
    return Checks(
        run=run,
        namespace=namespace(settings, run),
        node_jobs=tuple((t, node_job(t, settings, run)) for t in targets),
        nccl_jobs=tuple((t, nccl_node_job(t, settings, run)) for t in targets if t.gpus > 1),
        span_jobs=tuple(span_jobs),
        notes=tuple(notes),
    )


def placeholder_images(config: StackConfig) -> list[str]:
    """``trainstack:health.images.KEY: VALUE`` of each image not pinned yet."""
    images = config.health.images.model_dump(by_alias=True)
    return [
        f"trainstack:health.images.{key}: {value or 'unset'}"
        for key, value in sorted(images.items())
        if value is None or is_placeholder(value) or "@sha256:" not in value
    ]
