"""Open the cluster of a stack, and name the operator that serves a kind there."""

from __future__ import annotations

from trainstack.config.loader import LoadedStack
from trainstack.live.api import ApiReader
from trainstack.live.cluster import Cluster
from trainstack.live.kubeconfig import resolve_target
from trainstack.live.options import ClusterOptions
from trainstack.live.transport import ReadLimits
from trainstack.operators.spec import PodLabels, ServedApi
from trainstack.training_job.frameworks import FrameworkSpec


def connect(stack: LoadedStack, options: ClusterOptions) -> Cluster:
    """A read-only client for the stack's cluster (no request made yet)."""
    return Cluster(connect_reader(stack, options))


def connect_reader(stack: LoadedStack, options: ClusterOptions) -> ApiReader:
    """A bounded, read-only reader of the stack's cluster (no request made yet)."""
    limits = ReadLimits(timeout=options.timeout, deadline=options.deadline)
    return ApiReader(resolve_target(stack, options), limits)


def served_api(stack: LoadedStack, spec: FrameworkSpec) -> ServedApi | None:
    """The API of ``spec``'s kind the stack's operator serves, if any."""
    serving = stack.config.operators.serving(spec.crd)
    return serving[1] if serving else None


def operator_of(stack: LoadedStack, spec: FrameworkSpec) -> PodLabels | None:
    """The pod labels of the operator serving ``spec``'s kind on the stack, if any."""
    served = served_api(stack, spec)
    return served.pod_labels if served else None
