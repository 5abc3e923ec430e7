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
import subprocess
import tempfile
from pathlib import Path

from benchmarks._project import copy_project, trainstack_seconds
from trainstack.plan.cache import CACHE_DIR_ENV, NO_CACHE_ENV

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
    copy_project(root, PROJECT_FILES)
    identity = ["-c", "user.name=benchmark", "-c", "user.email=benchmark@localhost"]
    for command in (["init", "-q"], ["add", "-A"], [*identity, "commit", "-q", "-m", "bench"]):
        subprocess.run(["git", *command], cwd=root, check=True, capture_output=True)
    # Only stack files: stacks/ also holds the cluster templates (stacks/templates/).
    found = root.glob("stacks/Pulumi.*.yaml")
    return sorted(path.name[len("Pulumi.") : -len(".yaml")] for path in found)


def main() -> None:
    """Print the best warm diff, the best cold plan and their ratio."""
    with tempfile.TemporaryDirectory() as scratch:
        root, cache, out = (Path(scratch) / name for name in ("repository", "cache", "out"))
        root.mkdir()
        stacks = make_repository(root)
        env = {key: value for key, value in os.environ.items() if key != NO_CACHE_ENV}
        env[CACHE_DIR_ENV] = str(cache)
        trainstack_seconds(root, "diff", "--base", "HEAD", env=env)  # fills the cache
        entries = list((cache / "plans").iterdir())
        plans, diffs = [], []
        for _ in range(ROUNDS):
            plans.append(
                trainstack_seconds(root, "plan", PLANNED, "--output-dir", str(out), env=env)
            )
            for entry in entries:
                os.utime(entry, (0, 0))
            diffs.append(trainstack_seconds(root, "diff", "--base", "HEAD", env=env))
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
