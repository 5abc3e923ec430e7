"""Node pools: sizes, GPU and CPU pools, taints, autoscaling bounds, node passwords."""

from __future__ import annotations

from typing import Any

import pytest

from tests.config.conftest import Loader
from tests.experiment_helpers import load as load_config
from tests.stack_helpers import GPU_POOL, example_config, with_gpu_pool
from trainstack.core.errors import ConfigError


@pytest.mark.parametrize(
    ("changes", "path", "found", "allowed"),
    [
        ({"desiredSize": -2}, f"{GPU_POOL}.desiredSize", "-2", "a number >= 0"),
        ({"desiredSize": "4 nodes"}, f"{GPU_POOL}.desiredSize", '"4 nodes"', "an integer"),
        ({"desiredSize": 2.5}, f"{GPU_POOL}.desiredSize", "2.5", "an integer"),
        ({"gpusPerNode": -1}, f"{GPU_POOL}.gpusPerNode", "-1", "a number >= 0"),
        ({"gpusPerNode": 17}, f"{GPU_POOL}.gpusPerNode", "17", "a number <= 16"),
        (
            {"gpusPerNode": 0},
            f"{GPU_POOL}.gpuModel",
            '"V100"',
            "nothing on a CPU pool (gpusPerNode: 0)",
        ),
        (
            {"gpuModel": None},
            f"{GPU_POOL}.gpuModel",
            "null",
            "the GPU model of a GPU pool, e.g. V100",
        ),
        (
            {"taints": [{"key": "nvidia.com/gpu", "effect": "NoRun"}]},
            f"{GPU_POOL}.taints[0].effect",
            '"NoRun"',
            "one of 'NoSchedule', 'PreferNoSchedule' or 'NoExecute'",
        ),
        (
            {"memoryPerNode": "368GB"},
            f"{GPU_POOL}.memoryPerNode",
            '"368GB"',
            "a string matching ^[0-9]+(\\.[0-9]+)?(m|k|M|G|T|P|E|Ki|Mi|Gi|Ti|Pi|Ei)?$",
        ),
        (
            {"labels": {"trainstack.io/pool": "not a label value!"}},
            f'{GPU_POOL}.labels["trainstack.io/pool"]',
            '"not a label value!"',
            "a string matching ^([A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?)?$",
        ),
        (
            {"autoscaling": {"enabled": True, "minSize": 0, "maxSize": 2}},
            f"{GPU_POOL}.desiredSize",
            "4",
            "between autoscaling.minSize (0) and autoscaling.maxSize (2)",
        ),
        (
            # a branch after the last that runs Volta (data per GPU model: gpu_models.py)
            {"nvidiaDriver": "590.44.01"},
            f"{GPU_POOL}.nvidiaDriver",
            '"590.44.01"',
            "a driver of branch 580 or older for gpuModel V100 (Volta: NVIDIA's release 580 "
            "series is the last to support Maxwell, Pascal and Volta (Unix graphics feature "
            "deprecation schedule))",
        ),
        (
            {"nvidiaDriver": "550"},
            f"{GPU_POOL}.nvidiaDriver",
            '"550"',
            "a string matching ^[0-9]{3}\\.[0-9]{1,3}(\\.[0-9]{1,3})?$",
        ),
        (
            {"name": "cpu"},
            "trainstack:nodePools[1].name",
            '"cpu"',
            "a name no other pool uses (nodePools[0] has it)",
        ),
    ],
)
def test_invalid_pool(
    load: Loader, changes: dict[str, Any], path: str, found: str, allowed: str
) -> None:
    _refused(load, changes, path, found, allowed)


def _refused(load: Loader, changes: dict[str, Any], path: str, found: str, allowed: str) -> None:
    with pytest.raises(ConfigError, match="Pulumi.test.yaml") as caught:
        load(with_gpu_pool(**changes))
    assert [(p.path, p.found, p.allowed) for p in caught.value.problems] == [(path, found, allowed)]


# The node pool bounds the Alibaba Cloud provider documents for autoscaling
# (terraform-provider-alicloud resource_alicloud_cs_kubernetes_node_pool.go), refused at
# plan time with the stack file and key; the rest of ACK's pool rules are its kind's
# (tests/config/clusters/test_alicloud.py).
@pytest.mark.parametrize(
    ("changes", "path", "found", "allowed"),
    [
        (
            {"autoscaling": {"enabled": True, "minSize": 4, "maxSize": 4}},
            f"{GPU_POOL}.autoscaling.maxSize",
            "4",
            "greater than minSize (4), as ACK requires",
        ),
        (
            {"autoscaling": {"enabled": True, "minSize": 6, "maxSize": 2}},
            f"{GPU_POOL}.autoscaling.maxSize",
            "2",
            "greater than minSize (6), as ACK requires",
        ),
        (
            {"autoscaling": {"enabled": True, "minSize": 1001, "maxSize": 1500}},
            f"{GPU_POOL}.autoscaling.minSize",
            "1001",
            "a number <= 1000",
        ),
        (
            {"autoscaling": {"enabled": True, "minSize": 4, "maxSize": 2001}},
            f"{GPU_POOL}.autoscaling.maxSize",
            "2001",
            "a number <= 2000",
        ),
    ],
)
def test_autoscaling_bounds(
    load: Loader, changes: dict[str, Any], path: str, found: str, allowed: str
) -> None:
    _refused(load, changes, path, found, allowed)


