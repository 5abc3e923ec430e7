"""How long ``plan`` and ``diff --base`` take to end after Ctrl-C, SIGTERM or SIGHUP.

Run: ``.venv/bin/python -m benchmarks.signal_stop`` (target: every stop under 1 s, the
deadline docs/faults.md promises).

Set-up (not timed): a committed copy of the project. Timed: from the signal to the end
of the process, for ``plan onprem`` and a cold ``diff --base main onprem`` (its child
plans running), each signal :data:`TRIES` times at seeded random moments.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks._project import ROOT, copy_project

TRIES = 5
TARGET_SECONDS = 1.0
COMMANDS = {
    "plan": ["plan", "onprem", "-o", "out"],
    "diff --base": ["diff", "--base", "main", "onprem"],
}


def _seconds_to_stop(root: Path, args: list[str], number: int, moment: float) -> float:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TRAINSTACK_NO_CACHE": "1"}
    process = subprocess.Popen(
        [sys.executable, "-m", "trainstack", *args],
        cwd=root,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    time.sleep(moment)
    started = time.monotonic()
    process.send_signal(number)
    process.wait()
    return time.monotonic() - started


def main() -> None:
    """Print the slowest stop of each command and signal."""
    rng = random.Random(0)
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        copy_project(root, ("Pulumi.yaml", "__main__.py", "components", "charts", "experiments"))
        copy_project(root, ("stacks",))
        for command in (["init", "-q", "-b", "main"], ["add", "-A"], ["commit", "-qm", "base"]):
            subprocess.run(
                ["git", "-c", "user.name=b", "-c", "user.email=b@example.com", *command],
                cwd=root,
                check=True,
            )
        for name, args in COMMANDS.items():
            for number in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
                seconds = [
                    _seconds_to_stop(root, args, number, rng.uniform(1.0, 4.0))
                    for _ in range(TRIES)
                ]
                worst = max(seconds)
                verdict = "ok" if worst < TARGET_SECONDS else "OVER TARGET"
                print(
                    f"signal_stop: {name}, {signal.Signals(number).name}: slowest stop "
                    f"{worst:.2f} s of {TRIES} (target < {TARGET_SECONDS:.0f} s: {verdict})"
                )


if __name__ == "__main__":
    main()
