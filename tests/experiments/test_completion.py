"""Shell completion of stacks, experiments and matrices, through Typer's bash protocol as
`trainstack --install-completion` sets it up (a real process of the console script)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.stack_helpers import REPO

KERAS = ["keras-lstm-1x1", "keras-lstm-1x2", "keras-lstm-1x4", "keras-lstm-2x1", "keras-lstm-4x1"]


def _complete(words: str, cwd: Path = REPO) -> list[str]:
    env = {
        **os.environ,
        "PYTHONPATH": str(REPO),
        "_TRAINSTACK_COMPLETE": "complete_bash",
        "COMP_WORDS": words,
        "COMP_CWORD": str(len(words.split()) - (0 if words.endswith(" ") else 1)),
    }
    script = Path(sys.executable).parent / "trainstack"
    done = subprocess.run([script], cwd=cwd, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


@pytest.mark.parametrize(
    ("words", "offered"),
    [
        ("trainstack logs aiacc keras", KERAS),
        ("trainstack results add baseline pyt", ["pytorch-ddp-mnist"]),
        ("trainstack results collect aiacc tf", ["tf-multiworker-mnist"]),
        # onprem selects only `*-onprem`: the ACK experiments are not offered there
        ("trainstack logs onprem ", ["horovod-resnet50-onprem"]),
        ("trainstack results scaling aiacc ", ["keras-lstm"]),
        ("trainstack status b", ["baseline"]),
        ("trainstack results compare aiacc b", ["baseline"]),
    ],
)
def test_experiments_and_matrices_of_the_stack_are_offered(words: str, offered: list[str]) -> None:
    assert _complete(words) == offered


def test_outside_a_project_nothing_is_offered(tmp_path: Path) -> None:
    assert _complete("trainstack logs aiacc k", cwd=tmp_path) == []
