"""Acceleration: the cluster component of the acceleration layer, when the stack names one."""

from __future__ import annotations

from dataclasses import dataclass

import pulumi
import pulumi_kubernetes as k8s

from components.clusters.registry import install_addon
from components.installers import helm_release
from trainstack.config.acceleration import AccelerationComponent, AckAddon
from trainstack.config.clusters.registry import Cluster


@dataclass(frozen=True)
class AccelerationArgs:
    """The component to install, the cluster, and its Kubernetes provider."""

    component: AccelerationComponent
    cluster: Cluster
    kubernetes: k8s.Provider


class Acceleration(pulumi.ComponentResource):
    """Installs the named component: an ACK add-on (exact version) or a Helm chart.

    Experiments of the stack depend on this component, so they start only once it is in.
    """

    component_name: pulumi.Output[str]

    def __init__(
        self, name: str, args: AccelerationArgs, opts: pulumi.ResourceOptions | None = None
    ) -> None:
        super().__init__("trainstack:acceleration:Acceleration", name, None, opts)
        component = args.component
        if isinstance(component, AckAddon):
            install_addon(
                f"{name}-addon",
                args.cluster,
                addon=component.name,
                version=component.version,
                config=component.config,
                opts=pulumi.ResourceOptions(parent=self),
            )
            installed = f"{component.name} {component.version}"
        else:
            helm_release(
                f"{name}-release",
                chart=component.chart,
                namespace=component.namespace,
                values=component.values,
                release_name=component.chart.name,
                opts=pulumi.ResourceOptions(parent=self, provider=args.kubernetes),
            )
            installed = f"{component.chart.name} {component.chart.version}"
        self.component_name = pulumi.Output.from_input(installed)
        self.register_outputs({"component_name": self.component_name})
