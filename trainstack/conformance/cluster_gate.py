"""The gate every experiment release waits for in a real preview/up: the jobs, rendered as
Helm will, checked against the CRDs the cluster serves (see ``live.py``).

The kubeconfig is the one the program's Kubernetes provider uses (the
``trainstack:kubeconfig`` secret, ACK's credential, or the deployer's own kubeconfig with
the stack's context); it is only ever parsed in memory.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from trainstack.chart.render import render_training_job
from trainstack.conformance.live import check_on_cluster
from trainstack.core.errors import ClusterError, InputLimitError, YamlSyntaxError
from trainstack.core.files import read_source
from trainstack.deployment import Deployment
from trainstack.experiments.resolve import Experiment
from trainstack.training_job.frameworks import framework

if TYPE_CHECKING:
    from trainstack.live.kubeconfig import Target

TIMEOUT_SECONDS = 20.0


def check_experiments_on_cluster(
    experiments: Sequence[Experiment],
    chart_dir: Path,
    kubeconfig: str | None,
    context: str | None,
) -> None:
    """Raise :class:`ClusterError` unless every job conforms to the cluster's own CRDs."""
    # The Kubernetes client loads only when a cluster is read: every plan runs the program
    # that imports this module, offline (about 0.1 s of start-up: httpx2, lightkube).
    from trainstack.live.api import ApiReader
    from trainstack.live.cluster import Cluster
    from trainstack.live.transport import ReadLimits

    limits = ReadLimits(timeout=TIMEOUT_SECONDS)
    cluster = Cluster(ApiReader(_target(kubeconfig, context), limits))
    crds: dict[str, Any] = {}
    for experiment in experiments:
        name = framework(experiment.job.framework).crd
        if name not in crds:
            crds[name] = cluster.get_crd(name)
    objects = [
        obj
        for experiment in experiments
        for obj in render_training_job(
            experiment.values,
            release=experiment.release_name,
            namespace=experiment.namespace,
            chart_dir=chart_dir,
        )
        if obj.get("kind") == framework(experiment.job.framework).kind
    ]
    check_on_cluster(objects, crds, cluster.where())


def _target(kubeconfig: str | None, context: str | None) -> Target:
    from trainstack.live.kubeconfig import Target, default_kubeconfig_path, parse_kubeconfig

    if kubeconfig is None:
        path = default_kubeconfig_path()
        try:
            text = read_source(path).text  # bounded: a regular file of at most MAX_FILE_BYTES
        except InputLimitError as error:
            found = error.problems[0].found
            raise ClusterError(f"cannot read kubeconfig {path}: {found}") from None
        except YamlSyntaxError:
            raise ClusterError(f"kubeconfig {path} is not UTF-8 text") from None
    else:
        path, text = Path("(trainstack:kubeconfig)"), kubeconfig
    return Target(path, context, parse_kubeconfig(text, str(path)))


def crd_gate(
    deployment: Deployment,
    chart_dir: Path,
    kubeconfig: Any,
    context: str | None,
    operators_ready: Any,
) -> Any:
    """An output known once the jobs passed the cluster's CRDs (checked after the operators
    are in); a failed check ends ``pulumi preview``/``up`` with its message, no traceback.
    ``None`` offline (nothing is read from a cluster) or without experiments.

    In a preview of a first deployment the operators' outputs are unknown, so the check
    runs at ``up``; once they exist it runs at every preview too.
    """
    import pulumi

    if deployment.offline or not deployment.experiments:
        return None
    experiments = deployment.experiments

    def check(args: list[Any]) -> bool:
        try:
            check_experiments_on_cluster(experiments, chart_dir, args[0], context)
        except ClusterError as error:
            raise pulumi.RunError(str(error)) from None
        return True

    return pulumi.Output.all(kubeconfig, operators_ready).apply(check)
