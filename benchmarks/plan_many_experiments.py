"""Time ``trainstack plan`` of a stack with 200 experiments, as a whole process.

Run: ``.venv/bin/python -m benchmarks.plan_many_experiments`` (target: under 10 s).
The experiments are generated into a scratch copy of the project: 200 MPI, TensorFlow
and PyTorch jobs of different shapes, each rendered by Helm in the plan.
"""

from __future__ import annotations

import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from trainstack.yaml_io import dump_yaml, read_yaml

ROOT = Path(__file__).resolve().parents[1]
EXPERIMENTS = 200
TARGET_SECONDS = 10.0
FRAMEWORKS = ("mpi", "tensorflow", "pytorch")


def experiment(index: int) -> dict:
    """One generated experiment; shapes vary so that no two renders are the same."""
    framework = FRAMEWORKS[index % 3]
    job: dict = {
        "framework": framework,
        "image": {"name": f"registry.example.com/bench/train:{index}"},
        "command": f"python /data/train.py --seed {index}",
        "worker": {
            "replicas": 1 + index % 4,
            "gpus": 1 + index % 2,
            "resources": {"limits": {"memory": "64Gi"}},
        },
        "env": {"RUN": str(index)},
        "datasets": [{"claimName": "imagenet-data", "mountPath": "/data"}],
    }
    return {"name": f"bench-{framework}-{index:03d}", "job": job}


def make_project(root: Path) -> None:
    """A scratch project: the real program, components and chart, generated experiments."""
    for name in ("Pulumi.yaml", "__main__.py"):
        shutil.copy(ROOT / name, root / name)
    shutil.copytree(ROOT / "components", root / "components")
    shutil.copytree(ROOT / "charts", root / "charts")
    shutil.copytree(ROOT / "operators", root / "operators")
    (root / "experiments").mkdir()
    for index in range(EXPERIMENTS):
        spec = experiment(index)
        (root / "experiments" / f"{spec['name']}.yaml").write_text(dump_yaml(spec))
    config = read_yaml(ROOT / "stacks" / "Pulumi.baseline.yaml")["config"]
    config.pop("trainstack:experiments", None)
    # The generated experiments have no team and run in `default`: their claim goes there.
    config["trainstack:datasets"][0]["namespace"] = "default"
    (root / "stacks").mkdir()
    # The data stack it reads ImageNet from (planned first, as for the example stacks).
    shutil.copy(ROOT / "stacks" / "Pulumi.imagenet.yaml", root / "stacks")
    (root / "stacks" / "Pulumi.bench.yaml").write_text(dump_yaml({"config": config}))


def main() -> None:
    """Print wall-clock seconds and the peak memory of the plan process."""
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        make_project(root)
        started = time.perf_counter()
        result = subprocess.run(
            [sys.executable, "-m", "trainstack", "plan", "bench", "-o", str(root / "out")],
            cwd=root,
            capture_output=True,
            text=True,
            check=False,
        )
        seconds = time.perf_counter() - started
        if result.returncode != 0:
            raise SystemExit(f"plan failed:\n{result.stderr}")
        objects = len(list((root / "out" / "bench" / "objects").glob("*.yaml")))
    peak_mib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    verdict = "ok" if seconds < TARGET_SECONDS else "OVER TARGET"
    print(
        f"plan_many_experiments: trainstack plan of {EXPERIMENTS} experiments ({objects} "
        f"rendered objects): {seconds:.2f} s, peak memory {peak_mib:.0f} MiB "
        f"(target < {TARGET_SECONDS:.0f} s: {verdict})"
    )


if __name__ == "__main__":
    main()
