"""TrainingOperators: the Helm releases that install the training CRDs and controllers."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import pulumi
import pulumi_kubernetes as k8s

from trainstack.config.charts import ChartRef
from trainstack.config.operators import Operators


@dataclass(frozen=True)
class TrainingOperatorsArgs:
    """Which operators to install, and the provider of the cluster."""

    operators: Operators
    kubernetes: k8s.Provider


class TrainingOperators(pulumi.ComponentResource):
    """mpi-operator, training-operator and Arena releases (those enabled).

    Helm installs a chart's CRDs before its other objects; anything that creates jobs
    depends on this component, and a component completes only when all its releases
    have, so CRDs exist before the first job is submitted.
    """

    release_names: pulumi.Output[list[str]]

    def __init__(
        self, name: str, args: TrainingOperatorsArgs, opts: pulumi.ResourceOptions | None = None
    ) -> None:
        super().__init__("trainstack:operators:TrainingOperators", name, None, opts)
        in_cluster = pulumi.ResourceOptions(parent=self, provider=args.kubernetes)
        names: list[str] = []
        releases = {
            "mpi-operator": args.operators.mpi_operator,
            "training-operator": args.operators.training_operator,
            "arena": args.operators.arena,
        }
        for role, release in releases.items():
            if release is None or not release.enabled:
                continue
            helm_release(
                f"{name}-{role}",
                chart=release.chart,
                namespace=release.namespace,
                values=release.values,
                release_name=release.name,
                opts=in_cluster,
            )
            names.append(release.name)
        self.release_names = pulumi.Output.from_input(names)
        self.register_outputs({"release_names": self.release_names})


def helm_release(
    resource_name: str,
    *,
    chart: ChartRef,
    namespace: str,
    values: Mapping[str, Any],
    release_name: str,
    opts: pulumi.ResourceOptions,
) -> k8s.helm.v3.Release:
    """A ``helm.v3.Release`` of a remote chart, with a fixed release name and namespace."""
    reference, repository = chart_location(chart)
    return k8s.helm.v3.Release(
        resource_name,
        name=release_name,
        chart=reference,
        version=chart.version,
        repository_opts=repository,
        namespace=namespace,
        create_namespace=True,
        values=dict(values),
        # Roll back a failed upgrade instead of leaving a half-applied operator.
        atomic=True,
        opts=opts,
    )


def chart_location(chart: ChartRef) -> tuple[str, k8s.helm.v3.RepositoryOptsArgs | None]:
    """Helm's two addressing schemes: an OCI reference, or a name in an index repository."""
    if chart.repo.startswith("oci://"):
        return f"{chart.repo.rstrip('/')}/{chart.name}", None
    return chart.name, k8s.helm.v3.RepositoryOptsArgs(repo=chart.repo)
