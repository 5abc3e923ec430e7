"""ExperimentReleases: the training experiments of a stack, each a release of the project's chart.

Why ``kubernetes.helm.v3.Release`` and not ``kubernetes.helm.v4.Chart``: a v4 Chart
renders client-side into one Pulumi resource per object, which gives per-object
previews, but it needs a reachable cluster at preview time (it looks up the API server's
resources), so a pull request could not be previewed without cluster credentials. A v3
Release previews without a cluster, is a real Helm release (``helm ls``, ``helm history``
and Arena's own tooling see it, and ``helm uninstall`` cleans it up), and the per-object
review a v4 Chart would give is provided offline instead: ``trainstack plan`` renders the
release's values through Helm and writes every object.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pulumi
import pulumi_kubernetes as k8s

from trainstack.experiments.resolve import Experiment


@dataclass(frozen=True)
class ExperimentReleasesArgs:
    """The experiments, the chart path, the cluster, and what must exist before the jobs."""

    experiments: Sequence[Experiment]
    chart_path: str
    kubernetes: k8s.Provider
    prerequisites: Sequence[pulumi.Resource]
    """What every job needs first: the operators (CRDs), the dataset claims and the
    acceleration component when the stack installs one."""
    teams: Mapping[str, pulumi.Resource]
    """Each team's namespace, quota and defaults, by team name."""
    queues: Sequence[pulumi.Resource]
    """The job queues (Kueue), needed first by queued jobs."""
    gate: pulumi.Output[Any] | None = None
    """Known once the jobs passed the cluster's own CRDs (a real preview/up); the releases'
    values wait for it, so a failed check creates no experiment. ``None`` offline."""


class ExperimentReleases(pulumi.ComponentResource):
    """One Helm release of ``charts/training-job`` per experiment, named after it, in its
    namespace.

    A job waits for the training operators (their CRDs must exist before an MPIJob, TFJob
    or PyTorchJob is created), the dataset claims, its team and, when queued, the queues.
    One component for all the experiments rather than one each: a stack may run hundreds,
    and every Pulumi resource costs time in each preview and plan.
    """

    release_names: pulumi.Output[list[str]]

    def __init__(
        self, name: str, args: ExperimentReleasesArgs, opts: pulumi.ResourceOptions | None = None
    ) -> None:
        super().__init__("trainstack:experiments:ExperimentReleases", name, None, opts)
        for experiment in args.experiments:
            needs = [
                *args.prerequisites,
                *([args.teams[experiment.team]] if experiment.team else []),
                *(args.queues if experiment.queued else []),
            ]
            k8s.helm.v3.Release(
                f"{experiment.release_name}-release",
                name=experiment.release_name,
                chart=args.chart_path,
                namespace=experiment.namespace,
                values=_after(args.gate, experiment.values),
                description=f"trainstack experiment from {experiment.source}",
                # A training job is not "ready" the way a Deployment is; waiting would
                # block the deployment until the job finishes or times out.
                skip_await=True,
                # Pass nulls on to Helm: a value set to null deletes the chart's default
                # (e.g. security.seccompProfile: null for Arena's operators).
                allow_null_values=True,
                opts=pulumi.ResourceOptions(
                    parent=self, provider=args.kubernetes, depends_on=needs
                ),
            )
        self.release_names = pulumi.Output.from_input([e.release_name for e in args.experiments])
        self.register_outputs({"release_names": self.release_names})


def _after(gate: pulumi.Output[Any] | None, values: dict[str, Any]) -> pulumi.Input[dict[str, Any]]:
    """``values``, only once ``gate`` is known (at once without a gate)."""
    if gate is None:
        return values
    return gate.apply(lambda _: values)