def test_a_small_autoscaling_pool_is_allowed(load: Loader) -> None:
    scaling = {"enabled": True, "minSize": 3, "maxSize": 4}
    pool = load(with_gpu_pool(autoscaling=scaling)).config.node_pools[0]
    assert (pool.max_nodes, pool.gpu_capacity) == (4, 16)


def test_the_old_single_pool_key_is_refused_with_the_fix(load: Loader) -> None:
    config = example_config("aiacc")
    config["trainstack:nodePool"] = config.pop("trainstack:nodePools")[0]
    with pytest.raises(ConfigError) as caught:
        load(config)
    (problem,) = caught.value.problems
    assert problem.path == "trainstack:nodePool"
    assert problem.allowed == (
        "trainstack:nodePools, a list: move the mapping under it as its first item "
        "(`trainstack:nodePools: [{name: ..., ...}]`), add `login: {keyName: ...}` on "
        "alicloud, and a CPU pool (gpusPerNode: 0) for launchers if you have one"
    )


PASSWORD = "trainstack:nodePassword"


def _password_pool() -> dict[str, Any]:
    return with_gpu_pool(login={"passwordSecret": PASSWORD})


def test_a_node_password_comes_from_a_secret(load: Loader) -> None:
    config = _password_pool()
    config[PASSWORD] = {"secure": "v1:ciphertext"}
    assert load(config).config.node_pools[0].login.password_secret == PASSWORD


def test_a_node_password_in_plain_text_is_refused_without_echo(load: Loader) -> None:
    config = _password_pool()
    config[PASSWORD] = "Sup3r-secret"
    with pytest.raises(ConfigError) as caught:
        load(config)
    (problem,) = caught.value.problems
    assert (problem.path, problem.found) == (PASSWORD, "a plain-text value (not shown)")
    assert "Sup3r-secret" not in str(caught.value)


def test_a_node_password_key_that_is_not_set(load: Loader) -> None:
    with pytest.raises(ConfigError) as caught:
        load(_password_pool())
    (problem,) = caught.value.problems
    assert (problem.path, problem.found) == (
        f"{GPU_POOL}.login.passwordSecret",
        '"trainstack:nodePassword"',
    )
    assert problem.allowed == (
        "a config key that is set: `pulumi config set --secret trainstack:nodePassword`"
    )


@pytest.mark.parametrize(
    ("password", "allowed"),
    [
        ("Ab1!", "8 to 30 characters"),
        (
            "alllowercase1",
            "at least three of: upper-case letters, lower-case letters, digits, symbols",
        ),
    ],
)
def test_a_decrypted_node_password_follows_the_providers_rule(password: str, allowed: str) -> None:
    # Under `pulumi up` the engine hands the program the decrypted value (never offline).
    config = _password_pool()
    config[PASSWORD] = password
    from trainstack.config.loader import load_stack_config
    from trainstack.config.pulumi_config import pulumi_config_map

    raw, _ = pulumi_config_map({"config": config}, "stacks/Pulumi.test.yaml")
    with pytest.raises(ConfigError) as caught:
        load_stack_config("test", raw, {PASSWORD}, "stacks/Pulumi.test.yaml")
    (problem,) = caught.value.problems
    assert (problem.path, problem.found, problem.allowed) == (
        PASSWORD,
        "a password (not shown)",
        allowed,
    )
    assert password not in str(caught.value)


def test_gpu_pools_are_tainted_by_default_and_cpu_pools_are_not(load: Loader) -> None:
    config = with_gpu_pool()
    del config["trainstack:nodePools"][0]["taints"]
    gpu, cpu = load(config).config.node_pools
    assert [(t.key, t.value, t.effect) for t in gpu.taints] == [
        ("nvidia.com/gpu", "true", "NoSchedule")
    ]
    assert cpu.taints == [] and not cpu.is_gpu


def test_capacity_counts_the_largest_pool(load: Loader) -> None:
    fixed = load(with_gpu_pool()).config.node_pools[0]
    assert (fixed.max_nodes, fixed.gpu_capacity) == (4, 16)
    scaling = load(
        with_gpu_pool(autoscaling={"enabled": True, "minSize": 2, "maxSize": 8})
    ).config.node_pools[0]
    assert (scaling.max_nodes, scaling.gpu_capacity) == (8, 32)


def test_the_helper_loader_agrees() -> None:
    # The experiment tests' loader reads the same models (no stack file involved).
    assert load_config(example_config("aiacc")).config.node_pools[1].name == "cpu"


def test_a_pool_pins_a_driver_its_gpus_run(load: Loader) -> None:
    pool = load(with_gpu_pool(nvidiaDriver="580.95.05")).config.node_pools[0]
    assert (pool.gpu_model, pool.nvidia_driver) == ("V100", "580.95.05")
    # a GPU model the checks do not know is not checked; a newer one runs any branch
    assert load(with_gpu_pool(gpuModel="A100", nvidiaDriver="590.44.01")).config
    assert load(with_gpu_pool(gpuModel="MI300", nvidiaDriver="590.44.01")).config


def test_a_cpu_pool_has_no_driver(load: Loader) -> None:
    changes = {"gpusPerNode": 0, "gpuModel": None, "nvidiaDriver": "550.144.03"}
    _refused(
        load,
        changes,
        f"{GPU_POOL}.nvidiaDriver",
        '"550.144.03"',
        "nothing on a CPU pool (gpusPerNode: 0)",
    )
