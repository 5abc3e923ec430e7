"""ACK's storage as its kind declares it: a NAS source's facts, server and needs, a data
stack's file systems and network, and the CSI add-ons a created cluster must have."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic_core import PydanticCustomError

from tests.experiment_helpers import load
from tests.stack_helpers import example_config
from trainstack.config.clusters.alicloud import AlicloudCluster
from trainstack.config.clusters.alicloud_storage import (
    NAS_CSI_DRIVER,
    AlicloudDataStore,
    AlicloudNasSource,
    check_nas_addons,
)
from trainstack.config.loader import LoadedDataStack
from trainstack.config.storage import IN_TREE_NFS
from trainstack.core.errors import ConfigError

DOMAIN = "0a1b-abc12.cn-beijing.nas.aliyuncs.com"
KEY = "trainstack:datasets[0].source"


def _source(**keys: Any) -> AlicloudNasSource:
    return AlicloudNasSource.model_validate({"type": "alicloud-nas", **keys})


def test_an_existing_mount_target_is_the_server_and_the_file_system() -> None:
    source = _source(mountTargetDomain=DOMAIN)
    assert (source.given_server(), source.needs()) == (DOMAIN, None)
    facts = {name: (f.value, f.key) for name, f in source.facts("aiacc", KEY).items()}
    assert facts == {"fileSystem": (f"NAS mount target {DOMAIN}", f"{KEY}.mountTargetDomain")}
    assert source.mount is not None and source.mount.csi_driver == NAS_CSI_DRIVER


def test_a_created_file_system_is_the_stacks_own_and_needs_a_kind_that_creates_nas() -> None:
    source = _source(create={"zoneId": "cn-beijing-h"})
    assert source.given_server() is None  # the program's: the new mount target's domain
    need = source.needs()
    assert need is not None and (need.capability, need.key) == ("nas", "create")
    facts = {name: (f.value, f.key) for name, f in source.facts("aiacc", KEY).items()}
    assert facts == {
        "fileSystem": ("a NAS file system created by stack aiacc", f"{KEY}.create"),
        "zoneId": ("cn-beijing-h", f"{KEY}.create.zoneId"),
        "storageType": ("Performance", f"{KEY}.create.storageType"),
        "protocolType": ("NFS", f"{KEY}.create.protocolType"),
    }


def test_a_data_stacks_file_system_reports_what_clusters_must_agree_on() -> None:
    stack = load(example_config("imagenet"))
    assert isinstance(stack, LoadedDataStack)
    store = stack.config.data_store
    assert isinstance(store, AlicloudDataStore)
    (index, file_system) = store.file_system("imagenet-data") or (None, None)
    assert index == 0 and file_system is not None
    facts = file_system.facts("fileSystems[0]", " in f.yaml")
    assert {name: fact.key for name, fact in facts.items()} == {
        "zoneId": "fileSystems[0].zoneId in f.yaml",
        "storageType": "fileSystems[0].storageType in f.yaml",
        "protocolType": "fileSystems[0].protocolType in f.yaml",
    }
    assert file_system.summary().startswith("standard NAS, Performance, NFS, zone ")
    assert store.network() == {"vpcId": store.vpc_id, "region": store.region}
    assert (store.mount.csi_driver, store.server_output) == (NAS_CSI_DRIVER, "mountTargetDomain")


def test_a_created_cluster_needs_the_nas_csi_add_ons_for_a_nas_mount_only() -> None:
    cluster = load(example_config("aiacc")).config.cluster
    assert isinstance(cluster, AlicloudCluster) and cluster.create is not None
    bare = cluster.create.model_copy(update={"addons": []})
    source = _source(mountTargetDomain=DOMAIN)
    assert source.mount is not None
    check_nas_addons(bare, IN_TREE_NFS, "datasets[0]")  # an NFS export needs none
    check_nas_addons(None, source.mount, "datasets[0]")  # an existing cluster has its own
    check_nas_addons(cluster.create, source.mount, "datasets[0]")  # the example has them
    with pytest.raises(PydanticCustomError, match="datasets\\[0\\] mounts NAS through them"):
        check_nas_addons(bare, source.mount, "datasets[0]")


def test_a_stack_whose_created_cluster_lacks_them_is_refused_at_its_add_ons() -> None:
    config = example_config("aiacc")
    config["trainstack:cluster"]["create"]["addons"] = []
    with pytest.raises(ConfigError) as caught:
        load(config)
    [problem] = caught.value.problems
    assert problem.path == "trainstack:cluster.create.addons"
    assert problem.allowed.endswith("datasets[0] mounts NAS through them")
