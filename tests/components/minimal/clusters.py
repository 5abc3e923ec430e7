"""One cluster of each kind, as small as its model allows, for the components given one."""

from __future__ import annotations

from trainstack.config.clusters.alicloud import AlicloudCluster
from trainstack.config.clusters.existing import ExistingCluster

ACK = AlicloudCluster.model_validate(
    {
        "provider": "alicloud",
        "clusterId": "c0123456789",
        "region": "cn-beijing",
        "vpcId": "vpc-1",
        "vswitchIds": ["vsw-1", "vsw-2"],
    }
)
EXISTING = ExistingCluster.model_validate({"provider": "existing"})
