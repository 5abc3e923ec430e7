"""trainstack:telemetry: off by default; a Prometheus in the cluster or at a URL, whose
credentials are a Kubernetes Secret's (never the stack's); distinct label names."""

from __future__ import annotations

from typing import Any

import pytest

from tests.config.conftest import Loader
from tests.stack_helpers import example_config
from trainstack.config.telemetry import PrometheusService, PrometheusUrl
from trainstack.core.errors import ConfigError


def _with(telemetry: Any) -> dict[str, Any]:
    config = example_config("aiacc")
    config["trainstack:telemetry"] = telemetry
    return config


def test_off_by_default(load: Loader) -> None:
    telemetry = load(example_config("aiacc")).config.telemetry
    assert telemetry.prometheus is None
    assert (telemetry.sm_active_floor, telemetry.resolution_seconds) == (0.3, 15)
    assert (telemetry.labels.pod, telemetry.labels.node) == ("exported_pod", "Hostname")


def test_in_the_cluster_or_at_a_url(load: Loader) -> None:
    service = {"kind": "service", "namespace": "monitoring", "name": "prometheus", "port": "web"}
    loaded = load(_with({"prometheus": service, "smActiveFloor": 0.5})).config.telemetry
    assert isinstance(loaded.prometheus, PrometheusService) and loaded.prometheus.port == "web"
    url = {
        "kind": "http-api",
        "url": "https://cn-beijing.arms.aliyuncs.com:9443/api/v1/prometheus/x/y/z/cn-beijing",
        "credentials": {"namespace": "monitoring", "name": "arms-read", "kind": "basic"},
    }
    loaded = load(_with({"prometheus": url})).config.telemetry
    assert isinstance(loaded.prometheus, PrometheusUrl)
    assert loaded.prometheus.credentials is not None


@pytest.mark.parametrize(
    "url",
    [
        "https://reader:s3cret@arms.example/api",
        "https://arms.example/api?token=s3cret",
        "ftp://arms.example/api",
    ],
)
def test_a_url_holds_no_credentials(load: Loader, url: str) -> None:
    with pytest.raises(ConfigError) as caught:
        load(_with({"prometheus": {"kind": "http-api", "url": url}}))
    (problem,) = caught.value.problems
    assert problem.path == "trainstack:telemetry.prometheus.url"


def test_label_names_are_distinct(load: Loader) -> None:
    with pytest.raises(ConfigError) as caught:
        load(_with({"labels": {"pod": "pod", "namespace": "pod"}}))
    (problem,) = caught.value.problems
    assert (problem.path, problem.found) == ("trainstack:telemetry.labels.namespace", '"pod"')
    assert problem.allowed == "a label name of its own (labels.pod)"


def test_the_floor_is_a_share(load: Loader) -> None:
    with pytest.raises(ConfigError) as caught:
        load(_with({"smActiveFloor": 30}))
    (problem,) = caught.value.problems
    assert problem.path == "trainstack:telemetry.smActiveFloor"
