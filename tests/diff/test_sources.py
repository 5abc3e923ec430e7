"""``--base GIT_REF``: each stack planned at a revision (its own code) vs the working tree."""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import pytest

from tests.diff.plan_dirs import commit_all, copy_project, git, init_repo
from trainstack.cli import main
from trainstack.core.errors import DiffError
from trainstack.core.project import Project
from trainstack.diff.sources import against_base

pytestmark = pytest.mark.slow  # left out of `make test-fast`

MASKING = Path("trainstack/plan/masking.py")
BASE_MARKER = "[computed at base]"


@pytest.fixture()
def repo(tmp_path: Path) -> Path:
    """A git repository holding a copy of the project, committed once.

    The committed code spells values known only after deployment differently, so a
    diff against that commit shows whether the revision's own code made its plan.
    """
    root = copy_project(tmp_path / "repo")
    masking = root / MASKING
    original = masking.read_text()
    masking.write_text(original.replace('COMPUTED = "[computed]"', f'COMPUTED = "{BASE_MARKER}"'))
    init_repo(root)
    masking.write_text(original)
    return root


@pytest.fixture()
def scratch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Where temporary checkouts and plans go, to check they are all removed."""
    directory = tmp_path / "scratch"
    directory.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(directory))
    return directory


def _state(root: Path) -> list[str]:
    """What a diff must never touch: the tree and index, HEAD, branches, stash, worktrees."""
    return [
        git(root, "status", "--porcelain", "--untracked-files=all"),
        git(root, "rev-parse", "HEAD"),
        git(root, "branch", "--list", "--all"),
        git(root, "stash", "list"),
        git(root, "worktree", "list", "--porcelain"),
    ]


def _set_size(root: Path, size: int) -> None:
    # the GPU pool's size, in the cluster template the ACK stacks share
    stack = root / "stacks" / "templates" / "workload-1-ack.yaml"
    text = stack.read_text()
    stack.write_text(text.replace("desiredSize: 4", f"desiredSize: {size}"))


def test_base_revision_is_planned_with_its_own_code_and_compared(repo: Path, scratch: Path) -> None:
    _set_size(repo, 6)
    before = _state(repo)

    [compared] = against_base(Project.load(repo), "HEAD", ["baseline"], context=0)

    result = compared.diff
    assert (result.before_label, result.after_label) == ("baseline@HEAD", "baseline")
    pool = [
        item
        for item in result.shown
        if item.key.label == "alicloud:cs/nodePool:NodePool gpu-v100-pool"
    ]
    assert [line for line in pool[0].diff_lines if line.startswith(("-  d", "+  d"))] == [
        "-  desiredSize: '4'",
        "+  desiredSize: '6'",
    ]
    removed = [line for item in result.shown for line in item.diff_lines if line.startswith("-")]
    assert any(BASE_MARKER in line for line in removed), "the base ran the working tree's code"
    assert _state(repo) == before
    assert list(scratch.iterdir()) == []


def test_command_with_base_prints_markdown_data_at_risk_first_and_exits_3(
    repo: Path,
    scratch: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    _set_size(repo, 6)
    monkeypatch.chdir(repo)
    monkeypatch.setattr(
        sys, "argv", ["trainstack", "diff", "--base", "main", "baseline", "--format", "markdown"]
    )

    with pytest.raises(SystemExit) as stop:
        main()

    out = capsys.readouterr().out
    # The base spells unknown values its own way (BASE_MARKER), so the NAS server of the
    # PVs (ImageNet's, the results') reads as changed: replacements of protected PVs, which
    # must come first.
    assert stop.value.code == 3
    assert out.startswith("> [!CAUTION]\n> **Data at risk:** 2 data-bearing resource(s)")
    assert "> - replaced `PersistentVolume imagenet-data` (`baseline@main` → `baseline`)" in out
    assert "> - replaced `PersistentVolume training-results` (`baseline@main` → `baseline`)" in out
    assert "| `baseline@main` → `baseline` |" in out
    assert "+  desiredSize: '6'" in out


def test_stack_only_in_the_working_tree_is_all_added(repo: Path, scratch: Path) -> None:
    stacks = repo / "stacks"
    (stacks / "Pulumi.extra.yaml").write_text((stacks / "Pulumi.baseline.yaml").read_text())

    [compared] = against_base(Project.load(repo), "HEAD", ["extra"], context=3)

    result = compared.diff
    assert result.count("added") == len(result.objects) > 0
    assert result.notes == ("stack extra does not exist at HEAD: every object shows as added",)


def test_base_that_fails_to_plan_shows_its_error(repo: Path, scratch: Path) -> None:
    _set_size(repo, -1)
    commit_all(repo, "broken")
    # the working tree is fine again: only the base fails
    stack = repo / "stacks" / "templates" / "workload-1-ack.yaml"
    stack.write_text(stack.read_text().replace("desiredSize: -1", "desiredSize: 4"))

    with pytest.raises(
        DiffError, match=r"planning stack baseline at HEAD \(\w{7}\) failed"
    ) as error:
        against_base(Project.load(repo), "HEAD", ["baseline"], context=3)

    # named where it is written: the cluster template the stack names, its own key
    line = 1 + (repo / "stacks/templates/workload-1-ack.yaml").read_text().splitlines().index(
        "    desiredSize: 4"
    )
    assert (
        f"in stacks/templates/workload-1-ack.yaml:{line}: nodePools[0].desiredSize: found -1"
        in (str(error.value))
    )
    assert list(scratch.iterdir()) == []


def test_unknown_revision(repo: Path) -> None:
    with pytest.raises(DiffError, match=r"unknown git revision 'nope' in .*fetch-depth: 0"):
        against_base(Project.load(repo), "nope", [], context=3)


def test_unknown_stack_on_both_sides(repo: Path) -> None:
    with pytest.raises(DiffError, match=r"stack\(s\) nosuch exist neither at HEAD nor in the"):
        against_base(Project.load(repo), "HEAD", ["nosuch"], context=3)


def test_not_a_git_repository(tmp_path: Path) -> None:
    root = copy_project(tmp_path / "plain")

    with pytest.raises(DiffError, match=r"is not inside a git repository .* --base needs one"):
        against_base(Project.load(root), "HEAD", [], context=3)
