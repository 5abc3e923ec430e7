"""``trainstack health STACK`` against a stateful cluster on loopback, through the real
HTTP client: Jobs created, watched, logs read and parsed, everything of the run deleted;
and one clear message, with nothing of ours left behind, for each way it can go wrong."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.cli_helpers import Ran, project_copy, run
from tests.healthrun.fake_cluster import FOREIGN, JOBS, MPIJOBS, FakeCluster
from tests.live.apiserver import RecordedApi, kubeconfig, serve
from tests.stack_helpers import REPO
from trainstack.healthrun import runner

PINNED = {
    "dcgm": "nvcr.io/nvidia/cloud-native/dcgm:4.2.3-1-ubuntu22.04@sha256:" + "1" * 64,
    "ncclTests": "registry.example.com/nccl-tests:2.19.6@sha256:" + "2" * 64,
}
GPU_NODES = [f"cn-beijing.192.168.0.{21 + index}" for index in range(4)]


@pytest.fixture()
def root(tmp_path: Path) -> Path:
    """A project copy whose aiacc stack pins the health images."""
    project = project_copy(tmp_path / "project")
    stack = project / "stacks" / "Pulumi.aiacc.yaml"
    text = stack.read_text(encoding="utf-8")
    images = "".join(f"      {key}: {value}\n" for key, value in PINNED.items())
    stack.write_text(text + "  trainstack:health:\n    images:\n" + images, encoding="utf-8")
    return project


@pytest.fixture()
def fake() -> FakeCluster:
    cluster = FakeCluster(RecordedApi())
    cluster.install()
    return cluster


@pytest.fixture()
def config(fake: FakeCluster, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setattr(runner, "POLL_SECONDS", 0.01)
    for url in serve(fake.api):
        yield kubeconfig(tmp_path / "aiacc.kubeconfig", url)


def _health(root: Path, config: Path, monkeypatch: pytest.MonkeyPatch, *args: str) -> Ran:
    return run(root, "health", "aiacc", "--kubeconfig", str(config), *args, monkeypatch=monkeypatch)


def _left_behind(fake: FakeCluster, namespace: bool = False) -> None:
    """Nothing of ours is left (the namespace only when it was not ours to delete)."""
    assert fake.ours() == []
    assert fake.namespace is namespace
    deletes = [path for method, path, _ in fake.api.requests if method == "DELETE"]
    assert all(
        "labelSelector=trainstack.io%2Fhealth-run" in path or path.endswith("/trainstack-health")
        for path in deletes
    ), deletes


def test_a_run_creates_watches_reads_and_deletes(
    root: Path, config: Path, fake: FakeCluster, monkeypatch: pytest.MonkeyPatch
) -> None:
    ran = _health(root, config, monkeypatch)
    assert ran.code == 0, ran.stderr
    creates = [path for method, path, _ in fake.api.requests if method == "POST"]
    assert creates.count(JOBS) == 8  # 4 node checks, 4 interconnect tests within nodes
    assert creates.count(MPIJOBS) == 3  # imagenet 4x4, two Keras/LSTM shapes
    assert "node checks: 4/4 ended" in ran.stderr
    _left_behind(fake)
    facts = json.loads((root / "facts" / "aiacc.health.json").read_text(encoding="utf-8"))
    assert [node["name"] for node in facts["nodes"]] == GPU_NODES
    node = facts["nodes"][0]
    assert node["problems"] == []
    assert node["diag"]["passed"] is True
    assert node["busbwGbps"]["value"] == 338.82
    assert [gpu["gemmFp16Tflops"]["value"] for gpu in node["gpus"]] == [190.0] * 4
    assert node["gpus"][0]["product"] == "Tesla V100-SXM2-16GB"
    assert facts["images"] == PINNED
    assert [span["name"] for span in facts["spans"]][0].startswith("gpu-v100: ")
    assert ran.stdout.startswith("facts/aiacc.health.json: 4 node(s), 3 shape(s); 0 with problems")


def test_a_namespace_of_someone_elses_is_used_and_nothing_of_theirs_touched(
    root: Path, config: Path, fake: FakeCluster, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake.namespace = True
    fake.add_foreign()
    ran = _health(root, config, monkeypatch, "--node", GPU_NODES[0])
    assert ran.code == 0, ran.stderr
    _left_behind(fake, namespace=True)
    assert any(key.endswith(FOREIGN) for key in fake.objects), "someone else's Job was deleted"
    assert not any(
        path.startswith("/api/v1/namespaces/") and method == "POST"
        for method, path, _ in fake.api.requests
    )


def test_a_namespace_of_ours_that_someone_used_meanwhile_is_kept(
    root: Path, config: Path, fake: FakeCluster, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake.on_pods_listed = fake.add_foreign
    ran = _health(root, config, monkeypatch, "--node", GPU_NODES[0])
    assert ran.code == 0, ran.stderr
    _left_behind(fake, namespace=True)
    assert any(key.endswith(FOREIGN) for key in fake.objects)
    assert (
        "note: namespace trainstack-health kept: it holds objects that are not this run's "
        f"(jobs {FOREIGN}); delete it yourself when they are done"
    ) in ran.stderr


def test_a_job_that_never_schedules(
    root: Path, config: Path, fake: FakeCluster, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake.unschedulable = {GPU_NODES[1]}
    ran = _health(root, config, monkeypatch, "--timeout", "1", "--node", GPU_NODES[1])
    assert ran.code == 0, ran.stderr
    _left_behind(fake)
    facts = json.loads((root / "facts" / "aiacc.health.json").read_text(encoding="utf-8"))
    (node,) = facts["nodes"]
    assert node["problems"] == [
        f"never scheduled on {GPU_NODES[1]} within --timeout 1 s: 0/6 nodes are available: 1 "
        "Insufficient nvidia.com/gpu, 5 node(s) didn't match Pod's node affinity/selector."
    ]
    assert "1 with problems: " + GPU_NODES[1] in ran.stdout


def test_a_node_that_disappears(
    root: Path, config: Path, fake: FakeCluster, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake.leaves = {GPU_NODES[0]}
    ran = _health(root, config, monkeypatch, "--node", GPU_NODES[0], "--timeout", "5")
    assert ran.code == 0, ran.stderr
    _left_behind(fake)
    facts = json.loads((root / "facts" / "aiacc.health.json").read_text(encoding="utf-8"))
    (node,) = facts["nodes"]
    assert f"node {GPU_NODES[0]} left the cluster while its check ran" in " ".join(node["problems"])


def test_a_403_on_create_is_one_error_and_nothing_is_left(
    root: Path, config: Path, fake: FakeCluster, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake.forbid_jobs = True
    ran = _health(root, config, monkeypatch)
    assert ran.code == 2
    (line,) = ran.stderr.splitlines()
    assert line.startswith("error: creating Job health-node-")
    assert "the API server answered 403 Forbidden: jobs.batch is forbidden" in line
    assert "the kubeconfig's user may not create jobs in namespace trainstack-health" in line
    _left_behind(fake)
    assert not (root / "facts" / "aiacc.health.json").exists()


def test_no_node_of_the_pools_is_one_error_before_anything_is_created(
    root: Path, config: Path, fake: FakeCluster, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake.nodes = [n for n in fake.nodes if n["metadata"]["name"] not in GPU_NODES]
    ran = _health(root, config, monkeypatch)
    assert ran.code == 2
    assert ran.stderr.startswith(
        "error: no node of the pools the stack's experiments use (gpu-v100) on context "
    )
    assert [method for method, _, _ in fake.api.requests] == ["GET"]


def test_unpinned_images_are_refused_before_any_request(
    tmp_path: Path, config: Path, fake: FakeCluster, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = project_copy(tmp_path / "unpinned")
    ran = _health(project, config, monkeypatch)
    assert ran.code == 2
    assert "trainstack:health.images.dcgm: nvcr.io/nvidia/cloud-native/dcgm:4.2.3" in ran.stderr
    assert fake.api.requests == []


def test_ctrl_c_mid_run_cleans_up_and_exits_130(
    root: Path, config: Path, fake: FakeCluster
) -> None:
    process: list[subprocess.Popen[str]] = []

    def interrupt() -> None:
        if process and process[0].poll() is None:
            process[0].send_signal(signal.SIGINT)

    fake.polls_to_finish = 1000  # still running when Ctrl-C comes
    fake.on_pods_listed = interrupt
    env = {"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"}
    process.append(
        subprocess.Popen(
            [sys.executable, "-m", "trainstack", "health", "aiacc", "--kubeconfig", str(config)],
            cwd=root,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
    )
    out, err = process[0].communicate(timeout=120)
    assert process[0].returncode == 130, err
    assert "Traceback" not in err
    _left_behind(fake)
    assert not (root / "facts" / "aiacc.health.json").exists()
