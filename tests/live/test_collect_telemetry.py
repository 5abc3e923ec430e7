"""``results collect`` with the stack's Prometheus: each run's GPU telemetry, flags and
goodput, read from a loopback Prometheus HTTP API through the real client, in the API
server's service proxy or at a URL with a Secret's credentials; without one, "telemetry
not collected" and nothing else."""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pytest

from tests.cli_helpers import run
from tests.live.apiserver import RecordedApi, Route
from tests.live.recorded_jobs import MPIJOBS
from tests.live.recorded_prometheus import CREATED, dcgm_answer, serve_answer, steady
from trainstack.results import telemetry
from trainstack.results.dcgm import DcgmField

PROXY = "/api/v1/namespaces/monitoring/services/prometheus-k8s:9090/proxy"
IMAGENET_QUERY = (
    '{__name__=~"DCGM_FI_PROF_SM_ACTIVE|DCGM_FI_PROF_PIPE_TENSOR_ACTIVE|'
    "DCGM_FI_PROF_DRAM_ACTIVE|DCGM_FI_PROF_NVLINK_TX_BYTES|DCGM_FI_PROF_NVLINK_RX_BYTES|"
    "DCGM_FI_PROF_PCIE_TX_BYTES|DCGM_FI_PROF_PCIE_RX_BYTES|DCGM_FI_DEV_POWER_USAGE|"
    "DCGM_FI_DEV_SM_CLOCK|DCGM_FI_DEV_CLOCKS_EVENT_REASONS|DCGM_FI_DEV_XID_ERRORS|"
    "DCGM_FI_DEV_ECC_SBE_VOL_TOTAL|DCGM_FI_DEV_ECC_DBE_VOL_TOTAL|DCGM_FI_DEV_POWER_VIOLATION|"
    'DCGM_FI_DEV_THERMAL_VIOLATION",exported_namespace="vision",'
    'exported_pod=~"imagenet-tensorflow(-launcher|-worker-[0-9]+)(-[a-z0-9]{5})?"}'
)
SERVICE = """
  trainstack:telemetry:
    prometheus: {kind: service, namespace: monitoring, name: prometheus-k8s, port: 9090}
"""
EMPTY = {"status": "success", "data": {"resultType": "matrix", "result": []}}


def _with(root: Path, text: str) -> None:
    stack = root / "stacks" / "Pulumi.aiacc.yaml"
    stack.write_text(stack.read_text() + text)


def _collect(root: Path, cluster: Path, monkeypatch: pytest.MonkeyPatch) -> dict:  # type: ignore[type-arg]
    args = ("results", "collect", "aiacc", "--kubeconfig", str(cluster), "--format", "json")
    ran = run(root, *args, monkeypatch=monkeypatch)
    assert ran.code == 0, ran.stderr
    return json.loads(ran.stdout)  # type: ignore[no-any-return]


