"""Time ``trainstack results compare`` of 200 experiments x 10 runs per stack, whole process.

Run: ``.venv/bin/python -m benchmarks.results_compare`` (target: under 5 s).

Set-up (not timed): a project with the real ``aiacc`` and ``baseline`` stack files and,
for each stack, 200 experiments x 10 results files (and their logs) as ``results add``
writes them, with the same base-values digest on both sides. Timed: ``trainstack results
compare aiacc baseline`` as text, markdown and JSON, each a fresh process (imports
included): reading and validating 4,000 files, statistics and rendering.
"""

from __future__ import annotations

import hashlib
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from trainstack.results.paths import log_name, record_name
from trainstack.results.record import RunRecord
from trainstack.results.store import record_json

ROOT = Path(__file__).resolve().parents[1]
EXPERIMENTS = 200
RUNS_PER_EXPERIMENT = 10
REPEATS = 3
TARGET_SECONDS = 5.0
FORMATS = ("text", "markdown", "json")
DIGEST = "sha256:" + hashlib.sha256(b"benchmark base values").hexdigest()


def _record(stack: str, experiment: str, run: int, value: float, log: bytes) -> RunRecord:
    return RunRecord.model_validate(
        {
            "format": "trainstack-results/1",
            "stack": stack,
            "experiment": experiment,
            "run": run,
            "source": "log file",
            "baseValuesDigest": DIGEST,
            "shape": {"gpus": 16, "workers": 4, "gpusPerWorker": 4},
            "log": {
                "file": log_name(run),
                "sha256": hashlib.sha256(log).hexdigest(),
                "bytes": len(log),
                "truncated": False,
            },
            "metrics": {
                "images_per_sec": {
                    "value": value,
                    "unit": "images/sec",
                    "higherIsBetter": True,
                    "parser": "tf-cnn-benchmarks",
                },
                "duration": {
                    "value": 1500.0 - value / 10,
                    "unit": "s",
                    "higherIsBetter": False,
                    "parser": "job-status",
                },
            },
        }
    )


def project(directory: Path) -> Path:
    """A project with the two stacks and 200 x 10 runs recorded on each (set-up)."""
    shutil.copy(ROOT / "Pulumi.yaml", directory / "Pulumi.yaml")
    shutil.copytree(ROOT / "stacks", directory / "stacks")
    for stack, base in (("aiacc", 1344.0), ("baseline", 1200.0)):
        for index in range(EXPERIMENTS):
            experiment = f"imagenet-tensorflow-{index:03d}"
            folder = directory / "results" / stack / experiment
            folder.mkdir(parents=True)
            for run in range(1, RUNS_PER_EXPERIMENT + 1):
                value = base + (run - 5) * 1.5
                log = f"total images/sec: {value:.2f}\n".encode()
                (folder / log_name(run)).write_bytes(log)
                record = _record(stack, experiment, run, value, log)
                (folder / record_name(run)).write_text(record_json(record))
    return directory


def time_compare(directory: Path, output: str) -> float:
    """Wall-clock seconds of one ``trainstack results compare`` process."""
    started = time.perf_counter()
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "trainstack",
            "results",
            "compare",
            "aiacc",
            "baseline",
            "--format",
            output,
        ],
        cwd=directory,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        check=False,
    )
    seconds = time.perf_counter() - started
    if result.returncode != 0:
        raise SystemExit(f"trainstack results compare failed:\n{result.stderr.decode()}")
    return seconds


def main() -> None:
    """Print the median of several runs of each output format."""
    with tempfile.TemporaryDirectory() as scratch:
        directory = project(Path(scratch))
        files = 2 * EXPERIMENTS * RUNS_PER_EXPERIMENT
        for output in FORMATS:
            seconds = [time_compare(directory, output) for _ in range(REPEATS)]
            median = statistics.median(seconds)
            verdict = "ok" if median < TARGET_SECONDS else "OVER TARGET"
            print(
                f"results_compare: trainstack results compare, {EXPERIMENTS} experiments x "
                f"{RUNS_PER_EXPERIMENT} runs per stack ({files} results files), {output}: median "
                f"{median:.2f} s of {REPEATS}, max {max(seconds):.2f} s "
                f"(target < {TARGET_SECONDS:.0f} s: {verdict})"
            )


if __name__ == "__main__":
    main()
