"""The cluster after ``pulumi up``: jobs, pods and logs, read with lightkube.

Its public names; each is imported from its module on first use
(:mod:`trainstack.core.facades`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from trainstack.core.facades import lazy_names

if TYPE_CHECKING:
    from trainstack.live.cli import logs
    from trainstack.live.cluster import Cluster
    from trainstack.live.jobs import LiveJob, experiment_jobs, role_pods, training_container
    from trainstack.live.kubeconfig import Target, default_kubeconfig_path, parse_kubeconfig
    from trainstack.live.options import ClusterOptions

__all__ = [
    "Cluster",
    "ClusterOptions",
    "LiveJob",
    "Target",
    "default_kubeconfig_path",
    "experiment_jobs",
    "logs",
    "parse_kubeconfig",
    "role_pods",
    "training_container",
]

if not TYPE_CHECKING:
    __getattr__ = lazy_names(
        __name__,
        cli=["logs"],
        cluster=["Cluster"],
        jobs=["LiveJob", "experiment_jobs", "role_pods", "training_container"],
        kubeconfig=["Target", "default_kubeconfig_path", "parse_kubeconfig"],
        options=["ClusterOptions"],
    )
