"""The explicit Kubernetes provider every in-cluster resource uses.

Explicit rather than ambient: a stack must never deploy to whatever cluster the
deployer's current kubectl context happens to point at.
"""

from __future__ import annotations

from dataclasses import dataclass

import pulumi
import pulumi_kubernetes as k8s

from components.clusters.registry import fetch_kubeconfig
from trainstack.config.clusters.registry import Cluster
from trainstack.config.loader import LoadedStack


@dataclass(frozen=True)
class ClusterAccess:
    """How the program reaches the cluster: the provider, and what it was built from."""

    provider: k8s.Provider
    kubeconfig: pulumi.Output[str] | None
    """The kubeconfig (a secret); ``None``: the deployer's own kubeconfig file."""
    context: str | None


def kubernetes_provider(
    name: str, stack: LoadedStack, cluster: Cluster | None = None
) -> ClusterAccess:
    """A provider for the stack's cluster, built from the ``trainstack:kubeconfig`` secret.

    On a kind whose cloud's API gives one (``kubeconfig-api``, ACK) the kubeconfig may be
    left unset: it is then fetched for the configured cluster (with the deployer's cloud
    credentials). On an existing cluster without the secret, the named context of the
    deployer's kubeconfig is used. ``cluster``: the stack's as ``registry.provision``
    returned it (a created cluster's kubeconfig is fetched for its ID).
    """
    cluster = cluster or stack.config.cluster
    kubeconfig: pulumi.Output[str] | None = None
    if stack.kubeconfig is not None:
        kubeconfig = pulumi.Output.secret(stack.kubeconfig)
    elif cluster.supports("kubeconfig-api"):
        kubeconfig = pulumi.Output.secret(fetch_kubeconfig(cluster))
    context = cluster.kubeconfig_context
    provider = k8s.Provider(name, kubeconfig=kubeconfig, context=context)
    return ClusterAccess(provider, kubeconfig, context)
