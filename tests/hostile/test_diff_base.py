"""``diff --base`` on any tree a pull request can hold, and on a full disk.

Each case commits something hostile at the base revision (or puts it in the working
tree) and runs the real ``diff --base``: in a process of its own where a regression would
hang it (a read of ``/dev/zero`` or a FIFO: the run fails after 60 s), else the console's
``main()`` in this process (the revision's plans are child processes either way; 1-3 s of
CPU less each), with ``TMPDIR`` and Python's cached temporary directory both the test's
scratch directory. It must give a correct diff when the plan does not read the hostile
file, and one error line naming it when it does.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.diff.plan_dirs import commit_all, copy_project, init_repo
from tests.project_copy import Outcome, assert_refused, run_in_process, run_subprocess, tree
from tests.stack_helpers import REPO
from tests.tmpfs import in_small_tmpfs
from trainstack.plan.cache import CACHE_DIR_ENV

pytestmark = [
    pytest.mark.slow,  # left out of `make test-fast`
    # Commands run in this process: nothing else a process would print on its stderr.
    pytest.mark.usefixtures("stderr_as_a_process_has_it"),
]

STACK = "onprem"
UNCHANGED = f"trainstack diff {STACK}@main -> {STACK}: 0 added, 0 removed, 0 changed"


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return init_repo(copy_project(tmp_path_factory.mktemp("repo"), (STACK,)))


def _repo(pristine: Path, tmp_path: Path, change: Callable[[Path], None]) -> Path:
    """A copy of the repository whose ``main`` holds ``change`` (reverted in the working
    tree when it is a committed link, so that only the base revision has it)."""
    root = tmp_path / "repo"
    shutil.copytree(pristine, root, symlinks=True)
    change(root)
    return root


def _diff(root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch | None = None) -> Outcome:
    """``diff --base main``: in this process when given ``monkeypatch``, else a process."""
    env = {CACHE_DIR_ENV: str(tmp_path / "cache"), "TMPDIR": str(_scratch(tmp_path))}
    args = ["diff", "--base", "main", STACK]
    if monkeypatch is None:
        return run_subprocess(args, root, env)
    # tempfile reads TMPDIR once per process: the checkout goes where a process puts it.
    monkeypatch.setattr(tempfile, "tempdir", env["TMPDIR"])
    return run_in_process(args, root, env)


def _scratch(tmp_path: Path) -> Path:
    scratch = tmp_path / "scratch"
    scratch.mkdir(exist_ok=True)
    return scratch


def _commit_link(relative: str, target: str, keep_in_working_tree: bool) -> Callable[[Path], None]:
    def change(root: Path) -> None:
        link = root / relative
        link.parent.mkdir(parents=True, exist_ok=True)
        link.symlink_to(target)
        commit_all(root, f"link {relative}")
        if not keep_in_working_tree:
            link.unlink()

    return change


def _special_files_in_the_working_tree(root: Path) -> None:
    """Not committed (git cannot hold them): read by the cache's digest of the tree."""
    os.mkfifo(root / "a-fifo")
    (root / "results").mkdir()
    os.mkfifo(root / "results" / "run-001.json")
    (root / "zero").symlink_to("/dev/zero")
    (root / "loop").symlink_to(".", target_is_directory=True)
    (root / "root").symlink_to("/", target_is_directory=True)


HANGS = {
    "a-link-to-dev-zero",
    "special-files-in-the-working-tree",
    "the-program-linked-to-dev-zero",
}
"""Cases a regression would hang on (reading /dev/zero or a FIFO): a process of their own."""

HARMLESS = {
    # A link nothing of the plan reads: left out, never followed; the diff goes on.
    "an-absolute-link-to-a-secret": _commit_link("docs/secret", "/etc/passwd", True),
    "a-link-to-dev-zero": _commit_link("zero", "/dev/zero", True),
    "a-link-climbing-out": _commit_link("docs/up", "../../../../etc/hostname", True),
    "special-files-in-the-working-tree": _special_files_in_the_working_tree,
}


