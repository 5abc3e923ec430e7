"""AckCluster: an ACK managed cluster the stack creates (``trainstack:cluster.create``)."""

from __future__ import annotations

import json
from dataclasses import dataclass

import pulumi
import pulumi_alicloud as alicloud

from trainstack.config.clusters.ack_create import AckCreate
from trainstack.config.clusters.alicloud import AlicloudCluster


@dataclass(frozen=True)
class AckClusterArgs:
    """The cluster's settings and the stack's name (the default cluster name)."""

    cluster: AlicloudCluster
    stack: str


class AckCluster(pulumi.ComponentResource):
    """An ``alicloud.cs.ManagedKubernetes`` in the stack's vSwitches.

    The version, edition, network plug-in (its add-on first) and CIDR blocks, the
    add-ons installed at creation, deletion protection: ACK's (``deletion_protection``)
    and Pulumi's (``protect``), both on unless ``create.deletionProtection`` is false,
    so that neither a console click nor a ``pulumi up`` that would replace the cluster
    (a changed CIDR block, see ``alicloud_rules.CLUSTER_REPLACED_BY``) removes it.
    ``skip_set_certificate_authority``: the cluster's client key is not read into the
    state (the provider does not mark it sensitive); the kubeconfig is fetched instead
    (``components/clusters/alicloud.py``).
    """

    cluster_id: pulumi.Output[str]

    def __init__(
        self, name: str, args: AckClusterArgs, opts: pulumi.ResourceOptions | None = None
    ) -> None:
        super().__init__("trainstack:infra:AckCluster", name, None, opts)
        create = args.cluster.create
        assert create is not None  # the registry hands over created clusters only
        cluster = alicloud.cs.ManagedKubernetes(
            f"{name}-cluster",
            name=create.name or f"trainstack-{args.stack}",
            version=create.version,
            cluster_spec=create.cluster_spec,
            vswitch_ids=list(args.cluster.vswitch_ids),
            pod_vswitch_ids=list(create.network.pod_vswitch_ids) or None,
            pod_cidr=create.network.pod_cidr,
            service_cidr=create.network.service_cidr,
            node_cidr_mask=create.network.node_cidr_mask,
            proxy_mode=create.network.proxy_mode,
            new_nat_gateway=create.network.new_nat_gateway,
            slb_internet_enabled=create.network.api_server_internet,
            deletion_protection=create.deletion_protection,
            skip_set_certificate_authority=True,
            addons=_addons(create),
            opts=pulumi.ResourceOptions(parent=self, protect=create.deletion_protection),
        )
        self.cluster_id = cluster.id
        self.register_outputs({"cluster_id": self.cluster_id})


def _addons(create: AckCreate) -> list[alicloud.cs.ManagedKubernetesAddonArgs]:
    """The network plug-in's add-on, then the declared ones in their order."""
    addons = [alicloud.cs.ManagedKubernetesAddonArgs(name=create.network.plugin)]
    for addon in create.addons:
        addons.append(
            alicloud.cs.ManagedKubernetesAddonArgs(
                name=addon.name,
                version=addon.version,
                config=json.dumps(addon.config, sort_keys=True) if addon.config else None,
                disabled=addon.disabled or None,
            )
        )
    return addons
