"""``trainstack plan`` of a stack with 200 experiments against the sum of its parts.

Run: ``.venv/bin/python -m benchmarks.plan_many_experiments`` (target: the plan within
1.5 times the sum of its parts). The experiments are generated into a scratch copy of
the project: 200 MPI, TensorFlow and PyTorch jobs of different shapes, each rendered by
Helm in the plan. Timed in each round, each a process of its own (see ``_plan_parts``):

- the plan: ``trainstack plan bench`` (and the data stack it reads), the whole process
  from its start to its end;
- its parts: importing every module the plan imports (a process that does only that,
  from its start until the imports are done), the program's registrations under the
  SDK's mock engine (for both stacks, nothing recorded), and Helm rendering the same
  releases through the same function, in one batch in one process (the plan shares the
  batch between its render worker and itself).

What the plan does beyond its parts is its overhead: resolving and checking the
experiments, recording and masking the registrations, checking objects against their
schemas, writing the files and the summary. The plan renders in a second process while
the program runs, so on an idle machine it can take less than the sum of its parts.
Each is the best (minimum) of :data:`ROUNDS` rounds: noise on a shared machine only
ever adds time.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks._project import ROOT, copy_project
from trainstack.core.yaml.io import dump_yaml, read_yaml

EXPERIMENTS = 200
TARGET_RATIO = 1.5
ROUNDS = 3
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
    copy_project(root, ("Pulumi.yaml", "__main__.py", "components", "charts", "operators"))
    (root / "benchmarks").mkdir()
    for name in ("__init__.py", "_plan_parts.py"):
        shutil.copy(ROOT / "benchmarks" / name, root / "benchmarks" / name)
    (root / "experiments").mkdir()
    for index in range(EXPERIMENTS):
        spec = experiment(index)
        (root / "experiments" / f"{spec['name']}.yaml").write_text(dump_yaml(spec))
    config = read_yaml(ROOT / "stacks" / "Pulumi.baseline.yaml")["config"]
    config.pop("trainstack:experiments", None)
    config.pop("trainstack:acknowledge", None)  # names the example experiments
    # The generated experiments have no team and run in `default`: their claim goes there.
    config["trainstack:datasets"][0]["namespace"] = "default"
    (root / "stacks").mkdir()
    # The data stack it reads ImageNet from (planned first, as for the example stacks).
    shutil.copy(ROOT / "stacks" / "Pulumi.imagenet.yaml", root / "stacks")
    # The cluster and pools baseline names (trainstack:clusterTemplate), beside its file.
    shutil.copytree(ROOT / "stacks" / "templates", root / "stacks" / "templates")
    (root / "stacks" / "Pulumi.bench.yaml").write_text(dump_yaml({"config": config}))


def _run(root: Path, *args: str) -> tuple[float, float, str, float]:
    """Start time (``time.monotonic()``), wall-clock seconds, stdout and peak memory (MiB)
    of one ``python ARGS`` process."""
    with tempfile.TemporaryFile() as stdout, tempfile.TemporaryFile() as stderr:
        started = time.monotonic()
        process = subprocess.Popen([sys.executable, *args], cwd=root, stdout=stdout, stderr=stderr)
        _, status, usage = os.wait4(process.pid, 0)
        seconds = time.monotonic() - started
        process.returncode = os.waitstatus_to_exitcode(status)
        stdout.seek(0)
        stderr.seek(0)
        if process.returncode != 0:
            raise SystemExit(f"{' '.join(args)} failed:\n{stderr.read().decode()}")
        return started, seconds, stdout.read().decode(), usage.ru_maxrss / 1024


def measure(root: Path) -> dict[str, float]:
    """The best of ``ROUNDS`` rounds of the plan and of each part (seconds), and the plan's
    peak memory (MiB, the plan's process: its render worker is a process of its own)."""
    modules, out = root / "modules.json", root / "out"
    _run(root, "-m", "benchmarks._plan_parts", "modules", "bench", str(modules))
    runs: dict[str, list[float]] = {}
    for _ in range(ROUNDS):
        _, plan, _, memory = _run(root, "-m", "trainstack", "plan", "bench", "-o", str(out))
        started, _, output, _ = _run(root, "-m", "benchmarks._plan_parts", "imports", str(modules))
        imports = json.loads(output)["imported"] - started
        _, _, output, _ = _run(root, "-m", "benchmarks._plan_parts", "parts", "bench", str(modules))
        parts = json.loads(output)
        for name, seconds in (
            ("plan", plan),
            ("peak MiB", memory),
            ("imports", imports),
            ("registrations", parts["registrations"]),
            ("renders", parts["renders"]),
        ):
            runs.setdefault(name, []).append(seconds)
    return {name: min(seconds) for name, seconds in runs.items()}


def main() -> None:
    """Print the plan's seconds, its parts', their ratio and the plan's peak memory."""
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        make_project(root)
        best = measure(root)
        objects = len(list((root / "out" / "bench" / "objects").glob("*.yaml")))
    parts = best["imports"] + best["registrations"] + best["renders"]
    ratio = best["plan"] / parts
    verdict = "ok" if ratio <= TARGET_RATIO else "OVER TARGET"
    print(
        f"plan_many_experiments: {EXPERIMENTS} experiments ({objects} rendered objects), "
        f"best of {ROUNDS} rounds: plan {best['plan']:.2f} s; parts {parts:.2f} s "
        f"(imports {best['imports']:.2f} + registrations {best['registrations']:.2f} + "
        f"renders {best['renders']:.2f}); ratio {ratio:.2f} (target <= {TARGET_RATIO}: "
        f"{verdict}); peak memory {best['peak MiB']:.0f} MiB"
    )


if __name__ == "__main__":
    main()
