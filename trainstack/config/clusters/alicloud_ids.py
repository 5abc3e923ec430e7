"""The Alibaba Cloud IDs a stack names, shared by the ACK cluster (``alicloud.py``) and
its storage (``alicloud_storage.py``): a region, a VPC, a vSwitch.

IDs a user must look up may be left as placeholders (``<...>``) until deploying.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import StringConstraints

from trainstack.core.names import PLACEHOLDER_PATTERN

RegionId = Annotated[str, StringConstraints(pattern=r"^[a-z]{2}-[a-z0-9-]+$")]
VpcId = Annotated[str, StringConstraints(pattern=rf"^(vpc-[a-z0-9]+|{PLACEHOLDER_PATTERN})$")]
VSwitchId = Annotated[str, StringConstraints(pattern=rf"^(vsw-[a-z0-9]+|{PLACEHOLDER_PATTERN})$")]
