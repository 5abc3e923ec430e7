"""The program's side of an ACK cluster: node pools, add-ons, NAS file systems (a
dataset's, a data stack's) and the kubeconfig, all through the Alibaba Cloud API.

Each function takes the ACK model; ``registry.py`` hands a stack's cluster here only when
its ``provider`` is ``alicloud``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import pulumi
import pulumi_alicloud as alicloud
import pulumi_kubernetes as k8s

from components.clusters.ack_cluster import AckCluster, AckClusterArgs
from components.clusters.ack_node_pool import AckNodePool, AckNodePoolArgs
from components.clusters.nas_file_system import NasFileSystem, NasFileSystemArgs, nas_resources
from trainstack.config.clusters.alicloud import AlicloudCluster
from trainstack.config.clusters.alicloud_storage import AlicloudDataStore, AlicloudNasSource
from trainstack.config.datasets import Dataset
from trainstack.config.node_pool import NodePool


def node_pool(
    pool: NodePool, cluster: AlicloudCluster, _: k8s.Provider, former: bool
) -> pulumi.Output[str]:
    """An :class:`AckNodePool`; its ID in ACK."""
    return AckNodePool(pool.name, AckNodePoolArgs(pool, cluster, former)).node_pool_id


def provision(cluster: AlicloudCluster) -> AlicloudCluster:
    """The cluster the stack creates (an :class:`AckCluster`), as the model the other
    functions take; an existing cluster as it is."""
    if cluster.create is None:
        return cluster
    made = AckCluster("cluster", AckClusterArgs(cluster, pulumi.get_stack()))
    return cluster.targeting(made.cluster_id)


def kubeconfig(cluster: AlicloudCluster) -> pulumi.Output[str]:
    """The cluster's kubeconfig, read from ACK (`alicloud.cs.getClusterCredential`); of a
    created cluster, valid ``create.kubeconfigMinutes`` (fetched anew at every run)."""
    minutes = None if cluster.create is None else cluster.create.kubeconfig_minutes
    credential = alicloud.cs.get_cluster_credential_output(
        cluster_id=cluster.id_input, temporary_duration_minutes=minutes
    )
    return credential.kube_config


def ack_addon(
    resource_name: str,
    cluster: AlicloudCluster,
    *,
    addon: str,
    version: str,
    config: Mapping[str, Any],
    opts: pulumi.ResourceOptions,
) -> alicloud.cs.KubernetesAddon:
    """An ACK add-on pinned to ``version`` (ACK's install API takes a version)."""
    return alicloud.cs.KubernetesAddon(
        resource_name,
        cluster_id=cluster.id_input,
        name=addon,
        version=version,
        config=json.dumps(dict(config), sort_keys=True) if config else None,
        opts=opts,
    )


def file_system(
    name: str, dataset: Dataset, cluster: AlicloudCluster, opts: pulumi.ResourceOptions
) -> pulumi.Output[str]:
    """A NAS file system for ``dataset`` (``source.create``) with its mount target in the
    cluster's VPC (on the cluster's first vSwitch unless the spec names one); the mount
    target's domain."""
    source = dataset.source
    assert isinstance(source, AlicloudNasSource) and source.create is not None
    spec = source.create
    args = NasFileSystemArgs(
        spec=spec,
        vpc_id=cluster.vpc_id,
        vswitch_id=spec.vswitch_id or cluster.vswitch_ids[0],
        description=dataset.name,
        protected=dataset.protection.enabled,
    )
    _, mount_target = nas_resources(name, args, opts)
    return mount_target.mount_target_domain


def data_store(store: AlicloudDataStore) -> None:
    """A :class:`NasFileSystem` per file system of a data stack, and its facts as
    ``<name>.<fact>`` outputs (``mountTargetDomain``: what clusters mount)."""
    for spec in store.file_systems:
        file_system = NasFileSystem(
            spec.name,
            NasFileSystemArgs(
                spec=spec,
                vpc_id=store.vpc_id,
                vswitch_id=spec.vswitch_id,
                description=spec.name,
                protected=spec.protection.enabled,
            ),
        )
        facts = {
            "fileSystemId": file_system.file_system_id,
            "mountTargetDomain": file_system.mount_target_domain,
            "path": spec.path,
            "zoneId": spec.zone_id,
            "storageType": spec.storage_type,
            "protocolType": spec.protocol_type,
            "fileSystemType": spec.file_system_type,
            "vpcId": store.vpc_id,
            "vswitchId": spec.vswitch_id,
            "region": store.region,
        }
        for fact, value in facts.items():
            pulumi.export(f"{spec.name}.{fact}", value)
