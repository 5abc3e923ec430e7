"""Render the training-job chart for 500 distinct experiments, as the plan engine does.

Run: ``.venv/bin/python -m benchmarks.chart_render``. Each render validates the values
with the model and renders the chart with Helm's engine (helm-python-sdk), then parses
the objects; the chart is loaded once, as in a plan.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from trainstack.chart.render import load_chart, render_training_job

ROOT = Path(__file__).resolve().parents[1]
CHART_DIR = ROOT / "charts" / "training-job"
EXPERIMENTS = 500
FRAMEWORKS = ("mpi", "tensorflow", "pytorch")


def experiment(index: int) -> dict[str, Any]:
    """The values of experiment ``index``: framework, replicas, GPUs and data all vary."""
    values: dict[str, Any] = {
        "framework": FRAMEWORKS[index % len(FRAMEWORKS)],
        "image": {"name": f"registry.example.com/team/train:{index % 7}"},
        "command": f"python train.py --seed {index} --config 'lr: 0.{index % 10}'",
        "worker": {"replicas": 1 + index % 8, "gpus": (1, 2, 4, 8)[index % 4]},
        "datasets": [
            {"claimName": f"dataset-{d}", "mountPath": f"/data/{d}", "readOnly": d % 2 == 0}
            for d in range(index % 3)
        ],
        "env": {"NCCL_DEBUG": "INFO", "EXPERIMENT": str(index)},
        "scheduling": {
            "tolerations": [{"key": "nvidia.com/gpu", "operator": "Exists"}],
            "gang": {"enabled": index % 5 == 0},
        },
    }
    if index % 4 == 0:
        values["network"] = {"hostNetwork": True}
        values["mpi"] = {"sshPort": 2222}
    return values


def main() -> None:
    """Print renders per second over 500 experiments (chart loading included)."""
    load_chart.cache_clear()
    started = time.perf_counter()
    for index in range(EXPERIMENTS):
        render_training_job(
            experiment(index), release=f"exp-{index}", namespace="bench", chart_dir=CHART_DIR
        )
    seconds = time.perf_counter() - started
    print(
        f"chart_render: {EXPERIMENTS} experiments in {seconds:.2f} s, "
        f"{EXPERIMENTS / seconds:.0f} renders/s ({1000 * seconds / EXPERIMENTS:.1f} ms each)"
    )


if __name__ == "__main__":
    main()
