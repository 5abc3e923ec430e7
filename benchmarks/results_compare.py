"""Time ``trainstack results compare`` and ``results report`` of 200 experiments x 10 runs
per stack, whole process, against ``compare`` as it was before issue 22; and ``results
add`` of the largest hostile log.

Run: ``.venv/bin/python -m benchmarks.results_compare``. Targets: compare no slower than
before issue 22 (the ratio of medians, both measured in this run, at most 1.0) and at
most 1.2 times main's just before issue 34 (GPU telemetry, flags, MLPerf's rule), the
report under 10 s, a 64 MiB hostile log under 30 s.

Set-up (not timed): a project with the real ``aiacc`` and ``baseline`` stack files and,
for each stack, 200 experiments x 10 results files (and their logs) as ``results add``
writes them, each with its 15 within-run figures (tf_cnn_benchmarks' step lines, every
100 steps of 1,500), with the same base-values digest on both sides. Timed: ``trainstack
results compare aiacc baseline`` as text, markdown and JSON, and ``trainstack results
report aiacc baseline -o DIR``, each a fresh process (imports included): reading and
validating 4,000 files, checking 4,000 kept logs against their digests, the statistics
(Welch's interval and test, the runs needed) and rendering. The reference is the tree of
:data:`BEFORE` (``git archive``), with the project its own benchmark built (its records
had no within-run figures), timed in turns with today's: run for run, on the same load;
the same with :data:`MAIN`.
Then ``results add`` of a 64 MiB log of 2,000-character lines built to make the Keras
pattern backtrack.
"""

from __future__ import annotations

import hashlib
import resource
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
REPEATS = 5
BEFORE = "6eea7d9"
"""main just before issue 22 was merged (91dd2f8's first parent): compare with a
hand-typed t table, no SciPy, no within-run figures, no kept-log check."""
MAIN = "81f8280"
"""main just before issue 34 (the branch ``telemetry`` starts there)."""
REFERENCES = ((BEFORE, "before issue 22", 1.0), (MAIN, "main before issue 34", 1.2))
"""Each tree compare is timed against, what it is, and the largest ratio allowed."""
REPORT_TARGET_SECONDS = 10.0
HOSTILE_TARGET_SECONDS = 30.0
FORMATS = ("text", "markdown", "json")
DIGEST = "sha256:" + hashlib.sha256(b"benchmark base values").hexdigest()


def _within(value: float) -> dict[str, object]:
    steps = [round(value / 16 + (step % 3 - 1) * 0.1, 1) for step in range(15)]
    return {
        "values": steps,
        "scope": "rank",
        "source": "tf_cnn_benchmarks step lines",
        "warmup": 0,
        "warmupRule": "the tool's own",
        "drift": 0.0,
        "drifted": False,
    }


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
                    "line": 1,
                    "within": _within(value),
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
    shutil.copytree(ROOT / "experiments", directory / "experiments")
    for stack, base in (("aiacc", 1344.0), ("baseline", 1200.0)):
        for index in range(EXPERIMENTS):
            experiment = f"imagenet-tensorflow-{index:03d}"
            folder = directory / "results" / stack / experiment
            folder.mkdir(parents=True)
            for run in range(1, RUNS_PER_EXPERIMENT + 1):
                value = base + (run - 5) * 1.5 + index % 7
                log = f"total images/sec: {value:.2f}\n".encode()
                (folder / log_name(run)).write_bytes(log)
                record = _record(stack, experiment, run, value, log)
                (folder / record_name(run)).write_text(record_json(record))
    return directory


CPU: list[float] = []
"""CPU seconds (user + system) of each process timed, in order: on a loaded machine the
wall clock says more of the machine than of trainstack."""


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _seconds(directory: Path, *args: str, tree: Path = ROOT) -> float:
    """Wall-clock seconds of one ``trainstack ARGS`` process run from ``tree`` (its CPU
    seconds to :data:`CPU`)."""
    cpu = _children_cpu()
    started = time.perf_counter()
    result = subprocess.run(
        [sys.executable, "-m", "trainstack", *args],
        cwd=directory,
        env=_env(tree),
        capture_output=True,
        check=False,
    )
    seconds = time.perf_counter() - started
    CPU.append(_children_cpu() - cpu)
    refused = b"no line in a recognised format" in result.stderr  # the hostile log's end
    if result.returncode != 0 and not refused:
        raise SystemExit(f"trainstack {' '.join(args)} failed:\n{result.stderr.decode()}")
    return seconds


