"""The whole ``trainstack:`` configuration of one stack, with the rules that span sections."""

from __future__ import annotations

from pydantic import Field, model_validator

from trainstack.base_model import StrictModel, constraint
from trainstack.config.acceleration import Acceleration, AckAddon
from trainstack.config.cluster import AlicloudCluster, Cluster
from trainstack.config.datasets import AlicloudNasSource, Dataset
from trainstack.config.experiments import StackExperiments
from trainstack.config.node_pool import NodePool
from trainstack.config.operators import Operators


class StackConfig(StrictModel):
    """Everything a stack declares under the `trainstack:` config namespace."""

    cluster: Cluster = Field(description="The Kubernetes cluster the stack deploys to.")
    node_pool: NodePool = Field(description="The GPU node pool training runs on.")
    datasets: list[Dataset] = Field(
        default_factory=list, description="Shared datasets, each exposed as a PV + PVC."
    )
    operators: Operators = Field(
        default_factory=lambda: Operators.model_validate({}),
        description="Training operators installed as Helm releases.",
    )
    acceleration: Acceleration = Field(
        default_factory=lambda: Acceleration.model_validate({}),
        description="The acceleration layer (AIACC); off unless enabled.",
    )
    experiments: StackExperiments = Field(
        default_factory=lambda: StackExperiments.model_validate({}),
        description="The experiments this stack runs and its overrides of them.",
    )

    @model_validator(mode="after")
    def _provider_rules(self) -> StackConfig:
        on_ack = isinstance(self.cluster, AlicloudCluster)
        if on_ack and not self.node_pool.instance_types:
            raise constraint(
                "nodePool.instanceTypes", [], "at least one ECS GPU instance type on alicloud"
            )
        if not on_ack and self.node_pool.instance_types:
            raise constraint(
                "nodePool.instanceTypes",
                self.node_pool.instance_types,
                "nothing on an existing cluster (nodes are not created); list them in "
                "nodePool.nodes to label and taint them",
            )
        if on_ack and self.node_pool.nodes:
            raise constraint(
                "nodePool.nodes",
                self.node_pool.nodes,
                "nothing on alicloud (ACK creates and names the nodes)",
            )
        component = self.acceleration.component
        if isinstance(component, AckAddon) and not on_ack:
            raise constraint(
                "acceleration.component.kind", "ack-addon", "`helm` on an existing cluster"
            )
        for index, dataset in enumerate(self.datasets):
            source = dataset.source
            if isinstance(source, AlicloudNasSource) and source.create and not on_ack:
                raise constraint(
                    f"datasets[{index}].source.create",
                    "a new NAS file system",
                    "`mountTargetDomain` of an existing NAS, or an `nfs` source, on an "
                    "existing cluster",
                )
        return self

    @model_validator(mode="after")
    def _unique_dataset_names(self) -> StackConfig:
        seen: set[str] = set()
        for index, dataset in enumerate(self.datasets):
            if dataset.name in seen:
                raise constraint(
                    f"datasets[{index}].name",
                    dataset.name,
                    "a name no other dataset uses (PV names are cluster-wide)",
                )
            seen.add(dataset.name)
        return self

    def dataset(self, claim_name: str, namespace: str) -> Dataset | None:
        """The dataset whose PVC is ``claim_name`` in ``namespace``, if any."""
        for dataset in self.datasets:
            if dataset.name == claim_name and dataset.namespace == namespace:
                return dataset
        return None