def test_without_prometheus_runs_say_telemetry_not_collected(
    root: Path, cluster: Path, api: RecordedApi, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = run(root, "results", "collect", "aiacc", "--kubeconfig", str(cluster),
               monkeypatch=monkeypatch).stdout  # fmt: skip
    lines = text.splitlines()
    assert lines[0] == (
        "results/aiacc/imagenet-tensorflow/run-001.json: run 1: duration 1500 s, "
        "images_per_sec 1344 images/sec; telemetry not collected"
    )
    assert lines[-1] == (
        "telemetry not collected: trainstack:telemetry.prometheus is not set (docs/telemetry.md)"
    )
    document = _collect(root, cluster, monkeypatch)  # again: the same logs, skipped
    record = document["skipped"][0]["record"]
    assert record["telemetry"] == "not collected"
    # Goodput from the job's own times: created 10:00:00, started 10:00:00, done 10:25:00.
    goodput = record["goodput"]
    assert (goodput["wallSeconds"], goodput["queuedSeconds"], goodput["restarts"]) == (
        1500.0,
        0.0,
        0,
    )
    assert goodput["toFirstStepSeconds"] is None and goodput["goodput"] is None
    assert not [seen for seen in api.seen if "query_range" in seen or "/proxy/" in seen]


def test_each_run_reads_its_own_gpus_through_the_service_proxy(
    root: Path, cluster: Path, api: RecordedApi, monkeypatch: pytest.MonkeyPatch
) -> None:
    _with(root, SERVICE)
    serve_answer(api, PROXY, EMPTY)  # the TFJob's GPUs: no series
    serve_answer(api, PROXY, dcgm_answer(), query=IMAGENET_QUERY)
    document = _collect(root, cluster, monkeypatch)
    # (keras-lstm-4x1 failed before its launcher started: recorded, with no series either)
    imagenet, _, mnist = (item["record"] for item in document["recorded"])
    telemetry = imagenet["telemetry"]
    assert telemetry["query"] == IMAGENET_QUERY
    assert (telemetry["start"], telemetry["end"], telemetry["stepSeconds"]) == (
        "2024-05-06T10:00:00Z",
        "2024-05-06T10:25:00Z",
        15,
    )
    assert telemetry["gpus"] == 16 and len(telemetry["nodes"]) == 4
    # 101 points per GPU: 4 idle (0), then 97 at 0.82 -> mean 0.82 * 97 / 101.
    assert telemetry["fields"]["DCGM_FI_PROF_SM_ACTIVE"] == {
        "mean": 0.7875,
        "p5": 0.82,
        "p95": 0.82,
        "samples": 1616,
        "missing": 0,
        "increase": None,
    }
    assert telemetry["fields"]["DCGM_FI_DEV_ECC_DBE_VOL_TOTAL"]["increase"] == 0
    assert telemetry["series"]["DCGM_FI_DEV_POWER_USAGE"][:5] == [60, 60, 60, 60, 280]
    assert telemetry["flags"] == [] and telemetry["notExported"] == []
    assert imagenet["goodput"]["toFirstStepSeconds"] == 60
    assert imagenet["goodput"]["trainingSeconds"] == 97 * 15
    assert imagenet["goodput"]["goodput"] == 0.97
    assert any("no DCGM series" in note for note in mnist["telemetry"]["notes"])
    proxied = [
        (seen, auth)
        for seen, auth in zip(api.seen, api.authorizations, strict=True)
        if PROXY in seen
    ]
    assert len(proxied) == 3  # one range query per run
    assert all(auth == "Bearer test-token-not-a-secret" for _, auth in proxied)


def _throttled(field: DcgmField, node: str, gpu: int, index: int) -> str:
    if field.name == "DCGM_FI_DEV_CLOCKS_EVENT_REASONS" and gpu == 2 and index >= 50:
        return str(0x40 | 0x04)  # hardware thermal slowdown, with the power cap
    if field.name == "DCGM_FI_DEV_XID_ERRORS" and node.endswith(".23") and index >= 90:
        return "79"
    if field.name == "DCGM_FI_DEV_ECC_DBE_VOL_TOTAL" and gpu == 1 and node.endswith(".24"):
        return "0" if index < 10 else "2"
    return "0.1" if field.name == "DCGM_FI_PROF_SM_ACTIVE" else steady(field, node, gpu, index)


def test_throttling_xid_ecc_and_idle_gpus_flag_the_run(
    root: Path, cluster: Path, api: RecordedApi, monkeypatch: pytest.MonkeyPatch
) -> None:
    _with(root, SERVICE)
    serve_answer(api, PROXY, EMPTY)
    serve_answer(api, PROXY, dcgm_answer(value=_throttled), query=IMAGENET_QUERY)
    record = _collect(root, cluster, monkeypatch)["recorded"][0]["record"]
    flags = {flag["kind"]: flag["reason"] for flag in record["telemetry"]["flags"]}
    assert flags["throttled"].startswith(
        "hardware thermal slowdown on node cn-beijing.192.168.0.21 GPU 2 in 51 of 101 samples"
    )
    assert flags["throttled"].endswith("; and 1 more GPU(s)")
    assert flags["xid-error"] == (
        "XID 79 on node cn-beijing.192.168.0.23 GPU 0 (reported during the run); XID 79 on "
        "node cn-beijing.192.168.0.23 GPU 1 (reported during the run); XID 79 on node "
        "cn-beijing.192.168.0.23 GPU 2 (reported during the run); and 1 more GPU(s)"
    )
    assert flags["ecc-error"] == "2 double-bit on node cn-beijing.192.168.0.24 GPU 1"
    assert flags["low-sm-active"].startswith(
        "node cn-beijing.192.168.0.21 GPU 0 SM active 0.10 on average, below the floor 0.3"
    )
    text = run(root, "results", "collect", "aiacc", "--kubeconfig", str(cluster),
               monkeypatch=monkeypatch)  # fmt: skip
    assert text.code == 0


def test_a_url_gets_the_secrets_credentials_and_never_shows_them(
    root: Path, cluster: Path, api: RecordedApi, monkeypatch: pytest.MonkeyPatch
) -> None:
    token = "s3cr3t-arms-t0ken"
    secret = {
        "apiVersion": "v1",
        "kind": "Secret",
        "metadata": {"name": "arms-read", "namespace": "monitoring"},
        "type": "Opaque",
        "data": {"token": base64.b64encode(f"{token}\n".encode()).decode()},
    }
    api.object("/api/v1/namespaces/monitoring/secrets/arms-read", secret)
    server = api_url(cluster)
    _with(
        root,
        "  trainstack:telemetry:\n    prometheus:\n      kind: http-api\n"
        f"      url: {server}/arms/prom\n"
        "      credentials: {namespace: monitoring, name: arms-read, kind: bearer}\n",
    )
    serve_answer(api, "/arms/prom", EMPTY)
    document = _collect(root, cluster, monkeypatch)
    sent = [
        auth
        for seen, auth in zip(api.seen, api.authorizations, strict=True)
        if "/arms/prom/" in seen
    ]
    assert sent == [f"Bearer {token}"] * 3  # one range query per run
    assert token not in json.dumps(document)
    assert not any(token in path.read_text() for path in (root / "results").rglob("*.json"))


def test_a_secret_without_its_key_is_one_error_and_nothing_is_written(
    root: Path, cluster: Path, api: RecordedApi, monkeypatch: pytest.MonkeyPatch
) -> None:
    secret = {"kind": "Secret", "metadata": {"name": "arms-read"}, "data": {"user": "eA=="}}
    api.object("/api/v1/namespaces/monitoring/secrets/arms-read", secret)
    _with(
        root,
        "  trainstack:telemetry:\n    prometheus:\n      kind: http-api\n"
        "      url: https://arms.example/api/prom\n"
        "      credentials: {namespace: monitoring, name: arms-read, kind: basic}\n",
    )
    args = ("results", "collect", "aiacc", "--kubeconfig", str(cluster))
    ran = run(root, *args, monkeypatch=monkeypatch)
    assert ran.code == 2
    assert ran.stderr == (
        "error: reading Secret monitoring/arms-read (trainstack:telemetry.prometheus."
        "credentials): it has no `username` key (basic credentials)\n"
    )
    assert not (root / "results").exists()


def test_a_failing_prometheus_stops_collect_with_nothing_written(
    root: Path, cluster: Path, api: RecordedApi, monkeypatch: pytest.MonkeyPatch
) -> None:
    _with(root, SERVICE)
    error = {"status": "error", "errorType": "timeout", "error": "query timed out"}
    serve_answer(api, PROXY, error, status=503)
    ran = run(root, "results", "collect", "aiacc", "--kubeconfig", str(cluster),
              monkeypatch=monkeypatch)  # fmt: skip
    assert ran.code == 2 and ran.stderr.count("\n") == 1
    assert ran.stderr.startswith(
        "error: reading the GPU telemetry of MPIJob vision/imagenet-tensorflow: Prometheus "
        "service monitoring/prometheus-k8s:9090 (through context 'aiacc-admin'"
    )
    assert "answered 503 (timeout: query timed out)" in ran.stderr
    assert not (root / "results").exists()


def api_url(kubeconfig_file: Path) -> str:
    """The loopback API server's URL the kubeconfig points at."""
    document = json.loads(kubeconfig_file.read_text())
    return str(document["clusters"][0]["cluster"]["server"])


def _failed_imagenet(api: RecordedApi, log: bytes | None = None) -> None:
    """imagenet-tensorflow's job as failed at 10:20:00 (no completionTime)."""
    job = api.items("mpijob-imagenet-tensorflow.json")[0]
    job["status"].pop("completionTime")
    job["status"]["conditions"][-1].update(
        {"type": "Failed", "lastTransitionTime": "2024-05-06T10:20:00Z", "reason": "MPIJobFailed"}
    )
    document = {"apiVersion": "kubeflow.org/v2beta1", "kind": "MPIJobList", "items": [job],
                "metadata": {"resourceVersion": "1"}}  # fmt: skip
    selector = {"labelSelector": "trainstack.io/experiment=imagenet-tensorflow"}
    api.routes.insert(0, Route(MPIJOBS, selector, body=json.dumps(document).encode()))
    if log is not None:
        path = "/api/v1/namespaces/vision/pods/imagenet-tensorflow-launcher/log"
        api.routes.insert(0, Route(path, {"container": "launcher"}, 200, log, "text/plain"))


def test_a_failed_run_is_recorded_as_failed_over_its_own_window(
    root: Path, cluster: Path, api: RecordedApi, monkeypatch: pytest.MonkeyPatch
) -> None:
    _failed_imagenet(api)
    _with(root, SERVICE)
    serve_answer(api, PROXY, EMPTY)
    # Created 10:00:00, failed 10:20:00: 1200 s at 15 s, 81 points.
    serve_answer(api, PROXY, dcgm_answer(end=CREATED + 1200), query=IMAGENET_QUERY)
    record = _collect(root, cluster, monkeypatch)["recorded"][0]["record"]
    assert record["job"]["phase"] == "Failed" and record["metrics"]["images_per_sec"]
    assert record["telemetry"]["end"] == "2024-05-06T10:20:00Z"
    assert record["goodput"]["wallSeconds"] == 1200


def test_a_failed_run_without_metrics_is_still_recorded(
    root: Path, cluster: Path, api: RecordedApi, monkeypatch: pytest.MonkeyPatch
) -> None:
    _failed_imagenet(api, b"Traceback (most recent call last):\nOSError: out of memory\n")
    document = _collect(root, cluster, monkeypatch)
    record = document["recorded"][0]["record"]
    assert (record["job"]["phase"], record["metrics"]) == ("Failed", {})
    assert (
        "imagenet-tensorflow: imagenet-tensorflow: Failed, recorded without metrics (its log "
        "reports none)"
    ) in document["notes"]
    text = run(root, "results", "add", "aiacc", "imagenet-tensorflow",
               str(root / "results/aiacc/imagenet-tensorflow/run-001.log"),
               monkeypatch=monkeypatch)  # fmt: skip
    assert text.code == 2  # a saved log must report its metrics: only failed jobs may not


@pytest.mark.parametrize(
    ("answer", "said"),
    [
        (
            dcgm_answer(nodes=("n" * 300,), gpus_per_node=1),
            "answered a `Hostname` label of 300 characters, more than 253",
        ),
        (
            dcgm_answer(gpus_per_node=17),  # 68 GPUs for a run of 16
            "answered series of 68 GPUs for a run of 16: the label matchers caught other pods'",
        ),
    ],
)
def test_an_answer_a_results_file_could_not_hold_is_refused(
    root: Path,
    cluster: Path,
    api: RecordedApi,
    monkeypatch: pytest.MonkeyPatch,
    answer: dict,  # type: ignore[type-arg]
    said: str,
) -> None:
    _with(root, SERVICE)
    serve_answer(api, PROXY, answer, query=IMAGENET_QUERY)
    ran = run(root, "results", "collect", "aiacc", "--kubeconfig", str(cluster),
              monkeypatch=monkeypatch)  # fmt: skip
    assert ran.code == 2 and said in ran.stderr and ran.stderr.count("\n") == 1
    assert not (root / "results").exists()


def test_telemetry_past_its_size_is_refused(
    root: Path, cluster: Path, api: RecordedApi, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(telemetry, "MAX_TELEMETRY_BYTES", 10_000)
    _with(root, SERVICE)
    serve_answer(api, PROXY, dcgm_answer(), query=IMAGENET_QUERY)
    ran = run(root, "results", "collect", "aiacc", "--kubeconfig", str(cluster),
              monkeypatch=monkeypatch)  # fmt: skip
    assert ran.code == 2
    assert "bytes of telemetry for one run, more than 10000 (trainstack's limit" in ran.stderr


def test_a_service_the_api_server_does_not_know_is_its_status(
    root: Path, cluster: Path, api: RecordedApi, monkeypatch: pytest.MonkeyPatch
) -> None:
    _with(root, SERVICE)  # no route: the API server's 404 Status
    ran = run(root, "results", "collect", "aiacc", "--kubeconfig", str(cluster),
              monkeypatch=monkeypatch)  # fmt: skip
    assert ran.code == 2
    assert ran.stderr.endswith("answered 404 (the server could not find the requested resource)\n")


def test_an_https_service_is_named_so_in_the_proxy_path(
    root: Path, cluster: Path, api: RecordedApi, monkeypatch: pytest.MonkeyPatch
) -> None:
    _with(root, SERVICE.replace("port: 9090}", "port: web, scheme: https}"))
    proxy = "/api/v1/namespaces/monitoring/services/https:prometheus-k8s:web/proxy"
    serve_answer(api, proxy, EMPTY)
    record = _collect(root, cluster, monkeypatch)["recorded"][0]["record"]
    assert record["telemetry"]["source"].startswith("Prometheus service monitoring/")
    assert sum(1 for seen in api.seen if seen.startswith(proxy + "/api/v1/query_range?")) == 3
