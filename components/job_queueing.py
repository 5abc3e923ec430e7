"""JobQueueing: Kueue, one ResourceFlavor per node pool, a queue pair per team.

Kueue keeps a labelled job suspended until its team's ClusterQueue has quota for all of
its pods, then admits it whole; with ``waitForPodsReady`` a job whose pods do not all
start in time is suspended and requeued instead of holding part of the GPUs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

import pulumi
import pulumi_kubernetes as k8s

from components.installers import helm_release
from trainstack.config.capacity import NodeAllocatable
from trainstack.config.node_pool import GPU_RESOURCE, NodePool
from trainstack.config.operators import Operators
from trainstack.config.queueing import Queueing
from trainstack.config.teams import Amounts, BorrowingLimit, Team, model_share, nominal
from trainstack.core.names import MANAGED_BY
from trainstack.core.quantity import exact_quantity
from trainstack.core.values import merged
from trainstack.core.yaml.io import dump_yaml
from trainstack.training_job.frameworks import frameworks

KUEUE_API = "kueue.x-k8s.io/v1beta2"
"""Kueue's current API: served from 0.15.0 (kubernetes-sigs/kueue#7304), storage from 0.16;
v1beta1 is deprecated but still served by every release through 0.19.2
(config/components/crd/bases at each tag; its removal, #13957/#14558, is unreleased)."""

# Only the kinds the training-job chart renders: each enabled integration makes Kueue
# watch (and webhook) that kind, and the `pod` integration would gate the jobs' own pods.
INTEGRATIONS = [spec.kueue_integration for spec in frameworks()]


def integrations(operators: Operators | None) -> list[str]:
    """Kueue's integrations for the kinds the stack's operators serve (every kind the chart
    renders when ``operators`` is not given): an integration whose CRD is missing only
    makes Kueue wait for it."""
    if operators is None:
        return list(INTEGRATIONS)
    return [
        spec.kueue_integration
        for spec in frameworks()
        if (served := operators.serving(spec.crd)) is not None and served[1].suspend
    ]


COVERED_RESOURCES = ["cpu", "memory", GPU_RESOURCE]


@dataclass(frozen=True)
class JobQueueingArgs:
    """Queueing settings, the pools, the teams (and their components), the provider."""

    queueing: Queueing
    pools: Sequence[NodePool]
    teams: Sequence[Team]
    team_resources: Sequence[pulumi.Resource]
    """The teams' components: each LocalQueue lives in a team namespace."""
    kubernetes: k8s.Provider
    operators: Operators | None = None
    """The stack's operators: Kueue integrates the kinds they serve and can suspend."""
    allocatable: Mapping[str, NodeAllocatable] = field(default_factory=dict)
    """Per pool name, what pods can request on one of its nodes: a flavor's nominal CPU and
    memory are never more than its nodes have together."""


class JobQueueing(pulumi.ComponentResource):
    """The Kueue release, a ResourceFlavor per pool, a ClusterQueue and LocalQueue per team.

    Each pool is a flavor (its node labels and tolerations), so that GPU models are
    quota'd apart. Each ClusterQueue lists every flavor in one resource group: on a GPU
    pool's flavor the team may use its per-model GPU quota (``quota.gpuModels``, else
    its GPU quota), on a CPU pool's flavor no GPUs; CPU and memory quota is the team's on
    every flavor (Kueue has no total across flavors: the team's ResourceQuota caps the
    sum). Kueue gives each role the flavor whose node labels its node selector matches.
    It admits only from the team's namespace, and with a cohort may borrow what other
    teams leave idle. The LocalQueue (named after the team, in its namespace) is what a
    job's ``kueue.x-k8s.io/queue-name`` label names.
    """

    release_name: pulumi.Output[str]

    def __init__(
        self, name: str, args: JobQueueingArgs, opts: pulumi.ResourceOptions | None = None
    ) -> None:
        super().__init__("trainstack:queueing:JobQueueing", name, None, opts)
        queueing = args.queueing
        in_cluster = pulumi.ResourceOptions(parent=self, provider=args.kubernetes)
        release = helm_release(
            f"{name}-release",
            chart=queueing.chart,
            namespace=queueing.namespace,
            values=chart_values(queueing, args.operators),
            release_name=queueing.release_name,
            opts=in_cluster,
        )
        after_release = pulumi.ResourceOptions.merge(
            in_cluster, pulumi.ResourceOptions(depends_on=[release])
        )
        flavors = [
            k8s.apiextensions.CustomResource(
                f"{name}-{pool.name}-flavor",
                api_version=KUEUE_API,
                kind="ResourceFlavor",
                metadata=k8s.meta.v1.ObjectMetaArgs(name=pool.name, labels=_labels()),
                spec=flavor_spec(pool),
                # The one flavor of stacks made before several pools was "<name>-flavor".
                opts=pulumi.ResourceOptions.merge(
                    after_release,
                    pulumi.ResourceOptions(
                        aliases=[pulumi.Alias(name=f"{name}-flavor")] if index == 0 else []
                    ),
                ),
            )
            for index, pool in enumerate(args.pools)
        ]
        for team in args.teams:
            k8s.apiextensions.CustomResource(
                f"{name}-{team.name}-cluster-queue",
                api_version=KUEUE_API,
                kind="ClusterQueue",
                metadata=k8s.meta.v1.ObjectMetaArgs(name=team.name, labels=_labels(team)),
                spec=cluster_queue_spec(team, args.pools, queueing, args.allocatable),
                opts=pulumi.ResourceOptions.merge(
                    after_release, pulumi.ResourceOptions(depends_on=flavors)
                ),
            )
            k8s.apiextensions.CustomResource(
                f"{name}-{team.name}-local-queue",
                api_version=KUEUE_API,
                kind="LocalQueue",
                metadata=k8s.meta.v1.ObjectMetaArgs(
                    name=team.name, namespace=team.namespace_name, labels=_labels(team)
                ),
                spec={"clusterQueue": team.name},
                opts=pulumi.ResourceOptions.merge(
                    after_release, pulumi.ResourceOptions(depends_on=list(args.team_resources))
                ),
            )
        self.release_name = pulumi.Output.from_input(queueing.release_name)
        self.register_outputs({"release_name": self.release_name})


def chart_values(queueing: Queueing, operators: Operators | None = None) -> dict[str, Any]:
    """The user's chart values with Kueue's Configuration written by trainstack."""
    configuration = {
        "apiVersion": "config.kueue.x-k8s.io/v1beta2",
        "kind": "Configuration",
        # The ports the chart's Services and probes point at.
        "health": {"healthProbeBindAddress": ":8081"},
        "metrics": {"bindAddress": ":8443"},
        "webhook": {"port": 9443},
        # Jobs without the queue label (and other teams' namespaces) are left alone.
        "manageJobsWithoutQueueName": False,
        "waitForPodsReady": {
            "timeout": queueing.pods_ready_timeout,
            # One admitted job at a time until its pods run: two half-started jobs could
            # otherwise hold each other's GPUs.
            "blockAdmission": True,
            # Without a limit Kueue requeues such a job forever (v0.19.2 apis/config/
            # v1beta2/configuration_types.go:412-426): after requeueLimit evictions the
            # next timeout deactivates it (pkg/controller/core/workload_controller.go:
            # 1282-1294), its quota freed.
            "requeuingStrategy": {"backoffLimitCount": queueing.requeue_limit},
        },
        "integrations": {"frameworks": integrations(operators)},
    }
    ours = {"managerConfig": {"controllerManagerConfigYaml": dump_yaml(configuration)}}
    return merged(queueing.values, ours)


def flavor_spec(pool: NodePool) -> dict[str, Any]:
    """The pool as a ResourceFlavor: its node labels, and tolerations for its taints."""
    spec: dict[str, Any] = {"nodeLabels": dict(sorted(pool.labels.items()))}
    if pool.taints:
        spec["tolerations"] = pool.tolerations
    return spec


def cluster_queue_spec(
    team: Team,
    pools: Sequence[NodePool],
    queueing: Queueing,
    allocatable: Mapping[str, NodeAllocatable] | None = None,
) -> dict[str, Any]:
    """The team's ClusterQueue: its quota on each pool's flavor, its namespace only.

    On a flavor, the team's CPU and memory are capped at what the pool's nodes let pods
    request together (their allocatable, when known): Kueue never admits pods onto a
    flavor for CPU or memory its nodes do not have.
    """
    share = nominal(team, [])
    limit = team.borrowing_limit if queueing.cohort else None
    flavors = []
    for pool in pools:
        gpus = model_share(team, pool.gpu_model) if pool.gpu_model else 0
        node = (allocatable or {}).get(pool.name)
        cpu, memory = share.cpu, share.memory
        if node is not None and node.cpu is not None:
            cpu = min(cpu, node.cpu.allocatable * pool.max_nodes)
        if node is not None and node.memory is not None:
            memory = min(memory, node.memory.allocatable * pool.max_nodes)
        on_pool = Amounts(gpus, Decimal(cpu), Decimal(memory), share.pods)
        flavors.append({"name": pool.name, "resources": _quotas(on_pool, limit)})
    spec: dict[str, Any] = {
        "namespaceSelector": {"matchLabels": {"kubernetes.io/metadata.name": team.namespace_name}},
        "queueingStrategy": "BestEffortFIFO",
        "resourceGroups": [{"coveredResources": list(COVERED_RESOURCES), "flavors": flavors}],
    }
    if queueing.cohort:
        spec["cohortName"] = queueing.cohort
        spec["preemption"] = {
            "reclaimWithinCohort": queueing.reclaim_within_cohort,
            "withinClusterQueue": "Never",
        }
    return spec


def _quotas(share: Amounts, limit: BorrowingLimit | None) -> list[dict[str, Any]]:
    nominal_quota: Mapping[str, str] = {
        "cpu": exact_quantity(share.cpu, binary=False),
        "memory": exact_quantity(share.memory, binary=True),
        GPU_RESOURCE: str(share.gpu),
    }
    borrowing: Mapping[str, str | int | None] = {
        "cpu": None if limit is None else limit.cpu,
        "memory": None if limit is None else limit.memory,
        GPU_RESOURCE: None if limit is None or limit.gpu is None else str(limit.gpu),
    }
    quotas = []
    for resource in COVERED_RESOURCES:
        quota: dict[str, Any] = {"name": resource, "nominalQuota": nominal_quota[resource]}
        if borrowing[resource] is not None:
            quota["borrowingLimit"] = borrowing[resource]
        quotas.append(quota)
    return quotas


def _labels(team: Team | None = None) -> dict[str, str]:
    labels = dict(MANAGED_BY)
    if team is not None:
        labels["trainstack.io/team"] = team.name
    return labels
