"""Acceleration: the AIACC component, only on stacks that enable it."""

from __future__ import annotations

import json
from dataclasses import dataclass

import pulumi
import pulumi_alicloud as alicloud
import pulumi_kubernetes as k8s

from components.training_operators import helm_release
from trainstack.config.acceleration import Acceleration as AccelerationConfig
from trainstack.config.acceleration import AckAddon
from trainstack.config.cluster import AlicloudCluster, Cluster


@dataclass(frozen=True)
class AccelerationArgs:
    """The acceleration settings, the cluster, and its Kubernetes provider."""

    acceleration: AccelerationConfig
    cluster: Cluster
    kubernetes: k8s.Provider


class Acceleration(pulumi.ComponentResource):
    """Installs the acceleration layer: an ACK add-on on ACK, or a Helm chart elsewhere."""

    component_name: pulumi.Output[str]

    def __init__(
        self, name: str, args: AccelerationArgs, opts: pulumi.ResourceOptions | None = None
    ) -> None:
        super().__init__("trainstack:acceleration:Acceleration", name, None, opts)
        component = args.acceleration.component
        if component is None:
            raise ValueError("Acceleration needs a component; the config model requires one")
        if isinstance(component, AckAddon):
            assert isinstance(args.cluster, AlicloudCluster)  # the stack model refuses it
            alicloud.cs.KubernetesAddon(
                f"{name}-addon",
                cluster_id=args.cluster.cluster_id,
                name=component.name,
                version=component.version,
                config=json.dumps(component.config, sort_keys=True) if component.config else None,
                opts=pulumi.ResourceOptions(parent=self),
            )
            installed = component.name
        else:
            helm_release(
                f"{name}-release",
                chart=component.chart,
                namespace=component.namespace,
                values=component.values,
                release_name=component.chart.name,
                opts=pulumi.ResourceOptions(parent=self, provider=args.kubernetes),
            )
            installed = component.chart.name
        self.component_name = pulumi.Output.from_input(installed)
        self.register_outputs({"component_name": self.component_name})
