"""Symbolic links in the project's own directories that lead out of it: refused, naming the
link, never followed (nothing read from there is printed, nothing written there).

``experiments/`` and ``results/`` are the project's: an experiment file linked to
``~/.git-credentials`` would otherwise print the start of the token in a YAML error, and a
``results/`` linked elsewhere would make ``results add`` write there.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.hostile.corpus import Case, check_refused, stack_text, write
from tests.project_copy import copy_project, run_in_process

TOKEN = "ghp_SECRETTOKEN0123456789"
RUN = "results/aiacc/imagenet-tensorflow/run-001.json"
ADD = ("results", "add", "aiacc", "imagenet-tensorflow", "train.log")
PLAN = ("plan", "onprem", "-o", "out")
TEMPLATE = "clusterTemplate: templates/workload-1-ack.yaml"


def _outside(root: Path) -> Path:
    """A directory beside the project (the test's scope: it must not change)."""
    outside = root.parent / "outside"
    outside.mkdir(exist_ok=True)
    (outside / "git-credentials").write_text(f"https://user:{TOKEN}@github.com\n")
    (outside / "values.yaml").write_text(f"job:\n  password: {TOKEN}\n  image: [unclosed\n")
    return outside


def _link(relative: str, target: Callable[[Path], Path]) -> Callable[[Path], None]:
    def edit(root: Path) -> None:
        link = root / relative
        link.parent.mkdir(parents=True, exist_ok=True)
        if link.is_dir() and not link.is_symlink():
            shutil.rmtree(link)
        link.symlink_to(target(root))

    return edit


def _both(*edits: Callable[[Path], None]) -> Callable[[Path], None]:
    def edit(root: Path) -> None:
        for each in edits:
            each(root)

    return edit


LOG = write("train.log", "total images/sec: 1344.00\n")

CASES = [
    Case(
        "experiment-linked-to-credentials",
        _link("experiments/leak.yaml", lambda root: _outside(root) / "git-credentials"),
        ("experiments/leak.yaml", "a symbolic link to ", "outside the project"),
        args=PLAN,
        secret=TOKEN,
    ),
    Case(
        "experiment-linked-to-a-yaml-outside",
        _link("experiments/values.yaml", lambda root: _outside(root) / "values.yaml"),
        ("experiments/values.yaml", "outside the project", "inside the project"),
        args=PLAN,
        secret=TOKEN,
    ),
    Case(
        "experiments-directory-linked-outside",
        _link("experiments", _outside),
        ("experiments", "a symbolic link to ", "outside the project"),
        args=PLAN,
        secret=TOKEN,
    ),
    Case(
        "results-directory-linked-outside",
        _both(LOG, _link("results", _outside)),
        ("results: a symbolic link to ", "outside the project: refused"),
        args=ADD,
    ),
    Case(
        "results-stack-directory-linked-outside",
        _both(LOG, _link("results/aiacc", _outside)),
        ("results/aiacc: a symbolic link to ", "outside the project: refused"),
        args=ADD,
    ),
    Case(
        "a-results-file-linked-outside",
        _link(RUN, lambda root: _outside(root) / "git-credentials"),
        (RUN, "a symbolic link to ", "outside the project"),
        args=("results", "compare", "aiacc", "baseline"),
        secret=TOKEN,
    ),
    Case(
        "cluster-template-linked-outside",
        _both(
            _link("stacks/templates/leak.yaml", lambda root: _outside(root) / "values.yaml"),
            stack_text("aiacc", TEMPLATE, "clusterTemplate: templates/leak.yaml"),
        ),
        (
            "trainstack:clusterTemplate",
            "stacks/templates/leak.yaml: a symbolic link to ",
            "outside the project",
        ),
        args=("plan", "aiacc", "-o", "out"),
        secret=TOKEN,
    ),
    Case(
        "cluster-template-under-a-directory-linked-outside",
        _both(
            _link("stacks/shared", _outside),
            stack_text("aiacc", TEMPLATE, "clusterTemplate: shared/values.yaml"),
        ),
        ("trainstack:clusterTemplate", "stacks/shared: a symbolic link to ", "outside"),
        args=("plan", "aiacc", "-o", "out"),
        secret=TOKEN,
    ),
    Case(
        "a-log-name-with-escape-sequences",
        lambda _: None,
        ("cannot read log x\\x1b]0;pwned\\x07\\r\\nerror: forged.log",),
        args=(
            "results",
            "add",
            "aiacc",
            "imagenet-tensorflow",
            "x\x1b]0;pwned\x07\r\nerror: forged.log",
        ),
        secret="\x1b",
    ),
]


@pytest.mark.parametrize("case", CASES, ids=str)
def test_a_link_out_of_the_project_is_refused(case: Case, tmp_path: Path) -> None:
    root = copy_project(tmp_path / "project")
    _outside(root)
    check_refused(case, root, tmp_path)


def test_a_link_inside_the_project_is_followed(tmp_path: Path) -> None:
    root = copy_project(tmp_path / "project")
    kept = root / "shared-experiments"
    kept.mkdir()
    (root / "experiments" / "imagenet-tensorflow.yaml").rename(kept / "imagenet.yaml")
    (root / "experiments" / "imagenet-tensorflow.yaml").symlink_to(kept / "imagenet.yaml")
    outcome = run_in_process(["plan", "aiacc", "-o", "out"], root, {})
    assert outcome.status == 0, outcome.stderr
