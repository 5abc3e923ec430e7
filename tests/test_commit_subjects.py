"""Commit subjects are at most 72 characters: the commit-msg hook in scripts/hooks refuses
a longer one, and every commit since the rule (:data:`BASE`) keeps to it."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.stack_helpers import REPO

Ran = subprocess.CompletedProcess[str]
HOOK = REPO / "scripts" / "hooks" / "commit-msg"
BASE = "7cb0ccc06d6f9def73c487ba26dae8820fbd8966"
"""The last commit before subjects were held to 72 characters (issue 39): earlier subjects
were paragraphs, and history is not rewritten."""


def _hook(tmp_path: Path, *messages: str, names: list[str] | None = None) -> Ran:
    files = []
    for index, message in enumerate(messages):
        path = tmp_path / (names[index] if names else f"message-{index}")
        path.write_text(message, encoding="utf-8")
        files.append(str(path))
    return subprocess.run(
        [sys.executable, str(HOOK), *files], capture_output=True, text=True, check=False
    )


def test_the_hook_refuses_a_subject_over_72_characters(tmp_path: Path) -> None:
    ran = _hook(tmp_path, "plan: " + "x" * 67 + "\n\nThe body may be as long as it needs.\n")
    assert ran.returncode == 1
    assert "the subject has 73 characters, at most 72" in ran.stderr


def test_a_subject_wrapped_over_two_lines_counts_as_git_shows_it(tmp_path: Path) -> None:
    """``git log --format=%s`` joins the first paragraph's lines: so does the hook."""
    ran = _hook(tmp_path, "plan: a subject that goes on\nand on " + "y" * 45 + "\n")
    assert ran.returncode == 1
    assert "the subject has 81 characters" in ran.stderr


def test_the_hook_accepts_72_characters_and_ignores_comment_lines(tmp_path: Path) -> None:
    message = "# Please enter the commit message\n\nplan: " + "x" * 66 + "\n\n" + "b" * 500
    ran = _hook(tmp_path, message, "\n# " + "c" * 100 + "\ndiff: short\n")
    assert (ran.returncode, ran.stderr) == (0, "")


def _git(*args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=REPO, capture_output=True, text=True, check=True
    ).stdout


def test_every_commit_since_the_rule_keeps_its_subject_to_72_characters(
    tmp_path: Path,
) -> None:
    """The history from :data:`BASE` to HEAD (CI checks out the whole history). Merge
    commits are left out: git writes their subjects (a pull request's test merge names two
    full commit hashes)."""
    if shutil.which("git") is None or not (REPO / ".git").exists():
        pytest.skip("not a git checkout")
    has_base = subprocess.run(
        ["git", "merge-base", "--is-ancestor", BASE, "HEAD"], cwd=REPO, capture_output=True
    )
    if has_base.returncode != 0:
        pytest.skip(f"the history lacks {BASE[:7]} (a shallow clone)")
    commits = [
        c.lstrip("\n").split("\1", 1)
        for c in _git("log", "--no-merges", "--format=%h%x01%B%x00", f"{BASE}..HEAD").split("\0")
    ]
    named = dict(commit for commit in commits if len(commit) == 2)
    if not named:
        return  # HEAD is BASE
    ran = _hook(tmp_path, *named.values(), names=[f"commit {name}" for name in named])
    assert ran.returncode == 0, ran.stderr
