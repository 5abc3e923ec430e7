"""Messages about a pool or cluster key that a cluster template sets name the template file,
the line where the value is written and the key as written there (issue 38, item 1); the
message itself keeps no line (a plan compares messages across revisions), the printed one
does."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.experiment_helpers import Deployer, job, load, stack_config
from tests.stack_helpers import REPO, example_config
from trainstack.config.data_sources import resolve_datasets
from trainstack.core.errors import ConfigError, PlanCheckError
from trainstack.core.yaml.io import dump_yaml
from trainstack.core.yaml.positions import at
from trainstack.plan.summary_cluster import pool_lines

TEMPLATE = "stacks/templates/workload-1-ack.yaml"
_TEXT = (REPO / TEMPLATE).read_text().splitlines()


def _line(text: str, occurrence: int = 0) -> int:
    """The 1-based line of the ``occurrence``-th line of the template holding ``text``."""
    return [i + 1 for i, line in enumerate(_TEXT) if text in line][occurrence]


GPU_POOL = _line("- name: gpu-v100")
CPU_POOL = _line("- name: cpu")


def _config(**sections: Any) -> dict[str, Any]:
    """The test stack naming the repository's cluster template, as aiacc does."""
    config = stack_config(**sections)
    del config["trainstack:cluster"], config["trainstack:nodePools"]
    config["trainstack:clusterTemplate"] = "templates/workload-1-ack.yaml"
    return config


def _located(deploy: Deployer, *experiments: dict[str, Any], **sections: Any) -> str:
    """Every error the plan prints, one per line, each with its lines."""
    with pytest.raises(PlanCheckError) as caught:
        deploy(*experiments, config=_config(**sections))
    # The stored message names the template and key without a line: a moved line is no
    # new message.
    stored = "\n".join(caught.value.failures)
    assert f"{TEMPLATE}: nodePools[" in stored and not re.search(rf"{TEMPLATE}:\d", stored)
    return "\n".join(caught.value.lines(at))


def test_gpus_per_pod_beyond_a_node(deploy: Deployer) -> None:
    printed = _located(deploy, job(worker={"replicas": 1, "gpus": 8}))
    assert f"({TEMPLATE}:{_line('gpusPerNode: 4')}: nodePools[0].gpusPerNode)" in printed
    assert "Pulumi.test.yaml: trainstack:nodePools" not in printed


def test_gpus_beyond_the_pool_name_the_pool_and_its_size(deploy: Deployer) -> None:
    printed = _located(deploy, job(worker={"replicas": 5, "gpus": 4}))
    assert f"4 nodes x 4; {TEMPLATE}:{GPU_POOL}: nodePools[0])" in printed
    assert f"raise {TEMPLATE}:{_line('desiredSize: 4')}: nodePools[0].desiredSize" in printed


@pytest.mark.parametrize(
    ("resource", "amount", "key"),
    [("cpu", "48", "cpuPerNode"), ("memory", "368Gi", "memoryPerNode")],
)
def test_a_request_beyond_a_nodes_allocatable(
    deploy: Deployer, resource: str, amount: str, key: str
) -> None:
    worker = {"replicas": 1, "gpus": 4, "resources": {"requests": {resource: amount}}}
    printed = _located(deploy, job(worker=worker))
    assert f"{TEMPLATE}:{_line(f'{key}:')}: nodePools[0].{key})" in printed


def test_required_spread_beyond_the_pools_nodes(deploy: Deployer) -> None:
    spread = job(worker={"replicas": 5, "gpus": 1}, scheduling={"workerSpread": "required"})
    printed = _located(deploy, spread)
    assert f"({TEMPLATE}:{GPU_POOL}: nodePools[0])" in printed
    assert f"raise {TEMPLATE}:{_line('desiredSize: 4')}: nodePools[0].desiredSize" in printed


def test_team_quotas_beyond_the_pools_name_the_pools_size(deploy: Deployer) -> None:
    teams = example_config("aiacc")["trainstack:teams"]
    teams[1]["quota"]["gpu"] = 12  # 10 + 12 > the template's 16 V100
    printed = _located(deploy, job(), teams=teams)
    assert f"add nodes ({TEMPLATE}:{_line('desiredSize: 4')}: nodePools[0].desiredSize)" in printed


def test_the_assumed_eviction_threshold_names_the_pool_in_the_template() -> None:
    stack = load(_config())
    gpu, cpu = (
        line for line in pool_lines(stack.config, stack.source, stack.files) if "assumed" in line
    )
    # Not written: named at its pool, where it is to be added.
    assert gpu.endswith(f"; set {TEMPLATE}:{GPU_POOL}: nodePools[0].evictionThreshold")
    assert cpu.endswith(f"; set {TEMPLATE}:{CPU_POOL}: nodePools[1].evictionThreshold")


def test_a_vpc_other_than_the_data_stacks_names_the_templates_key(tmp_path: Path) -> None:
    data = example_config("imagenet")
    data["trainstack:dataStore"]["vpcId"] = "vpc-elsewhere"
    (tmp_path / "Pulumi.imagenet.yaml").write_text(dump_yaml({"config": data}))
    with pytest.raises(ConfigError) as caught:
        resolve_datasets(load(_config()), tmp_path)
    (first, *_) = caught.value.lines(at)
    assert first.startswith(
        f"invalid stack configuration in {TEMPLATE}:{_line('vpcId:')}: cluster.vpcId: found "
    )
