"""What the preflight costs a pod: its script, run as the chart renders it, per shell.

Run: ``.venv/bin/python -m benchmarks.preflight``. Workload 1's worker (4 GPUs through an
nvidia-smi stand-in, sshd, ImageNet and a results directory, the variables launch_arena.sh
reads) and launcher (ssh, its 4 workers' names through the system's getent on names that
resolve at once), each run 20 times with every shell installed (dash, bash, busybox). It
measures the script; a Kubernetes init container adds its own start (the image is already
on the node: the training container uses it), which only a cluster can measure.
"""

from __future__ import annotations

import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

from tests.chart.preflight_pod import KEYS, SSH, SSHD, recorded
from trainstack.chart.render import render_training_job

RUNS = 20
SHELLS = (("dash",), ("bash", "--posix"), ("busybox", "sh"))
TOOLS = ("date", "grep", "ls", "id", "hostname", "rm", "sleep", "tr", "cat", "getent")


def _containers(root: Path) -> dict[str, dict[str, Any]]:
    # sshd and ssh stand-ins answering with OpenSSH 9.2p1's recorded dumps, set up as
    # mpi-operator's base image (tests/chart/preflight_pod.py)
    sshd = root / "sshd"
    sshd.write_text(f"#!/bin/sh\n{SSHD}\n")
    sshd.chmod(0o755)
    host_key = root / "host_key"
    host_key.write_text("a host key\n")
    Path(f"{sshd}.dump").write_text(recorded("sshd-T.txt", strictmodes="no", hostkey=str(host_key)))
    values = {
        "framework": "mpi",
        "image": {"name": "registry.example.com/aiacc/cuda11:v3.0"},
        "command": "sh /data/tensorflow-imagenet/launch_arena.sh",
        "arenaSubmit": True,
        "worker": {"replicas": 4, "gpus": 4},
        "mpi": {
            "mountsOnLauncher": True,
            "workerCommand": [str(sshd), "-De"],
            "sshAuthMountPath": KEYS,
        },
        "datasets": [{"claimName": "imagenet-data", "mountPath": str(root / "data")}],
        "results": {"claimName": "out", "mountPath": str(root / "results")},
        "preflight": {"requiredEnv": ["workers", "gpus"]},
    }
    (job,) = render_training_job(values, release="localhost", namespace="bench")
    specs = job["spec"]["mpiReplicaSpecs"]
    found = {}
    for role in ("Launcher", "Worker"):
        found[role] = specs[role]["template"]["spec"]["initContainers"][0]
    return found


def _stubs(root: Path) -> Path:
    bin_dir = root / "bin"
    bin_dir.mkdir()
    for tool in TOOLS:
        (bin_dir / tool).symlink_to(str(shutil.which(tool)))
    for name, body in (
        ("nvidia-smi", 'for i in 0 1 2 3; do echo "GPU $i: Tesla V100"; done'),
        ("ssh", SSH),
    ):
        (bin_dir / name).write_text(f"#!/bin/sh\n{body}\n")
        (bin_dir / name).chmod(0o755)
    dump = recorded("ssh-G.txt", stricthostkeychecking="false", userknownhostsfile="/dev/null")
    (bin_dir / "ssh.dump").write_text(dump)
    return bin_dir


def _env(container: dict[str, Any], bin_dir: Path) -> dict[str, str]:
    env = {"PATH": str(bin_dir), "workers": "4", "gpus": "4"}
    env.update({e["name"]: e["value"] for e in container.get("env", []) if "value" in e})
    # the workers' names, made to resolve at once here: localhost
    if "TRAINSTACK_PREFLIGHT_HOSTS" in env:
        env["TRAINSTACK_PREFLIGHT_HOSTS"] = "\n".join(["localhost"] * 4)
    return env


def main() -> None:
    """Print the median and slowest run per role and shell."""
    with tempfile.TemporaryDirectory() as name:
        root = Path(name)
        (root / "data").mkdir()
        (root / "results").mkdir()
        containers = _containers(root)
        bin_dir = _stubs(root)
        for shell in SHELLS:
            program = shutil.which(shell[0])
            if program is None:
                print(f"preflight: {shell[0]} not installed, skipped")
                continue
            for role, container in containers.items():
                times = []
                for _ in range(RUNS):
                    started = time.perf_counter()
                    ran = subprocess.run(
                        [program, *shell[1:], "-c", *container["command"][2:]],
                        env=_env(container, bin_dir),
                        capture_output=True,
                        text=True,
                        check=False,
                    )
                    times.append(time.perf_counter() - started)
                    assert ran.returncode == 0, ran.stdout + ran.stderr
                print(
                    f"preflight: {role.lower()} with {' '.join(shell)}: median "
                    f"{1000 * statistics.median(times):.1f} ms, slowest {1000 * max(times):.1f} "
                    f"ms over {RUNS} runs"
                )


if __name__ == "__main__":
    main()
