"""Any conformant cluster (on-premises, other clouds) reachable through a kubeconfig.

No cloud's services: nodes exist already (a pool labels and taints the nodes it lists),
and the kubeconfig is the stack's secret or the deployer's own. The program's side is
``components/clusters/existing.py``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Literal

from pydantic import Field

from trainstack.config.clusters.spec import ClusterKind, ClusterModel
from trainstack.config.prices import PriceList
from trainstack.core.base_model import constraint

if TYPE_CHECKING:
    from trainstack.config.node_pool import NodePool


def check_pool(key: str, pool: NodePool) -> None:
    """The nodes exist already: nothing about creating them applies."""
    for field, attribute in (
        ("instanceTypes", "instance_types"),
        ("systemDisk", "system_disk"),
        ("login", "login"),
        ("autoscaling", "autoscaling"),
        ("maxPods", "max_pods"),
        ("evictionThreshold", "eviction_threshold"),
    ):
        if attribute in pool.model_fields_set:
            raise constraint(
                f"{key}.{field}",
                getattr(pool, attribute) if attribute != "system_disk" else "a disk",
                "nothing on an existing cluster (nodes are not created, nothing is derived "
                f"from them): list them in {key}.nodes to label and taint them, and declare "
                f"what pods can request on them in {key}.allocatable",
            )


KIND = ClusterKind(
    provider="existing",
    label="an existing cluster",
    capabilities=frozenset(),
    check_pool=check_pool,
    # Nodes bought or rented outside trainstack (on premises, another cloud) have no price
    # list: a pool counts only at the price per node-hour the stack gives it.
    prices=PriceList(
        currency=None,
        without="an existing cluster's nodes (on premises, or rented elsewhere) have no price "
        "list: give the pool's price per node-hour in trainstack:cost.prices (pool: NAME), "
        "as your organisation counts it",
    ),
)


class ExistingCluster(ClusterModel):
    """Any conformant cluster (on-premises, other clouds) reachable through a kubeconfig."""

    provider: Literal["existing"] = Field(
        description="`existing`: any cluster reachable through a kubeconfig; nodes are not "
        "created, only labelled and tainted when `nodePool.nodes` lists them."
    )
    context: str | None = Field(
        default=None,
        description="kubeconfig context to use. With the `trainstack:kubeconfig` secret it "
        "selects a context in it; without it, a context of the deployer's own kubeconfig "
        "(`$KUBECONFIG` or `~/.kube/config`). Unset: the current context.",
    )

    kind: ClassVar[ClusterKind] = KIND

    @property
    def kubeconfig_context(self) -> str | None:
        """The context this stack names (``None``: the kubeconfig's current one)."""
        return self.context
