"""A project copy, a loopback cluster that takes applies, and a campaign of known name."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.cli_helpers import project_copy
from tests.live.apiserver import RecordedApi, kubeconfig, serve
from tests.submit.jobs import CAMPAIGN, Jobs
from trainstack.submit import follow, runset

BUILT_IMAGE = "registry.example.com/vision/aiacc-ssh:v3.0"
"""The image workload 1's file asks to be built (images/aiacc-ssh), as if built and set."""


@pytest.fixture()
def root(tmp_path: Path) -> Path:
    """A copy of the project (stacks, experiments, the chart) to run commands in, the
    flagship's image set (runs of values still to set are refused)."""
    copy = project_copy(tmp_path / "project")
    (copy / "charts").symlink_to(Path(__file__).parents[2] / "charts")
    experiment = copy / "experiments" / "imagenet-tensorflow.yaml"
    text = experiment.read_text()
    placeholder = next(line for line in text.splitlines() if line.startswith("    name: <"))
    experiment.write_text(text.replace(placeholder, f"    name: {BUILT_IMAGE}"))
    return copy


@pytest.fixture(autouse=True)
def _known_campaign(monkeypatch: pytest.MonkeyPatch) -> None:
    """Runs named after campaign ``abc123``; no wait between two polls."""
    monkeypatch.setattr(runset, "campaign_id", lambda: CAMPAIGN)
    monkeypatch.setattr(follow, "pause", lambda seconds: None)


@pytest.fixture()
def api() -> RecordedApi:
    return RecordedApi()


@pytest.fixture()
def jobs(api: RecordedApi) -> Jobs:
    return Jobs(api)


@pytest.fixture()
def cluster(api: RecordedApi, tmp_path: Path) -> Iterator[Path]:
    """The loopback API, and a kubeconfig file that points at it."""
    for url in serve(api):
        yield kubeconfig(tmp_path / "aiacc.kubeconfig", url)
