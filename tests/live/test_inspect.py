"""``trainstack inspect``: the real lightkube client reads the recorded cluster on loopback."""

from __future__ import annotations

import base64
import json
import random
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.cli_helpers import Ran, run
from tests.live.apiserver import DATA, RecordedApi, Route, kubeconfig, serve
from tests.live.recorded_cluster import NODES, Shape, nodes, record_cluster, recorded

GFD_LABELS = [
    "nvidia.com/gpu.product",
    "nvidia.com/gpu.memory",
    "nvidia.com/gpu.count",
    "nvidia.com/cuda.driver-version.full",
    "nvidia.com/cuda.driver.major",
    "nvidia.com/cuda.driver.minor",
    "nvidia.com/cuda.driver.rev",
    "nvidia.com/cuda.runtime-version.full",
    "nvidia.com/cuda.runtime.major",
    "nvidia.com/cuda.runtime.minor",
]
ACK_LABELS = [
    "aliyun.accelerator/nvidia_name",
    "aliyun.accelerator/nvidia_mem",
    "aliyun.accelerator/nvidia_count",
]


@pytest.fixture()
def served(tmp_path: Path) -> Iterator[tuple[RecordedApi, Path]]:
    """An empty recorded API on loopback (each test records its cluster), and a kubeconfig."""
    api = RecordedApi()
    for url in serve(api):
        yield api, kubeconfig(tmp_path / "aiacc.kubeconfig", url)


def inspect(root: Path, config: Path, monkeypatch: pytest.MonkeyPatch, *args: str) -> Ran:
    return run(
        root, "inspect", "aiacc", "--kubeconfig", str(config), *args, monkeypatch=monkeypatch
    )


def facts_of(root: Path) -> dict[str, Any]:
    return json.loads((root / "facts" / "aiacc.json").read_text())


