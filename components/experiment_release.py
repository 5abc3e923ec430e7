"""ExperimentRelease: one training experiment, as a release of the project's own chart.

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

from collections.abc import Sequence
from dataclasses import dataclass

import pulumi
import pulumi_kubernetes as k8s

from trainstack.experiments.resolve import Experiment


@dataclass(frozen=True)
class ExperimentReleaseArgs:
    """The experiment, the chart path, the cluster and what must exist before it."""

    experiment: Experiment
    chart_path: str
    kubernetes: k8s.Provider
    depends_on: Sequence[pulumi.Resource]


class ExperimentRelease(pulumi.ComponentResource):
    """A Helm release of ``charts/training-job`` named after the experiment, in its namespace.

    It depends on the training operators (their CRDs must exist before an MPIJob, TFJob
    or PyTorchJob is created) and on the dataset volumes (the claims must exist).
    """

    release_name: pulumi.Output[str]

    def __init__(
        self, name: str, args: ExperimentReleaseArgs, opts: pulumi.ResourceOptions | None = None
    ) -> None:
        super().__init__("trainstack:experiments:ExperimentRelease", name, None, opts)
        experiment = args.experiment
        release = k8s.helm.v3.Release(
            f"{name}-release",
            name=experiment.name,
            chart=args.chart_path,
            namespace=experiment.namespace,
            values=experiment.values,
            description=f"trainstack experiment from {experiment.source}",
            # A training job is not "ready" the way a Deployment is; waiting would block
            # the deployment until the job finishes or times out.
            skip_await=True,
            opts=pulumi.ResourceOptions(
                parent=self, provider=args.kubernetes, depends_on=list(args.depends_on)
            ),
        )
        self.release_name = release.name.apply(lambda value: value or experiment.name)
        self.register_outputs({"release_name": self.release_name})
