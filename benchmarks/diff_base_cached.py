"""``trainstack diff --base`` of the example stacks with a warm plan cache, against one
cold ``trainstack plan``.

Run: ``.venv/bin/python -m benchmarks.diff_base_cached`` (target: the warm diff under 2
times the cold plan). Set-up (not timed): a scratch git repository holding a copy of the
project (code, chart, operators, experiments, every example stack), committed; its plan
cache in the scratch directory, outside the repository (``TRAINSTACK_CACHE_DIR``); one
``trainstack diff --base HEAD`` fills the cache. Timed in each round, each a fresh
process run in the repository with this interpreter: ``trainstack plan aiacc`` (no cache
involved) and ``trainstack diff --base HEAD`` of every stack (both sides of each stack
from the cache: the benchmark checks that every entry the first diff made was used).
The best (minimum) of the rounds is compared: noise on a shared machine only ever adds
time.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from trainstack.plan.cache import CACHE_DIR_ENV, NO_CACHE_ENV

ROOT = Path(__file__).resolve().parents[1]
PROJECT_FILES = (
    "Pulumi.yaml",
    "__main__.py",
    "components",
    "charts",
    "operators",
    "experiments",
    "stacks",
    "trainstack",
)
PLANNED = "aiacc"
ROUNDS = 5
TARGET_RATIO = 2.0


def make_repository(root: Path) -> list[str]:
    """The project's copy at ``root``, committed; returns its stacks."""
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for name in PROJECT_FILES:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, root / name, ignore=ignore)
        else:
            shutil.copy2(source, root / name)
    identity = ["-c", "user.name=benchmark", "-c", "user.email=benchmark@localhost"]
    for command in (["init", "-q"], ["add", "-A"], [*identity, "commit", "-q", "-m", "bench"]):
        subprocess.run(["git", *command], cwd=root, check=True, capture_output=True)
    return sorted(path.name[len("Pulumi.") : -len(".yaml")] for path in root.glob("stacks/*"))


def seconds(root: Path, env: dict[str, str], *args: str) -> float:
    """Wall-clock seconds of one ``python -m trainstack ARGS`` process (exit 0 or 1)."""
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "trainstack", *args],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    spent = time.monotonic() - started
    if done.returncode not in (0, 1):
        raise SystemExit(f"trainstack {' '.join(args)} failed:\n{done.stderr}")
    return spent


def main() -> None:
    """Print the best warm diff, the best cold plan and their ratio."""
    with tempfile.TemporaryDirectory() as scratch:
        root, cache, out = (Path(scratch) / name for name in ("repository", "cache", "out"))
        root.mkdir()
        stacks = make_repository(root)
        env = {key: value for key, value in os.environ.items() if key != NO_CACHE_ENV}
        env[CACHE_DIR_ENV] = str(cache)
        seconds(root, env, "diff", "--base", "HEAD")  # fills the cache
        entries = list((cache / "plans").iterdir())
        plans, diffs = [], []
        for _ in range(ROUNDS):
            plans.append(seconds(root, env, "plan", PLANNED, "--output-dir", str(out)))
            for entry in entries:
                os.utime(entry, (0, 0))
            diffs.append(seconds(root, env, "diff", "--base", "HEAD"))
            # A plan found in the cache is marked as used; one not found would be made.
            if any(entry.stat().st_mtime == 0 for entry in entries):
                raise SystemExit("a warm diff did not find every plan in the cache")
    ratio = min(diffs) / min(plans)
    verdict = "ok" if ratio < TARGET_RATIO else "OVER TARGET"
    print(
        f"diff_base_cached: trainstack diff --base HEAD of {len(stacks)} stacks "
        f"({', '.join(stacks)}), warm cache: {min(diffs):.2f} s; one cold trainstack plan "
        f"{PLANNED}: {min(plans):.2f} s (best of {ROUNDS} rounds each); ratio {ratio:.2f} "
        f"(target < {TARGET_RATIO:.0f}: {verdict})"
    )


if __name__ == "__main__":
    main()