def test_facts_of_the_recorded_cluster(
    root: Path, served: tuple[RecordedApi, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    api, config = served
    record_cluster(api)
    ran = inspect(root, config, monkeypatch)
    assert ran.code == 0, ran.stderr
    facts = facts_of(root)
    assert facts["format"] == "trainstack-facts/1" and facts["stack"] == "aiacc"
    assert facts["kubernetes"] == {"gitVersion": "v1.30.7-aliyun.1", "platform": "linux/amd64"}
    gpu_pool, cpu_pool = facts["pools"]
    assert (gpu_pool["name"], gpu_pool["nodeCount"], cpu_pool["nodeCount"]) == ("gpu-v100", 4, 2)
    assert gpu_pool["labels"] == {"trainstack.io/pool": "gpu-v100"}
    (group,) = gpu_pool["groups"]
    assert group["nodes"] == [f"cn-beijing.192.168.0.{n}" for n in (21, 22, 23, 24)]
    node = group["facts"]
    # From GPU feature discovery's labels (tests/live/data/cluster/node-gpu-v100.json).
    assert node["gpu"] == {
        "product": "Tesla-V100-SXM2-32GB",
        "memoryMib": 32768,
        "count": 4,
        "driverVersion": "535.161.08",
        "cudaVersion": "12.2",
        "labels": ["nvidia.com", "aliyun.accelerator"],
    }
    assert node["instanceType"] == "ecs.gn6e-c12g1.12xlarge"
    assert node["kubeletVersion"] == "v1.30.7-aliyun.1"
    assert node["containerRuntimeVersion"] == "containerd://1.6.36"
    assert node["kernelVersion"] == "5.10.134-17.2.al8.x86_64"
    assert node["osImage"] == "Alibaba Cloud Linux 3.2104 U10 (OpenAnolis Edition)"
    assert node["allocatable"] == {
        "cpu": "47600m",
        "memory": "378035172Ki",
        "gpus": "4",
        "ephemeralStorage": "189273661292",
    }
    assert node["capacity"]["cpu"] == "48" and node["capacity"]["gpus"] == "4"
    assert cpu_pool["groups"][0]["facts"]["gpu"] is None
    assert facts["otherNodes"] == []
    operators = {o["key"]: (o["deployment"], o["version"]) for o in facts["operators"]}
    assert operators == {
        "kueue": ("kueue-system/kueue-controller-manager", "0.19.2"),
        "mpiOperator": ("mpi-operator/mpi-operator", "0.8.2"),
        # The catalog's image of training-operator 1.9.4 (its tag is no version).
        "trainingOperator": ("kubeflow/training-operator", "1.9.4"),
    }
    assert [(c["name"], c["served"], c["storage"]) for c in facts["crds"]] == [
        ("mpijobs.kubeflow.org", ["v2beta1"], "v2beta1"),
        ("pytorchjobs.kubeflow.org", ["v1"], "v1"),
        ("tfjobs.kubeflow.org", ["v1"], "v1"),
    ]
    assert facts["kueue"]["frameworks"] == [
        "kubeflow.org/mpijob",
        "kubeflow.org/pytorchjob",
        "kubeflow.org/tfjob",
    ]
    assert facts["kueue"]["apiVersion"] == "config.kueue.x-k8s.io/v1beta2"
    # aiacc declares the seed's component with placeholders: nothing to look for yet
    assert facts["acceleration"] == {
        "declared": "ACK add-on <name of the AI Acceleration component as ACK lists it on "
        "this cluster> <its exact version on this cluster>",
        "found": None,
        "version": None,
    }
    # A handful of list calls and gets, never one per node or per job.
    assert api.unmatched == []
    assert api.seen == [
        "/version",
        "/api/v1/nodes?limit=500",
        "/apis/apps/v1/deployments?limit=500",
        "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/mpijobs.kubeflow.org",
        "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/pytorchjobs.kubeflow.org",
        "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/tfjobs.kubeflow.org",
        "/api/v1/namespaces/kueue-system/configmaps/kueue-manager-config",
    ]
    assert ran.stderr.endswith("facts written to facts/aiacc.json (7 requests)\n")
    lines = ran.stdout.splitlines()
    assert lines[0].startswith("stack aiacc: Kubernetes v1.30.7-aliyun.1 (linux/amd64), context")
    assert "pool gpu-v100 (trainstack.io/pool=gpu-v100): 4 node(s)" in lines
    assert "operator trainingOperator 1.9.4 (Deployment kubeflow/training-operator, image " in (
        ran.stdout
    )


def test_the_same_cluster_gives_the_same_bytes(
    root: Path, served: tuple[RecordedApi, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    api, config = served
    record_cluster(api)
    assert inspect(root, config, monkeypatch).code == 0
    first = (root / "facts" / "aiacc.json").read_bytes()
    # The same nodes listed in another order, in pages of 2: the same file.
    shuffled = nodes(Shape())
    random.Random(7).shuffle(shuffled)
    api.routes = [route for route in api.routes if route.path != NODES]
    api.paged(NODES, "NodeList", "v1", shuffled, page=2)
    again = inspect(root, config, monkeypatch)
    assert again.code == 0, again.stderr
    assert (root / "facts" / "aiacc.json").read_bytes() == first
    assert "facts unchanged in facts/aiacc.json" in again.stderr
    assert [p for p in api.seen if p.startswith(NODES)][-3:] == [
        "/api/v1/nodes?limit=500",
        "/api/v1/nodes?limit=500&continue=page-1",
        "/api/v1/nodes?limit=500&continue=page-2",
    ]
    assert first.isascii() and first.endswith(b"}\n")


def test_gpus_from_ack_labels_alone(
    root: Path, served: tuple[RecordedApi, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    api, config = served
    record_cluster(api, Shape(gpu_labels=dict.fromkeys(GFD_LABELS)))
    ran = inspect(root, config, monkeypatch)
    assert ran.code == 0, ran.stderr
    gpu = facts_of(root)["pools"][0]["groups"][0]["facts"]["gpu"]
    # ACK's nvidia_mem carries its unit ("32510MiB"); ACK publishes no driver or CUDA label.
    assert gpu == {
        "product": "Tesla-V100-SXM2-32GB",
        "memoryMib": 32510,
        "count": 4,
        "driverVersion": None,
        "cudaVersion": None,
        "labels": ["aliyun.accelerator"],
    }
    assert "driver unknown, CUDA unknown" in ran.stdout


def test_deprecated_gfd_labels_are_read_too(
    root: Path, served: tuple[RecordedApi, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    api, config = served
    newer = ["nvidia.com/cuda.driver-version.full", "nvidia.com/cuda.runtime-version.full"]
    record_cluster(api, Shape(gpu_labels=dict.fromkeys(newer)))
    assert inspect(root, config, monkeypatch).code == 0
    gpu = facts_of(root)["pools"][0]["groups"][0]["facts"]["gpu"]
    assert (gpu["driverVersion"], gpu["cudaVersion"]) == ("535.161.08", "12.2")


def test_a_gpu_node_without_gpu_labels(
    root: Path, served: tuple[RecordedApi, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    api, config = served
    record_cluster(api, Shape(gpu_labels=dict.fromkeys(GFD_LABELS + ACK_LABELS)))
    ran = inspect(root, config, monkeypatch)
    assert ran.code == 0, ran.stderr
    assert facts_of(root)["pools"][0]["groups"][0]["facts"]["gpu"] is None
    warnings = [line for line in ran.stderr.splitlines() if line.startswith("warning:")]
    assert warnings == [
        "warning: pool gpu-v100: 4 of 4 node(s) carry no GPU labels (neither GPU feature "
        "discovery's nvidia.com/gpu.* nor ACK's aliyun.accelerator/nvidia_*): their GPU "
        "model, driver and CUDA are unknown"
    ]
    assert "4 x ecs.gn6e-c12g1.12xlarge: 4 GPUs, no GPU labels;" in ran.stdout


def test_a_pool_with_no_nodes_and_nodes_of_no_pool(
    root: Path, served: tuple[RecordedApi, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    api, config = served
    record_cluster(api, Shape(cpu_nodes=0, other_nodes=3))
    ran = inspect(root, config, monkeypatch)
    assert ran.code == 0, ran.stderr
    facts = facts_of(root)
    assert facts["pools"][1]["nodeCount"] == 0 and facts["pools"][1]["groups"] == []
    (others,) = facts["otherNodes"]
    assert others["count"] == 3 and others["facts"]["instanceType"] == "ecs.g7.2xlarge"
    assert "nodes of no pool: 3" in ran.stdout.splitlines()
    assert [line for line in ran.stderr.splitlines() if line.startswith("warning:")] == [
        "warning: pool cpu: no node carries its labels trainstack.io/pool=cpu (it declares 2): "
        "not created yet, or labelled otherwise"
    ]


def test_an_operator_not_installed_and_a_version_from_the_tag(
    root: Path, served: tuple[RecordedApi, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    api, config = served
    images = {"mpi-operator": "mpioperator/mpi-operator:0.8.2", "kueue-controller-manager": ""}
    record_cluster(api, Shape(images=images))
    api.routes = [r for r in api.routes if "customresourcedefinitions/tfjobs" not in r.path]
    ran = inspect(root, config, monkeypatch)
    assert ran.code == 0, ran.stderr
    facts = facts_of(root)
    operators = {o["key"]: o for o in facts["operators"]}
    assert operators["mpiOperator"]["version"] == "0.8.2"
    assert operators["kueue"]["found"] is True and operators["kueue"]["version"] is None
    assert {c["name"]: c["found"] for c in facts["crds"]}["tfjobs.kubeflow.org"] is False
    assert "CRD tfjobs.kubeflow.org: not installed" in ran.stdout


def test_rbac_refusing_nodes_is_one_clear_error(
    root: Path, served: tuple[RecordedApi, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    api, config = served
    body = (DATA / "cluster" / "status-403-nodes.json").read_bytes()
    api.routes.append(Route(NODES, {}, 403, body))
    record_cluster(api)
    ran = inspect(root, config, monkeypatch)
    assert ran.code == 2
    server = json.loads(config.read_text())["clusters"][0]["cluster"]["server"]
    assert ran.stderr == (
        "error: listing nodes: the API server answered 403 Forbidden: nodes is forbidden: User "
        '"system:serviceaccount:vision:reader" cannot list resource "nodes" in API group "" at '
        "the cluster scope; the kubeconfig's user may not read this (RBAC: it needs get and "
        f"list) (context 'aiacc-admin' ({server}))\n"
    )
    assert not (root / "facts").exists()


def _expiring(api: RecordedApi, times: int) -> None:
    """The nodes' second page answers 410 Expired ``times`` times, then the real page."""
    record_cluster(api, page=3)
    expired = (DATA / "cluster" / "status-410-expired.json").read_bytes()
    left = [times]

    def send(handler: Any) -> None:
        if left[0] > 0:
            left[0] -= 1
            status, body = 410, expired
        else:
            route = next(r for r in api.routes[1:] if r.query.get("continue") == "page-1")
            status, body = 200, route.body
        handler.send_response(status)
        handler.send_header("Content-Type", "application/json")
        handler.send_header("Content-Length", str(len(body)))
        handler.end_headers()
        handler.wfile.write(body)

    api.routes.insert(0, Route(NODES, {"continue": "page-1"}, send=send))


def test_an_expired_list_is_read_again_once(
    root: Path, served: tuple[RecordedApi, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    api, config = served
    _expiring(api, 1)
    ran = inspect(root, config, monkeypatch)
    assert ran.code == 0, ran.stderr
    assert facts_of(root)["pools"][0]["nodeCount"] == 4
    node_requests = [p for p in api.seen if p.startswith(NODES)]
    assert node_requests == [
        "/api/v1/nodes?limit=500",
        "/api/v1/nodes?limit=500&continue=page-1",
        "/api/v1/nodes?limit=500",
        "/api/v1/nodes?limit=500&continue=page-1",
    ]


def test_a_list_that_expires_twice(
    root: Path, served: tuple[RecordedApi, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    api, config = served
    _expiring(api, 2)
    ran = inspect(root, config, monkeypatch)
    assert ran.code == 2
    assert ran.stderr.startswith(
        "error: listing nodes: the list expired twice while it was read (410 Expired"
    )
    assert ran.stderr.count("\n") == 1 and not (root / "facts").exists()


def test_a_node_field_of_the_wrong_type(
    root: Path, served: tuple[RecordedApi, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    api, config = served
    node = recorded("node-gpu-v100.json")
    node["status"]["nodeInfo"]["kubeletVersion"] = {"major": 1}
    api.paged(NODES, "NodeList", "v1", [node])
    record_cluster(api)
    ran = inspect(root, config, monkeypatch)
    assert ran.code == 2
    assert ran.stderr.startswith(
        "error: listing nodes: the API server's answer is not what the Kubernetes API sends "
        "(context 'aiacc-admin' (http://127.0.0.1:"
    )
    assert ran.stderr.endswith(
        "): node 'cn-beijing.192.168.0.21': status.nodeInfo.kubeletVersion is dict, not a string\n"
    )


def _client_key_and_certificate() -> tuple[bytes, bytes]:
    """A throwaway self-signed client certificate and its private key (PEM)."""
    import datetime

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "kubernetes-admin")])
    now = datetime.datetime.now(datetime.UTC)
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now)
        .not_valid_after(now + datetime.timedelta(days=1))
        .sign(key, hashes.SHA256())
    )
    pem_key = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.TraditionalOpenSSL,
        serialization.NoEncryption(),
    )
    return pem_key, certificate.public_bytes(serialization.Encoding.PEM)


def test_no_credential_reaches_the_facts_or_the_output(
    root: Path, served: tuple[RecordedApi, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    api, config = served
    record_cluster(api)
    key, certificate = _client_key_and_certificate()
    token = "eyJhbGciOiJSUzI1NiJ9.s3cr3t-bearer-token.c2lnbmF0dXJl"
    document = json.loads(config.read_text())
    server = document["clusters"][0]["cluster"]["server"]
    document["clusters"][0]["cluster"]["server"] = server.replace("//", "//admin:pa55word@")
    document["users"][0]["user"] = {
        "token": token,
        "client-certificate-data": base64.b64encode(certificate).decode(),
        "client-key-data": base64.b64encode(key).decode(),
    }
    config.write_text(json.dumps(document))
    secrets = [token, "pa55word", base64.b64encode(key).decode()[:40]]
    secrets += [line for line in key.decode().splitlines() if "PRIVATE KEY" not in line]
    # lightkube decodes inline key data into temporary files while it loads them.
    temporary = root.parent / "tmp"
    temporary.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temporary))
    ran = inspect(root, config, monkeypatch, "--format", "json")
    assert ran.code == 0, ran.stderr
    facts = (root / "facts" / "aiacc.json").read_text()
    assert ran.stdout == facts
    for text in (facts, ran.stdout, ran.stderr):
        assert not [secret for secret in secrets if secret in text]
    assert list(temporary.iterdir()) == []
    # An error names the server with its credentials masked.
    api.routes.insert(
        0, Route(NODES, {}, 403, (DATA / "cluster" / "status-403-nodes.json").read_bytes())
    )
    refused = inspect(root, config, monkeypatch)
    assert refused.code == 2 and "(context 'aiacc-admin' (http://***@127.0.0.1:" in refused.stderr
    assert not [secret for secret in secrets if secret in refused.stderr + refused.stdout]


def test_a_quantity_that_is_none(
    root: Path, served: tuple[RecordedApi, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    api, config = served
    node = recorded("node-cpu.json")
    node["status"]["allocatable"]["memory"] = "lots"
    api.paged(NODES, "NodeList", "v1", [node])
    record_cluster(api)
    ran = inspect(root, config, monkeypatch)
    assert ran.code == 2
    assert ran.stderr.endswith(
        "): node 'cn-beijing.192.168.0.31': status.allocatable.memory is 'lots', not a quantity\n"
    )
    assert not (root / "facts").exists()
