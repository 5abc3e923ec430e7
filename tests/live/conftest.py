"""Fixtures of the recorded cluster (``recorded_jobs``, ``recorded_cluster``) on loopback."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.cli_helpers import project_copy
from tests.live.apiserver import RecordedApi, kubeconfig, serve
from tests.live.recorded_jobs import record_jobs
from trainstack.core.project import Project
from trainstack.experiments.lookup import load_stack_experiments


@pytest.fixture()
def root(tmp_path: Path) -> Path:
    """A copy of the project (stacks, experiments) to run commands in."""
    return project_copy(tmp_path / "project")


@pytest.fixture()
def digests(root: Path) -> dict[str, str]:
    """The base-values digest of each experiment of the aiacc stack, as declared now."""
    resolved = load_stack_experiments(Project.load(root), "aiacc")
    return {run.point_name: run.base_digest for run in resolved.runs}


@pytest.fixture()
def api(digests: dict[str, str]) -> RecordedApi:
    """The recorded cluster; jobs carry the digests of the stack's current experiments."""
    recorded = RecordedApi(replacements={"DIGEST": digests["imagenet-tensorflow"]})
    record_jobs(recorded)
    return recorded


@pytest.fixture()
def cluster(api: RecordedApi, tmp_path: Path) -> Iterator[Path]:
    """The recorded API on loopback, and a kubeconfig file that points at it."""
    for url in serve(api):
        yield kubeconfig(tmp_path / "aiacc.kubeconfig", url)
