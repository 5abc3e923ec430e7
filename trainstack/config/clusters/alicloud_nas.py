"""An Alibaba Cloud NAS file system as a stack creates it, with the provider's rules.

Used twice (``alicloud_storage.py``): by a data stack (``trainstack:dataStore``), the
recommended owner of data that several clusters read, and by a cluster stack's own
dataset (``datasets[].source.create``). The rules are the provider's (see
:mod:`trainstack.config.clusters.alicloud_rules`).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, StringConstraints, model_validator

from trainstack.config.clusters import alicloud_rules as rules
from trainstack.core.base_model import StrictModel, constraint, pattern
from trainstack.core.names import PLACEHOLDER_PATTERN

ZoneId = Annotated[
    str, StringConstraints(pattern=rf"^([a-z]{{2}}-[a-z0-9-]+-[a-z0-9]+|{PLACEHOLDER_PATTERN})$")
]
NasDescription = Annotated[
    str,
    StringConstraints(pattern=pattern(rules.DESCRIPTION_PATTERN, rules.DESCRIPTION_WORDS)),
]


class NasSpec(StrictModel):
    """What kind of NAS file system, where, and how it is encrypted."""

    file_system_type: Literal["standard", "extreme"] = Field(
        default="standard",
        description="`standard` (General Purpose NAS) or `extreme` (Extreme NAS); both mount "
        "over NFS with the ACK NAS CSI plug-in.",
    )
    storage_type: str = Field(
        default="Performance",
        description="Storage class: `Performance`, `Capacity` or `Premium` for standard; "
        "`standard` or `advance` for extreme. Changing it replaces the file system.",
    )
    protocol_type: Literal["NFS"] = Field(
        default="NFS",
        description="`NFS`: the only protocol the NAS CSI plug-in mounts (SMB is not).",
    )
    zone_id: ZoneId = Field(
        description="Zone of the file system, pinned: the zone of the nodes' vSwitch (unset, "
        "NAS would pick one at random, and cross-zone reads are slower). Changing it "
        "replaces the file system.",
        examples=["cn-beijing-h"],
    )
    capacity_gib: int | None = Field(
        default=None,
        ge=100,
        description="Extreme NAS only, required there: capacity in GiB (see the NAS "
        "purchase page for the sizes offered).",
    )
    encrypt_type: Literal[0, 1, 2] = Field(
        default=1,
        description="Encryption at rest: 1 (default) a NAS-managed key; 2 your own KMS key "
        "(`kmsKeyId`, Extreme NAS only); 0 none.",
    )
    kms_key_id: str | None = Field(
        default=None, min_length=1, description="The KMS key of encryptType 2."
    )
    description: NasDescription | None = Field(
        default=None,
        description="Shown in the NAS console: 2-128 letters, digits, `:`, `_` and `-`, a "
        "letter first (no spaces or `.`); defaults to the dataset's name.",
    )

    @model_validator(mode="after")
    def _provider_rules(self) -> NasSpec:
        allowed = rules.STORAGE_TYPES[self.file_system_type]
        if self.storage_type not in allowed:
            raise constraint(
                "storageType",
                self.storage_type,
                f"one of {', '.join(allowed)} with fileSystemType {self.file_system_type}",
            )
        extreme = self.file_system_type == "extreme"
        if extreme and self.capacity_gib is None:
            raise constraint("capacityGib", None, "a size in GiB with fileSystemType extreme")
        if not extreme and self.capacity_gib is not None:
            raise constraint(
                "capacityGib", self.capacity_gib, "nothing with fileSystemType standard"
            )
        if self.encrypt_type == 2 and not extreme:
            raise constraint(
                "encryptType", 2, "0 or 1 with fileSystemType standard (2 is Extreme NAS only)"
            )
        if (self.encrypt_type == 2) != (self.kms_key_id is not None):
            raise constraint(
                "kmsKeyId", self.kms_key_id, "a KMS key ID exactly when encryptType is 2"
            )
        return self