@pytest.mark.parametrize(("case", "change"), HARMLESS.items(), ids=HARMLESS.keys())
def test_a_hostile_file_the_plan_does_not_read_leaves_a_correct_diff(
    pristine: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    case: str,
    change: Callable[[Path], None],
) -> None:
    root = _repo(pristine, tmp_path, change)
    outcome = _diff(root, tmp_path, None if case in HANGS else monkeypatch)
    assert outcome.status == 0, outcome.stderr
    assert outcome.stdout.startswith(UNCHANGED)
    assert "root:" not in outcome.stdout + outcome.stderr  # nothing of /etc/passwd
    assert os.listdir(_scratch(tmp_path)) == []


REFUSED = {
    "an-experiment-linked-to-a-secret": (
        _commit_link("experiments/evil.yaml", "/etc/passwd", False),
        "experiments/evil.yaml is a symbolic link to '/etc/passwd'",
    ),
    "a-stack-file-linked-out-of-the-tree": (
        _commit_link(f"stacks/Pulumi.{STACK}.yaml", "../../../etc/hostname", False),
        f"stacks/Pulumi.{STACK}.yaml is a symbolic link to '../../../etc/hostname'",
    ),
    "the-program-linked-to-dev-zero": (
        _commit_link("components/zero.py", "/dev/zero", False),
        "components/zero.py is a symbolic link to '/dev/zero'",
    ),
}


def _replace_by_link(change: Callable[[Path], None], relative: str) -> Callable[[Path], None]:
    """For a file that exists: remove it first, commit the link, restore the file."""

    def replace(root: Path) -> None:
        saved = (root / relative).read_bytes() if (root / relative).is_file() else None
        if saved is not None:
            (root / relative).unlink()
        change(root)
        if saved is not None:
            (root / relative).write_bytes(saved)

    return replace


@pytest.mark.parametrize(
    ("case", "change", "named"),
    [(case, *refused) for case, refused in REFUSED.items()],
    ids=REFUSED.keys(),
)
def test_a_link_leaving_the_tree_where_the_plan_reads_is_one_error_naming_it(
    pristine: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    case: str,
    change: Callable[[Path], None],
    named: str,
) -> None:
    stack_file = f"stacks/Pulumi.{STACK}.yaml"
    root = _repo(pristine, tmp_path, _replace_by_link(change, stack_file))
    before = tree(root)
    outcome = _diff(root, tmp_path, None if case in HANGS else monkeypatch)
    assert_refused(outcome, ("main (", named, "trainstack never follows one"))
    assert tree(root) == before
    assert os.listdir(_scratch(tmp_path)) == []


_FULL_DISK = r"""
import json, os, subprocess, sys
mount, root, cache, pythonpath = sys.argv[1:5]
result = subprocess.run(
    [sys.executable, "-m", "trainstack", "diff", "--base", "main", "onprem"],
    cwd=root, capture_output=True, text=True,
    env={**os.environ, "PYTHONPATH": pythonpath, "TMPDIR": mount,
         "TRAINSTACK_CACHE_DIR": cache},
)
print(json.dumps({"status": result.returncode, "stderr": result.stderr,
                  "left": os.listdir(mount)}))
"""


def test_a_full_disk_while_extracting_is_one_error_line(pristine: Path, tmp_path: Path) -> None:
    """A real tmpfs of 256 KiB (in a private mount namespace) as the scratch directory."""
    outcome = in_small_tmpfs(tmp_path / "mnt", 256, _FULL_DISK, pristine, tmp_path / "cache", REPO)
    assert outcome["status"] == 2
    (line,) = outcome["stderr"].splitlines()
    assert line.startswith("error: cannot extract main (")
    assert line.endswith("the file system is full (No space left on device)")
    assert outcome["left"] == []  # the partial checkout is removed
