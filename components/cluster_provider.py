"""The explicit Kubernetes provider every in-cluster resource uses.

Explicit rather than ambient: a stack must never deploy to whatever cluster the
deployer's current kubectl context happens to point at.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pulumi
import pulumi_alicloud as alicloud
import pulumi_kubernetes as k8s

from trainstack.config.clusters.alicloud import AlicloudCluster
from trainstack.config.loader import LoadedStack


def _from_ack(cluster: AlicloudCluster) -> pulumi.Output[str]:
    """The cluster's kubeconfig, read from ACK (`alicloud.cs.getClusterCredential`)."""
    credential = alicloud.cs.get_cluster_credential_output(cluster_id=cluster.cluster_id)
    return credential.kube_config


KUBECONFIG_FETCHERS: dict[str, Callable[[Any], pulumi.Output[str]]] = {"alicloud": _from_ack}
"""By ``provider``: how the program fetches the kubeconfig of a cluster whose cloud's API
gives one (``kubeconfig-api``), when the stack sets no ``trainstack:kubeconfig``."""


@dataclass(frozen=True)
class ClusterAccess:
    """How the program reaches the cluster: the provider, and what it was built from."""

    provider: k8s.Provider
    kubeconfig: pulumi.Output[str] | None
    """The kubeconfig (a secret); ``None``: the deployer's own kubeconfig file."""
    context: str | None


def kubernetes_provider(name: str, stack: LoadedStack) -> ClusterAccess:
    """A provider for the stack's cluster, built from the ``trainstack:kubeconfig`` secret.

    On ACK the kubeconfig may be left unset: it is then fetched from the ACK API for the
    configured cluster (with the deployer's Alibaba Cloud credentials). On an existing
    cluster without the secret, the named context of the deployer's kubeconfig is used.
    """
    cluster = stack.config.cluster
    kubeconfig: pulumi.Output[str] | None = None
    if stack.kubeconfig is not None:
        kubeconfig = pulumi.Output.secret(stack.kubeconfig)
    elif cluster.supports("kubeconfig-api"):
        kubeconfig = pulumi.Output.secret(KUBECONFIG_FETCHERS[cluster.provider](cluster))
    context = cluster.kubeconfig_context
    provider = k8s.Provider(name, kubeconfig=kubeconfig, context=context)
    return ClusterAccess(provider, kubeconfig, context)
