"""The smallest valid arguments the components are given: one cluster of each kind, as
small as its model allows, and a pool."""

from __future__ import annotations

from typing import Any

from trainstack.config.clusters.alicloud import AlicloudCluster
from trainstack.config.clusters.existing import ExistingCluster
from trainstack.config.node_pool import NodePool

ACK_CLUSTER = AlicloudCluster.model_validate(
    {
        "provider": "alicloud",
        "clusterId": "c0123456789",
        "region": "cn-beijing",
        "vpcId": "vpc-1",
        "vswitchIds": ["vsw-1", "vsw-2"],
    }
)
EXISTING_CLUSTER = ExistingCluster.model_validate({"provider": "existing"})


def pool(**keys: Any) -> NodePool:
    """A GPU pool of two A100 nodes; ``keys`` (the stack file's spelling) added or replaced."""
    base = {"name": "gpu", "gpusPerNode": 8, "gpuModel": "A100", "desiredSize": 2}
    return NodePool.model_validate({**base, **keys})


def ack_pool(**keys: Any) -> NodePool:
    """:func:`pool` with what ACK requires: an ECS instance type and a login."""
    ack = {"instanceTypes": ["ecs.gn7-c12g1.3xlarge"], "login": {"keyName": "ops"}}
    return pool(**{**ack, **keys})
