"""Open the cluster of a stack, and name the operator that serves a kind there."""

from __future__ import annotations

from trainstack.config.loader import LoadedStack
from trainstack.frameworks import FrameworkSpec
from trainstack.live.cluster import Cluster
from trainstack.live.kubeconfig import resolve_target
from trainstack.live.options import ClusterOptions


def connect(stack: LoadedStack, options: ClusterOptions) -> Cluster:
    """A read-only client for the stack's cluster (no request made yet)."""
    return Cluster(resolve_target(stack, options), options.timeout)


def operator_of(stack: LoadedStack, spec: FrameworkSpec) -> str | None:
    """The ``trainstack:operators`` key of the operator serving ``spec``'s kind, if any."""
    served = stack.config.operators.served_crds().get(spec.crd)
    return served[0] if served else None
