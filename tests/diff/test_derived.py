"""Derived content in a diff: the base-values digest said once, each preflight script one
line, the full text behind ``--full`` (issue 38, item 3)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.project_copy import copy_project, run_in_process
from trainstack.diff.derived import DIGEST_SHOWN, summarised
from trainstack.experiments.runs import DIGEST_ANNOTATION

EXPERIMENT = "experiments/pytorch-ddp-mnist.yaml"


@pytest.fixture(scope="module")
def env_change(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path]:
    """Plans of aiacc before and after a one-line env change of pytorch-ddp-mnist."""
    base = tmp_path_factory.mktemp("env-change")
    root = copy_project(base / "project")
    assert run_in_process(["plan", "aiacc", "-o", str(base / "a")], root).status == 0
    path = root / EXPERIMENT
    text = path.read_text()
    line = '  args: ["--backend", "nccl", "--epochs", "5"]\n'
    assert text.count(line) == 1
    path.write_text(text.replace(line, line + "  env: {NCCL_DEBUG: INFO}\n"))
    assert run_in_process(["plan", "aiacc", "-o", str(base / "b")], root).status == 0
    return root, base / "a" / "aiacc", base / "b" / "aiacc"


def _text(env_change: tuple[Path, Path, Path], *extra: str) -> list[str]:
    root, before, after = env_change
    ran = run_in_process(["diff", "--plans", str(before), str(after), *extra], root)
    assert ran.status == 1, ran.stderr
    return ran.stdout.splitlines()


def test_the_digest_is_said_once_and_the_script_in_one_line(
    env_change: tuple[Path, Path, Path],
) -> None:
    lines = _text(env_change)
    assert not [line for line in lines if DIGEST_ANNOTATION in line and "sha256:" in line[1:2]]
    (note,) = [line for line in lines if line.startswith(f"note: {DIGEST_ANNOTATION} changed")]
    assert note.startswith(
        f"note: {DIGEST_ANNOTATION} changed on 2 object(s), shown as '{DIGEST_SHOWN}': it "
        "follows the experiments' values (sha256:"
    )
    assert not any(line.lstrip(" +-").startswith(f"{DIGEST_ANNOTATION}: sha256") for line in lines)
    scripts = [line for line in lines if "(preflight script of chart training-job-" in line]
    assert scripts and all(line.startswith(" ") for line in scripts)  # context, unchanged
    assert not any("tsp_problem" in line for line in lines)
    # What changed is all there is: the env, twice in each of 2 pod templates, and the values.
    added = [line for line in lines if line.startswith("+ ") or line.startswith("+  ")]
    assert sum("NCCL_DEBUG" in line for line in added) == 5


def test_full_shows_the_digests_and_the_scripts(env_change: tuple[Path, Path, Path]) -> None:
    lines = _text(env_change, "--full")
    digests = [line for line in lines if f"{DIGEST_ANNOTATION}: sha256:" in line]
    assert len(digests) == 2 * 4  # before and after on the job, 2 pod templates, the release
    assert not any("(preflight script of chart" in line for line in lines)
    assert not any(line.startswith(f"note: {DIGEST_ANNOTATION}") for line in lines)


def test_a_changed_script_is_a_changed_line() -> None:
    def job(script: str) -> dict[str, object]:
        return {
            "metadata": {"labels": {"helm.sh/chart": "training-job-0.1.0"}},
            "spec": {"initContainers": [{"command": ["sh", "-c", script]}]},
        }

    old = summarised(job("# trainstack preflight: x\necho a\n")).document
    new = summarised(job("# trainstack preflight: x\necho b\n")).document
    shown = [d["spec"]["initContainers"][0]["command"][2] for d in (old, new)]  # type: ignore[index]
    assert shown[0] != shown[1]
    assert shown[0].startswith("(preflight script of chart training-job-0.1.0: sha256:")
    assert shown[0].endswith(", 3 lines; `trainstack diff --full` shows it)")
