"""The PR workflow's own steps, run as a runner runs them: the comment they build from a
real change, how they post it, and who may approve data at risk."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.cli_helpers import venv_launcher
from tests.diff.plan_dirs import copy_project, git, init_repo
from tests.diff.workflow_steps import fake_gh, run_step, workflow
from trainstack.diff.budget import GITHUB_COMMENT_LIMIT

pytestmark = pytest.mark.slow  # left out of `make test-fast`

REPORT = "Diff every stack against the target branch, and the fairness report"
POST = "Post or update the PR comment"
APPROVE = "Approved by a required reviewer of data-loss-approval"
SCRATCH_DATASET = (
    "    - name: scratch-data\n"
    "      namespace: nlp\n"
    "      capacity: 100Gi\n"
    "      source: {type: nfs, server: 192.168.0.5, path: /export/scratch}\n"
)


def _with_scratch_dataset(text: str) -> str:
    marker = "  trainstack:datasets:\n"
    assert marker in text
    return text.replace(marker, marker + SCRATCH_DATASET, 1)


@pytest.fixture(scope="module")
def removed_dataset(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A clone whose target branch (origin/main) has a dataset `scratch-data` on both
    cluster stacks, and whose pull request removes it: (working tree, runner scratch)."""
    base = tmp_path_factory.mktemp("pull-request")
    root = copy_project(base / "repo")
    (root / ".gitignore").write_text(".venv/\nbuild/\n")
    stacks = [root / "stacks" / f"Pulumi.{stack}.yaml" for stack in ("aiacc", "baseline")]
    originals = [path.read_text() for path in stacks]
    for path, text in zip(stacks, originals, strict=True):
        path.write_text(_with_scratch_dataset(text))
    init_repo(root)
    git(root, "update-ref", "refs/remotes/origin/main", "HEAD")
    for path, text in zip(stacks, originals, strict=True):
        path.write_text(text)  # the pull request: the dataset is gone
    venv_launcher(root)  # the workflow runs the project's .venv/bin/trainstack
    scratch = base / "runner"
    scratch.mkdir()
    return root, scratch


def test_a_removed_dataset_puts_the_caution_first_within_the_budget(
    removed_dataset: tuple[Path, Path],
) -> None:
    root, scratch = removed_dataset

    ran = run_step("diff", REPORT, root, scratch, {"GITHUB_BASE_REF": "main"})

    assert ran.status == 0, ran.stderr  # data at risk is approved by another job
    assert ran.outputs == {"fairness": "0", "diff": "3"}
    comment = (root / "build" / "comment.md").read_text()
    assert ran.summary == comment
    assert len(comment) <= GITHUB_COMMENT_LIMIT
    lines = comment.splitlines()
    assert lines[:5] == [
        workflow()["env"]["COMMENT_MARKER"],
        "## trainstack preview",
        "",
        "> [!CAUTION]",
        "> **Data at risk:** 2 data-bearing resource(s) deleted or replaced. Approve "
        "deliberately (`trainstack diff` exit status 3).",
    ]
    assert lines[6:8] == [
        f"> - deleted `PersistentVolume scratch-data` (`{stack}@origin/main` → `{stack}`): "
        "`` not in the new plan; protected: `pulumi up` fails until `pulumi state unprotect` ``"
        for stack in ("aiacc", "baseline")
    ]
    # Then per stack what changed, then the approval it needs, then fairness.
    order = [
        "### trainstack diff",
        "#### `aiacc@origin/main` → `aiacc`",
        "| removed | `PersistentVolume scratch-data` |",
        "#### `baseline@origin/main` → `baseline`",
        "> [!IMPORTANT]",
        "### trainstack fairness: `aiacc` → `baseline`",
    ]
    assert [lines.index(line) for line in order] == sorted(lines.index(line) for line in order)
    assert "`data-loss-approval`" in lines[lines.index("> [!IMPORTANT]") + 1]


