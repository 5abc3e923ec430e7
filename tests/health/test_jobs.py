"""The objects of a health run, and the node check's script run in real shells with
stand-ins for the tools on PATH (each records the exact arguments it got)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from tests.health.samples import sample
from trainstack.config.health import HealthSettings
from trainstack.config.node_pool import NodePool
from trainstack.health.assemble import node_health
from trainstack.health.jobs import NODE_SCRIPT, Target, nccl_node_job, node_job, object_name

SHELLS = {"dash": ["dash"], "bash-posix": ["bash", "--posix"], "busybox": ["busybox", "sh"]}
POOL = NodePool.model_validate(
    {
        "name": "gpu-v100",
        "gpusPerNode": 4,
        "gpuModel": "V100",
        "desiredSize": 4,
        "labels": {"trainstack.io/pool": "gpu-v100"},
        "taints": [{"key": "nvidia.com/gpu", "value": "true", "effect": "NoSchedule"}],
    }
)
NASTY = "cn-beijing.192.168.0.21"


def test_a_node_job_is_pinned_unprivileged_and_labelled() -> None:
    job = node_job(Target(NASTY, POOL), HealthSettings.model_validate({}), "ab12cd34")
    spec = job["spec"]["template"]["spec"]
    assert spec["nodeSelector"] == {
        "kubernetes.io/hostname": NASTY,
        "trainstack.io/pool": "gpu-v100",
    }
    assert spec["tolerations"] == [
        {"key": "nvidia.com/gpu", "operator": "Equal", "value": "true", "effect": "NoSchedule"}
    ]
    (container,) = spec["containers"]
    assert container["resources"] == {"limits": {"nvidia.com/gpu": "4"}}
    assert container["securityContext"]["allowPrivilegeEscalation"] is False
    assert "privileged" not in str(job) and "hostNetwork" not in str(job)
    assert job["metadata"]["labels"] == {
        "app.kubernetes.io/managed-by": "trainstack",
        "trainstack.io/health-run": "ab12cd34",
        "trainstack.io/health-check": "node",
    }


def test_names_are_dns_labels_whatever_the_node() -> None:
    name = object_name("nccl-node", "n" * 253, "ab12cd34")
    assert len(name) <= 63 and name.startswith("health-nccl-node-") and name.endswith("ab12cd34")


def test_the_nccl_job_runs_all_reduce_perf_over_every_gpu_without_a_shell() -> None:
    job = nccl_node_job(Target(NASTY, POOL), HealthSettings.model_validate({}), "r")
    (container,) = job["spec"]["template"]["spec"]["containers"]
    assert container["command"] == [
        "/opt/nccl_tests/build/all_reduce_perf",
        "-b",
        "1M",
        "-e",
        "1G",
        "-f",
        "2",
        "-g",
        "4",
    ]


STANDINS = {
    "nvidia-smi": "nvidia-smi-q-v100-sxm2-16gb-head.txt",
    "dcgmproftester12": "dcgmproftester-1004-a100-4.x.txt",
    "dcgmi": "dcgmi-diag-4.2.3-partial.txt",
}


@pytest.mark.parametrize("shell", sorted(SHELLS))
def test_the_node_script_in_a_real_shell(shell: str, tmp_path: Path) -> None:
    program = shutil.which(SHELLS[shell][0])
    if program is None:
        pytest.skip(f"{SHELLS[shell][0]} is not installed")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    calls = tmp_path / "calls"
    for tool, recorded in STANDINS.items():
        (tmp_path / recorded).write_text(sample(recorded), encoding="utf-8")
        script = f'#!/bin/sh\necho "{tool} $*" >> "{calls}"\ncat "{tmp_path / recorded}"\n'
        (bin_dir / tool).write_text(script, encoding="utf-8")
        (bin_dir / tool).chmod(0o755)
    (bin_dir / "nv-hostengine").write_text(f'#!/bin/sh\necho "nv-hostengine $*" >> "{calls}"\n')
    (bin_dir / "nv-hostengine").chmod(0o755)
    # a value with shell metacharacters stays data: the script never interpolates it
    env = {
        "PATH": f"{bin_dir}:/usr/bin:/bin",
        "TRAINSTACK_DIAG_LEVEL": "1; touch pwned",
        "TRAINSTACK_GEMM_SECONDS": "$(touch pwned)",
    }
    done = subprocess.run(
        [program, *SHELLS[shell][1:], "-c", NODE_SCRIPT],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
        timeout=30,
    )
    assert done.returncode == 0, done.stderr
    assert not (tmp_path / "pwned").exists()
    assert calls.read_text(encoding="utf-8").splitlines() == [
        "nvidia-smi -q",
        "dcgmproftester12 --no-dcgm-validation -t 1004 -d $(touch pwned)",
        "dcgmproftester12 --no-dcgm-validation --cublas -t 1007 -d $(touch pwned)",
        "nv-hostengine ",
        "dcgmi diag -r 1; touch pwned",
    ]
    node = node_health(NASTY, "gpu-v100", 1, 1, done.stdout, None, [])
    assert node.gpus[0].gemm_fp16_tflops is not None
    assert node.gpus[0].gemm_fp16_tflops.value == 190.0
    assert node.gpus[0].product == "Tesla V100-SXM2-16GB"
    # the stand-in prints 1004's lines for 1007 too: no FP32 figure, and the diag table
    # is the published one, cut short: both said
    assert "dcgmproftester12 -t 1007 printed no gflops line" in node.problems
    assert "dcgmi diag's table is cut short (it did not end with its frame)" in node.problems
