"""What datasets resolve to, and the checks on the data stacks they read."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.experiment_helpers import load
from tests.stack_helpers import REPO, example_config
from trainstack.config.data_sources import resolve_datasets
from trainstack.config.populate import populate_digest
from trainstack.core.errors import ConfigError
from trainstack.core.yaml.io import dump_yaml

STACKS = REPO / "stacks"
KEY = "trainstack:dataStore.fileSystems[0]"


def test_aiacc_and_baseline_resolve_to_the_same_data() -> None:
    aiacc, aiacc_results = resolve_datasets(load(example_config("aiacc")), STACKS)
    baseline, baseline_results = resolve_datasets(load(example_config("baseline")), STACKS)
    assert aiacc.facts == baseline.facts
    assert aiacc_results.facts == baseline_results.facts
    assert aiacc_results.facts["path"].value == "/training-results"
    facts = {name: fact.value for name, fact in aiacc.facts.items()}
    assert facts == {
        "fileSystem": "data stack imagenet, file system imagenet-data",
        "path": "/",
        "zoneId": "<zone of the GPU nodes' vSwitch, e.g. cn-beijing-h>",
        "storageType": "Performance",
        "protocolType": "NFS",
        "mountOptions": ["nolock", "tcp", "noresvport", "vers=3"],
        # the data stack fills it: both clusters read what one populate spec wrote
        "populate": f"sha256:{populate_digest(aiacc.populate)}" if aiacc.populate else None,
    }
    assert aiacc.populate is not None and aiacc.populate == baseline.populate
    assert aiacc.facts["zoneId"].key == f"{KEY}.zoneId in stacks/Pulumi.imagenet.yaml"


def _data_stack(directory: Path, **store: Any) -> Path:
    config = example_config("imagenet")
    config["trainstack:dataStore"].update(store)
    (directory / "Pulumi.imagenet.yaml").write_text(dump_yaml({"config": config}))
    return directory


def test_a_cluster_outside_the_data_stacks_vpc_is_refused(tmp_path: Path) -> None:
    directory = _data_stack(tmp_path, vpcId="vpc-elsewhere")
    with pytest.raises(ConfigError) as caught:
        resolve_datasets(load(example_config("aiacc")), directory)
    # One problem per dataset on that data stack (ImageNet's, the results').
    for index, problem in enumerate(caught.value.problems):
        assert (problem.path, problem.found) == (
            "trainstack:cluster.vpcId",
            "'<VPC ID of both clusters (the ImageNet NAS is in it)>'",
        )
        assert problem.allowed == (
            f"'vpc-elsewhere', the vpcId of data stack imagenet ({directory.name}/"
            "Pulumi.imagenet.yaml: trainstack:dataStore.vpcId) that "
            f"trainstack:datasets[{index}] mounts: a NAS mount target serves its own VPC only"
        )
    assert len(caught.value.problems) == 2


def test_an_unknown_file_system_of_the_data_stack(tmp_path: Path) -> None:
    config = example_config("aiacc")
    config["trainstack:datasets"][0]["source"]["dataset"] = "coco"
    with pytest.raises(ConfigError) as caught:
        resolve_datasets(load(config), STACKS)
    (problem,) = caught.value.problems
    assert (problem.path, problem.found) == ("trainstack:datasets[0].source.dataset", "'coco'")
    assert problem.allowed == (
        "a file system of data stack imagenet (stacks/Pulumi.imagenet.yaml): imagenet-data"
    )


def test_a_cluster_stack_is_not_a_data_stack() -> None:
    config = example_config("aiacc")
    config["trainstack:datasets"][0]["source"]["stack"] = "baseline"
    with pytest.raises(ConfigError) as caught:
        resolve_datasets(load(config), STACKS)
    (problem,) = caught.value.problems
    assert problem.allowed == (
        "a data stack (one with trainstack:dataStore); stacks/Pulumi.baseline.yaml is a "
        "cluster stack"
    )


def test_an_existing_cluster_cannot_mount_a_data_stack() -> None:
    config = example_config("onprem")
    config["trainstack:datasets"][0]["source"] = {
        "type": "stack-reference",
        "stack": "imagenet",
        "dataset": "imagenet-data",
    }
    with pytest.raises(ConfigError) as caught:
        resolve_datasets(load(config), STACKS)
    (problem,) = caught.value.problems
    assert problem.path == "trainstack:datasets[0].source.type"


def test_a_stack_that_creates_its_own_nas_reads_its_own_copy() -> None:
    config = example_config("aiacc")
    config["trainstack:datasets"][0]["source"] = {
        "type": "alicloud-nas",
        "create": {"zoneId": "cn-beijing-h"},
    }
    resolved, _ = resolve_datasets(load(config), STACKS)
    assert resolved.facts["fileSystem"].value == "a NAS file system created by stack test"
    assert resolved.facts["fileSystem"].key == "trainstack:datasets[0].source.create"