def test_the_comment_is_posted_once_then_edited_in_place(tmp_path: Path) -> None:
    env = {"GITHUB_REPOSITORY": "example/trainstack", "PR_NUMBER": "7", "GH_TOKEN": "t"}

    for found, expected in (("", "--method POST"), ("4242", "--method PATCH")):
        tools = fake_gh(tmp_path / f"gh-{found or 'none'}", found)
        path = {"PATH": f"{tools}{os.pathsep}{os.environ['PATH']}"}
        ran = run_step("diff", POST, tmp_path, tmp_path, {**env, **path})
        assert ran.status == 0, ran.stderr
        calls = (tools / "gh.log").read_text().splitlines()
        assert calls[0].startswith("api repos/example/trainstack/issues/7/comments --paginate")
        assert len(calls) == 2 and calls[1].startswith(f"api {expected} repos/example/")
        assert calls[1].endswith("-F body=@build/comment.md")
    assert "issues/comments/4242" in calls[1]


@pytest.mark.parametrize(
    ("rules", "status"),
    [("0", 1), ("1", 0)],
    ids=["no-required-reviewers", "required-reviewers"],
)
def test_data_at_risk_passes_only_behind_required_reviewers(
    tmp_path: Path, rules: str, status: int
) -> None:
    tools = fake_gh(tmp_path / "gh", rules)
    env = {
        "GITHUB_REPOSITORY": "example/trainstack",
        "GH_TOKEN": "t",
        "PATH": f"{tools}{os.pathsep}{os.environ['PATH']}",
    }

    ran = run_step("data-loss-approval", APPROVE, tmp_path, tmp_path, env)

    assert ran.status == status, ran.stdout + ran.stderr
    [call] = (tools / "gh.log").read_text().splitlines()
    assert call.startswith("api repos/example/trainstack/environments/data-loss-approval --jq")
    if status:
        assert ran.stdout.startswith(
            "::error::the environment data-loss-approval has no required reviewers"
        )


def test_a_failing_plan_makes_a_comment_that_says_so_and_why(tmp_path: Path) -> None:
    """The previous comment is replaced by one that says the plan failed, with its error;
    the job fails after posting it."""
    root = copy_project(tmp_path / "repo")
    (root / ".gitignore").write_text(".venv/\nbuild/\n")
    init_repo(root)
    git(root, "update-ref", "refs/remotes/origin/main", "HEAD")
    template = root / "stacks" / "templates" / "workload-1-ack.yaml"
    lines = template.read_text().splitlines(keepends=True)
    line = next(i for i, text in enumerate(lines) if "desiredSize: 4" in text)
    lines[line] = lines[line].replace("desiredSize: 4", "desiredSize: -1")
    template.write_text("".join(lines))  # the pull request breaks both cluster stacks
    venv_launcher(root)
    scratch = tmp_path / "runner"
    scratch.mkdir()

    ran = run_step("diff", REPORT, root, scratch, {"GITHUB_BASE_REF": "main"})

    assert ran.status == 0, ran.stderr  # posted first; the next step fails the job
    assert ran.outputs == {"fairness": "2", "diff": "2"}
    comment = (root / "build" / "comment.md").read_text().splitlines()
    assert comment[2:6] == ["", "### trainstack diff", "", "> [!CAUTION]"]
    assert comment[6].startswith("> **Failed:** no diff could be made (")
    error = (
        f"stacks/templates/workload-1-ack.yaml:{line + 1}: nodePools[0].desiredSize: "
        "found -1; allowed: a number >= 0`"
    )
    assert any(
        text.startswith("- `error: invalid stack") and text.endswith(error) for text in comment
    )
    failing = [
        s for s in workflow()["jobs"]["diff"]["steps"] if "a plan failed" in s.get("name", "")
    ]
    assert failing[0]["if"] == (
        "steps.report.outputs.diff == '2' || steps.report.outputs.fairness == '2'"
    )
