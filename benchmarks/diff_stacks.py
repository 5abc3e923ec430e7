"""Time ``trainstack diff`` of two stacks with 200 experiments each, as a whole process.

Run: ``.venv/bin/python -m benchmarks.diff_stacks`` (target: under 5 s).

Set-up (not timed): the real ``aiacc`` and ``baseline`` stacks are planned once and
each plan's experiments are cloned, renamed, to 200 per stack: real chart objects, and
every experiment differs between the stacks (by its acceleration overrides), the worst
case for rendering. Timed: ``trainstack diff --plans A B`` in text, in markdown, and
``--fairness``, each a fresh process (imports included).
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from benchmarks._project import ROOT, trainstack_seconds

EXPERIMENTS = 200
RUNS = 3
TARGET_SECONDS = 5.0
MODES = {
    "text": ["--format", "text"],
    "markdown": ["--format", "markdown"],
    "fairness": ["--fairness"],
}


def _load(path: Path) -> list[dict[str, Any]]:
    data: list[dict[str, Any]] = json.loads(path.read_text()) if path.is_file() else []
    return data


def _clone(item: dict[str, Any], name: str, new_name: str) -> dict[str, Any]:
    """``item`` with every mention of experiment ``name`` renamed (URNs, labels...)."""
    clone: dict[str, Any] = json.loads(json.dumps(item).replace(name, new_name))
    return clone


def widen(plan_dir: Path) -> int:
    """Replace the plan's experiments by ``EXPERIMENTS`` renamed clones of them."""
    experiments = _load(plan_dir / "experiments.json")
    names = [experiment["name"] for experiment in experiments]
    if not names:
        raise SystemExit(f"{plan_dir} has no experiments to clone")

    def owner(item: dict[str, Any], field: str) -> str | None:
        return next((n for n in names if str(item.get(field, "")).startswith(n)), None)

    resources = _load(plan_dir / "resources.json")
    objects = _load(plan_dir / "objects.json")
    kept = [r for r in resources if owner(r, "name") is None]
    new_resources, new_objects, new_experiments = list(kept), [], []
    for index in range(EXPERIMENTS):
        name = names[index % len(names)]
        new_name = f"{name}-{index:03d}"
        new_experiments.append(_clone(experiments[index % len(names)], name, new_name))
        new_resources += [_clone(r, name, new_name) for r in resources if owner(r, "name") == name]
        new_objects += [_clone(o, name, new_name) for o in objects if owner(o, "name") == name]
    for file_name, items in (
        ("resources.json", sorted(new_resources, key=lambda r: r["urn"])),
        ("objects.json", new_objects),
        ("experiments.json", sorted(new_experiments, key=lambda e: e["name"])),
    ):
        (plan_dir / file_name).write_text(json.dumps(items, indent=2, sort_keys=True))
    return len(new_objects)


def plan(stack: str, output_dir: Path) -> Path:
    """Plan ``stack`` of the working tree (set-up, not timed)."""
    subprocess.run(
        [sys.executable, "-m", "trainstack", "plan", stack, "--output-dir", str(output_dir)],
        cwd=ROOT,
        check=True,
        capture_output=True,
    )
    return output_dir / stack


def time_diff(first: Path, second: Path, options: list[str]) -> float:
    """Wall-clock seconds of one ``trainstack diff --plans`` process (exit 0 or 1)."""
    return trainstack_seconds(ROOT, "diff", "--plans", str(first), str(second), *options)


def main() -> None:
    """Print the median of several runs of each output mode."""
    with tempfile.TemporaryDirectory() as scratch:
        first = plan("aiacc", Path(scratch) / "a")
        second = plan("baseline", Path(scratch) / "b")
        objects = widen(first) + widen(second)
        for mode, options in MODES.items():
            seconds = [time_diff(first, second, options) for _ in range(RUNS)]
            median = statistics.median(seconds)
            verdict = "ok" if median < TARGET_SECONDS else "OVER TARGET"
            print(
                f"diff_stacks: trainstack diff --plans, {EXPERIMENTS} experiments per stack "
                f"({objects} chart objects), {mode}: median {median:.2f} s of {RUNS}, "
                f"max {max(seconds):.2f} s (target < {TARGET_SECONDS:.0f} s: {verdict})"
            )


if __name__ == "__main__":
    main()