def _line(what: str, seconds: list[float], target: float) -> str:
    median = statistics.median(seconds)
    verdict = "ok" if median < target else "OVER TARGET"
    cpu = statistics.median(CPU[-len(seconds) :])
    return (
        f"results_compare: {what}: median {median:.2f} s of {len(seconds)} (CPU {cpu:.2f} s), "
        f"max {max(seconds):.2f} s (target < {target:.0f} s: {verdict})"
    )


def _before(scratch: Path, commit: str = BEFORE) -> tuple[Path, Path] | None:
    """The tree of ``commit`` and a project its own benchmark built, or ``None`` (said
    why) when this checkout does not have that commit (a shallow clone)."""
    tree, data = scratch / f"before-{commit}", scratch / f"before-{commit}-project"
    tree.mkdir()
    data.mkdir()
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", commit], capture_output=True, check=False
    )
    if archive.returncode != 0:
        print(f"results_compare: no comparison with {commit}: {archive.stderr.decode().strip()}")
        return None
    subprocess.run(["tar", "-x", "-C", str(tree)], input=archive.stdout, check=True)
    build = (
        "from pathlib import Path; from benchmarks.results_compare import project; "
        f"project(Path({str(data)!r}))"
    )
    subprocess.run([sys.executable, "-c", build], cwd=tree, env=_env(tree), check=True)
    return tree, data


def _env(tree: Path) -> dict[str, str]:
    return {"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin"}


def _compare(
    directory: Path,
    references: list[tuple[tuple[Path, Path] | None, str, str, float]],
    output: str,
    size: str,
) -> str:
    """Compare as ``output``, today's and (in turns) each reference's: the lines to print."""
    args = ("results", "compare", "aiacc", "baseline", "--format", output)
    now, now_cpu = [], []
    then: list[list[float]] = [[] for _ in references]
    then_cpu: list[list[float]] = [[] for _ in references]
    for _ in range(REPEATS):
        now.append(_seconds(directory, *args))
        now_cpu.append(CPU[-1])
        for index, (before, *_) in enumerate(references):
            if before is not None:
                then[index].append(_seconds(before[1], *args, tree=before[0]))
                then_cpu[index].append(CPU[-1])
    what = f"results_compare: compare, {size}, {output}: median {statistics.median(now):.2f} s"
    what += f" (CPU {statistics.median(now_cpu):.2f} s)"
    lines = [what]
    for index, (before, commit, words, target) in enumerate(references):
        if before is None:
            continue
        ratio = statistics.median(now) / statistics.median(then[index])
        cpu_ratio = statistics.median(now_cpu) / statistics.median(then_cpu[index])
        verdict = "ok" if ratio <= target else "SLOWER THAN ALLOWED"
        lines.append(
            f"  against {statistics.median(then[index]):.2f} s (CPU "
            f"{statistics.median(then_cpu[index]):.2f} s) {words} ({commit}), {REPEATS} runs "
            f"each in turns: ratio {ratio:.2f} (CPU {cpu_ratio:.2f}; target at most "
            f"{target:.2f}: {verdict})"
        )
    return "\n".join(lines)


def main() -> None:
    """Print the median of several runs of each command."""
    with tempfile.TemporaryDirectory() as scratch:
        directory = project(Path(scratch))
        references = [
            (_before(Path(scratch), commit), commit, words, target)
            for commit, words, target in REFERENCES
        ]
        files = 2 * EXPERIMENTS * RUNS_PER_EXPERIMENT
        size = f"{EXPERIMENTS} experiments x {RUNS_PER_EXPERIMENT} runs per stack ({files} files)"
        for output in FORMATS:
            print(_compare(directory, references, output, size), flush=True)
        seconds = [
            _seconds(directory, "results", "report", "aiacc", "baseline", "-o", "report")
            for _ in range(REPEATS)
        ]
        print(_line(f"report, {size}", seconds, REPORT_TARGET_SECONDS), flush=True)
        hostile = Path(scratch) / "hostile.log"
        line = "1/1 " + " 1" * 1000 + "/s\n"
        hostile.write_text("Epoch 1/1\n" + line * (64 * 1024 * 1024 // len(line)))
        seconds = [
            _seconds(directory, "results", "add", "aiacc", "imagenet-tensorflow", str(hostile))
        ]
        print(_line("add of a 64 MiB hostile log", seconds, HOSTILE_TARGET_SECONDS), flush=True)


if __name__ == "__main__":
    main()
