"""Chart references: HTTPS or OCI only, no credentials in the URL, names that are no paths."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from trainstack.config.charts import ChartRef, HelmRelease
from trainstack.core.validation import problems_from

CHART = {"repo": "oci://registry.example.com/charts", "name": "mpi-operator", "version": "0.6.0"}


def _problems(model: Any, data: dict[str, Any]) -> list[tuple[str, str, str]]:
    with pytest.raises(ValidationError) as caught:
        model.model_validate(data)
    return [(p.path, p.found, p.allowed) for p in problems_from(caught.value, model)]


@pytest.mark.parametrize(
    "repo", ["https://charts.example.com/", "oci://registry.example.com/charts", "https://x"]
)
def test_https_and_oci_repositories(repo: str) -> None:
    assert ChartRef.model_validate({**CHART, "repo": repo}).repo == repo


@pytest.mark.parametrize(
    "repo", ["http://charts.example.com/", "file:///etc", "https://x/\n", "registry/charts"]
)
def test_other_repositories_are_refused(repo: str) -> None:
    ((path, _, allowed),) = _problems(ChartRef, {**CHART, "repo": repo})
    assert (path, allowed) == (
        "repo",
        "an https:// or oci:// URL, without credentials (`user:password@`)",
    )


def test_credentials_in_a_repository_url_are_refused_unseen() -> None:
    ((path, found, allowed),) = _problems(
        ChartRef, {**CHART, "repo": "https://deployer:Hunter2@charts.example.com/"}
    )
    assert (path, found) == ("repo", '"a URL with credentials (not shown)"')
    assert "helm registry login" in allowed


@pytest.mark.parametrize("name", ["ack arena", "../x", "a/b", "Arena", "", "x\n", "a" * 64])
def test_chart_names_are_dns_labels(name: str) -> None:
    ((path, _, allowed),) = _problems(ChartRef, {**CHART, "name": name})
    assert path == "name"
    assert allowed.startswith(("a DNS label", "a string of at"))


def test_the_default_release_name_must_fit_helm() -> None:
    long_name = "a" * 54
    release = {"chart": {**CHART, "name": long_name}, "namespace": "ops"}
    ((path, _, allowed),) = _problems(HelmRelease, release)
    assert path == "releaseName"
    assert allowed.startswith("a release name of at most 53 characters")
    assert HelmRelease.model_validate({**release, "releaseName": "short"}).name == "short"
