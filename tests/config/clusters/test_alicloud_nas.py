"""NAS file systems a stack creates: the provider's documented rules, with their keys."""

from __future__ import annotations

from typing import Any

import pytest

from tests.config.conftest import Loader
from tests.stack_helpers import example_config
from trainstack.core.errors import ConfigError

CREATE = "trainstack:datasets[0].source.create"
# The provider's documented rule for a NAS description (no spaces, no `.`).
WORDS = (
    "2 to 128 letters (or Chinese characters), digits, `:`, `_` and `-`, a letter first "
    "(no spaces, no `.`: the provider's documented rule)"
)


def _create(**spec: Any) -> dict[str, Any]:
    config = example_config("aiacc")
    config["trainstack:datasets"][0]["source"] = {
        "type": "alicloud-nas",
        "create": {"zoneId": "cn-beijing-h", **spec},
    }
    return config


def test_a_created_file_system_loads_with_secure_defaults(load: Loader) -> None:
    source = load(_create()).config.datasets[0].source
    create = source.create  # type: ignore[union-attr]
    assert (create.file_system_type, create.storage_type, create.protocol_type) == (
        "standard",
        "Performance",
        "NFS",
    )
    assert create.encrypt_type == 1  # a NAS-managed key unless told otherwise


# The rules terraform-provider-alicloud (resource_alicloud_nas_file_system.go) and the
# pulumi-alicloud nas.FileSystem documentation state, each with a failing example.
@pytest.mark.parametrize(
    ("spec", "path", "found", "allowed"),
    [
        ({"zoneId": None}, f"{CREATE}.zoneId", "null", "a string"),
        (
            {"storageType": "advance"},
            f"{CREATE}.storageType",
            '"advance"',
            "one of Performance, Capacity, Premium with fileSystemType standard",
        ),
        (
            {"fileSystemType": "extreme", "storageType": "Performance", "capacityGib": 100},
            f"{CREATE}.storageType",
            '"Performance"',
            "one of standard, advance with fileSystemType extreme",
        ),
        (
            {"fileSystemType": "cpfs"},
            f"{CREATE}.fileSystemType",
            '"cpfs"',
            "one of 'standard' or 'extreme'",
        ),
        ({"protocolType": "SMB"}, f"{CREATE}.protocolType", '"SMB"', "one of 'NFS'"),
        (
            {"fileSystemType": "extreme", "storageType": "standard"},
            f"{CREATE}.capacityGib",
            "null",
            "a size in GiB with fileSystemType extreme",
        ),
        (
            {"capacityGib": 100},
            f"{CREATE}.capacityGib",
            "100",
            "nothing with fileSystemType standard",
        ),
        ({"encryptType": 3}, f"{CREATE}.encryptType", "3", "one of 0, 1 or 2"),
        (
            {"encryptType": 2, "kmsKeyId": "key-1"},
            f"{CREATE}.encryptType",
            "2",
            "0 or 1 with fileSystemType standard (2 is Extreme NAS only)",
        ),
        (
            {
                "fileSystemType": "extreme",
                "storageType": "advance",
                "capacityGib": 100,
                "encryptType": 2,
            },
            f"{CREATE}.kmsKeyId",
            "null",
            "a KMS key ID exactly when encryptType is 2",
        ),
        (
            {"kmsKeyId": "key-1"},
            f"{CREATE}.kmsKeyId",
            '"key-1"',
            "a KMS key ID exactly when encryptType is 2",
        ),
        (
            {"description": "1 imagenet"},
            f"{CREATE}.description",
            '"1 imagenet"',
            WORDS,
        ),
        (
            {"description": "ImageNet TFRecords"},
            f"{CREATE}.description",
            '"ImageNet TFRecords"',
            WORDS,
        ),
        (
            {"description": "imagenet.v2"},
            f"{CREATE}.description",
            '"imagenet.v2"',
            WORDS,
        ),
        (
            {"description": "https://nas"},
            f"{CREATE}.description",
            '"https://nas"',
            WORDS,
        ),
    ],
)
def test_provider_rules_of_a_nas_file_system(
    load: Loader, spec: dict[str, Any], path: str, found: str, allowed: str
) -> None:
    with pytest.raises(ConfigError, match="Pulumi.test.yaml") as caught:
        load(_create(**spec))
    assert [(p.path, p.found, p.allowed) for p in caught.value.problems] == [(path, found, allowed)]
