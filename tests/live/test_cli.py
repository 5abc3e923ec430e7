"""status, logs and results collect against the recorded cluster, through lightkube."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli_helpers import Ran, run
from tests.live.apiserver import RecordedApi
from tests.metrics.test_formats import DATA as LOGS


def _on_cluster(root: Path, cluster: Path, monkeypatch: pytest.MonkeyPatch, *args: str) -> Ran:
    """``trainstack ARGS --kubeconfig CLUSTER`` in the project copy."""
    return run(root, *args, "--kubeconfig", str(cluster), monkeypatch=monkeypatch)


def test_status_lists_every_run(
    root: Path, cluster: Path, api: RecordedApi, monkeypatch: pytest.MonkeyPatch
) -> None:
    ran = _on_cluster(root, cluster, monkeypatch, "status", "aiacc")
    assert ran.code == 0, ran.stderr
    lines = ran.stdout.splitlines()
    assert lines[0].startswith("stack aiacc, context 'aiacc-admin' (http://127.0.0.1:")
    table = lines[3 : lines.index("", 3)] if "" in lines[3:] else lines[3:]
    rows = {line.split()[0]: line.split()[1:] for line in table}
    assert rows["imagenet-tensorflow"] == [
        "1",
        "imagenet-tensorflow",
        "MPIJob",
        "Succeeded",
        "0/5",
        "2024-05-06T10:00:00Z",
        "2024-05-06T10:25:00Z",
        "1500",
        "s",
    ]
    # a worker whose image has no sshd: its preflight failed, and says so, control
    # characters of the pod's message left out
    assert rows["keras-lstm-1x4"][:5] == ["1", "keras-lstm-1x4", "MPIJob", "Running", "1/2"]
    # the experiments' reasons, then the dataset's populate Job (tests/live/test_status_data.py)
    assert lines[-2:] == [
        "",
        "dataset imagenet-data: populate Job populate-imagenet-data (namespace vision) Succeeded",
    ]
    assert lines[-4] == (
        "reason keras-lstm-1x4: keras-lstm-1x4-worker-0: trainstack preflight: the workers' "
        "sshd /usr/sbin/sshd is not in the image (the MPI transport is ssh: "
        "docs/mpi-transport.md)"
    )
    # a failed job: its launcher could not resolve a worker, because that worker's own
    # preflight had failed first; the worker's reason is the job's, not the launcher's
    assert rows["keras-lstm-4x1"][:5] == ["1", "keras-lstm-4x1", "MPIJob", "Failed", "0/5"]
    assert lines[-3] == (
        "reason keras-lstm-4x1: keras-lstm-4x1-worker-2: trainstack preflight: 0 of the 1 GPUs "
        "asked for are visible (nvidia-smi -L)"
    )
    assert rows["keras-lstm-1x4"][5:] == ["2024-05-06T11:00:00Z", "-", "-"]
    assert rows["keras-lstm-2x1"] == [
        "1",
        "keras-lstm-2x1",
        "MPIJob",
        "not",
        "found",
        "-",
        "-",
        "-",
        "-",
    ]
    assert rows["tf-multiworker-mnist"][:5] == [
        "1",
        "tf-multiworker-mnist",
        "TFJob",
        "Succeeded",
        "0/3",
    ]
    assert rows["pytorch-ddp-mnist"][2:4] == [
        "PyTorchJob",
        "not",
    ]
    assert api.unmatched == []
    # One list per namespace and kind, by the experiment label; pods by the labels of the
    # operator serving the kind (mpi-operator, training-operator), from the catalog; in
    # pages of 500 (the bounded reader's).
    assert (
        "/apis/kubeflow.org/v2beta1/namespaces/vision/mpijobs?limit=500&"
        "labelSelector=trainstack.io%2Fexperiment" in api.seen
    )
    assert any(
        "labelSelector=training.kubeflow.org%2Fjob-name%3Dtf-multiworker-mnist" in p
        for p in api.seen
    )


def test_logs_of_the_reporting_role_by_default(
    root: Path, cluster: Path, api: RecordedApi, monkeypatch: pytest.MonkeyPatch
) -> None:
    ran = _on_cluster(root, cluster, monkeypatch, "logs", "aiacc", "imagenet-tensorflow")
    assert ran.code == 0, ran.stderr
    assert ran.stdout == (LOGS / "tf-cnn-benchmarks-aiacc.log").read_text()
    (log_request,) = [p for p in api.seen if p.endswith("/log") or "/log?" in p]
    assert log_request.startswith(
        "/api/v1/namespaces/vision/pods/imagenet-tensorflow-launcher/log?"
    )
    assert "container=launcher" in log_request and "follow" not in log_request
    chief = _on_cluster(
        root, cluster, monkeypatch, "logs", "aiacc", "tf-multiworker-mnist", "--tail", "3"
    )
    assert chief.code == 0, chief.stderr
    assert "accuracy=0.9811" in chief.stdout
    assert any(
        "tf-multiworker-mnist-chief-0/log?" in p
        and "container=tensorflow" in p
        and "tailLines=3" in p
        for p in api.seen
    )


def test_logs_of_a_running_job_with_several_pods_of_a_role(
    root: Path, cluster: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ran = _on_cluster(root, cluster, monkeypatch, "logs", "aiacc", "keras-lstm-1x4")
    assert ran.code == 0, ran.stderr
    assert ran.stdout.startswith("Horovod: rank 0 of 4")


def test_logs_errors(root: Path, cluster: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    missing = _on_cluster(root, cluster, monkeypatch, "logs", "aiacc", "keras-lstm-2x1")
    assert missing.code == 2
    assert missing.stderr.startswith(
        "error: no MPIJob of experiment keras-lstm-2x1 in namespace vision (context 'aiacc-admin'"
    )
    gone = _on_cluster(root, cluster, monkeypatch, "logs", "aiacc", "keras-lstm-1x1")
    assert gone.code == 2 and "job keras-lstm-1x1 (Succeeded) has no launcher pod" in gone.stderr
    deleted = _on_cluster(root, cluster, monkeypatch, "logs", "aiacc", "keras-lstm-1x2")
    assert deleted.code == 2
    assert "pod keras-lstm-1x2-launcher is gone" in deleted.stderr
    role = _on_cluster(
        root, cluster, monkeypatch, "logs", "aiacc", "imagenet-tensorflow", "--role", "chief"
    )
    assert role.code == 2
    assert "--role: found 'chief'; allowed: a role of MPIJob: launcher, worker" in role.stderr
    run_two = _on_cluster(
        root, cluster, monkeypatch, "logs", "aiacc", "imagenet-tensorflow", "--run", "2"
    )
    assert (
        run_two.code == 2
        and "no MPIJob of run 2 of experiment imagenet-tensorflow" in run_two.stderr
    )


def test_collect_records_what_finished(
    root: Path,
    cluster: Path,
    api: RecordedApi,
    digests: dict[str, str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ran = _on_cluster(root, cluster, monkeypatch, "results", "collect", "aiacc")
    assert ran.code == 0, ran.stderr
    assert (
        "results/aiacc/imagenet-tensorflow/run-001.json: run 1: duration 1500 s, "
        "images_per_sec 1344 images/sec" in ran.stdout
    )
    assert "keras-lstm-1x4: keras-lstm-1x4: Running, not collected" in ran.stdout
    assert "keras-lstm-1x1: keras-lstm-1x1: its launcher pod is gone" in ran.stdout
    assert "keras-lstm-1x2: keras-lstm-1x2: pod keras-lstm-1x2-launcher is gone" in ran.stdout
    assert "keras-lstm-2x1: no job on the cluster" in ran.stdout
    # A worker's preflight failed, and the launcher never started: the API server refuses
    # its container's log (400), so the run is recorded as failed, with the reason, and
    # without a log, instead of stopping the command.
    assert (
        "keras-lstm-4x1: keras-lstm-4x1: Failed before its launcher container started: "
        "keras-lstm-4x1-worker-2: trainstack preflight: 0 of the 1 GPUs asked for are visible"
    ) in ran.stdout
    assert "results/aiacc/keras-lstm-4x1/run-001.json: run 1: duration 430 s; failed" in (
        ran.stdout
    )
    directory = root / "results" / "aiacc"
    assert sorted(p.relative_to(directory).as_posix() for p in directory.rglob("*.*")) == [
        ".lock",  # held while recording (git-ignored): concurrent commands lose no run
        "imagenet-tensorflow/run-001.json",
        "imagenet-tensorflow/run-001.log",
        "keras-lstm-4x1/run-001.json",
        "keras-lstm-4x1/run-001.log",
        "tf-multiworker-mnist/run-001.json",
        "tf-multiworker-mnist/run-001.log",
    ]
    assert (directory / "keras-lstm-4x1" / "run-001.log").read_bytes() == b""
    record = json.loads((directory / "imagenet-tensorflow" / "run-001.json").read_text())
    assert record["baseValuesDigest"] == digests["imagenet-tensorflow"]
    assert record["job"] == {
        "completionTime": "2024-05-06T10:25:00Z",
        "kind": "MPIJob",
        "name": "imagenet-tensorflow",
        "namespace": "vision",
        "phase": "Succeeded",
        "startTime": "2024-05-06T10:00:00Z",
    }
    assert (record["log"]["pod"], record["log"]["container"]) == (
        "imagenet-tensorflow-launcher",
        "launcher",
    )
    assert record["metrics"]["duration"]["value"] == 1500.0
    assert record["shape"] == {"gpus": 16, "gpusPerWorker": 4, "workers": 4}
    saved = (directory / "imagenet-tensorflow" / "run-001.log").read_bytes()
    assert saved == (LOGS / "tf-cnn-benchmarks-aiacc.log").read_bytes()
    # Where it ran: its launcher's node (the workers' pods are gone), the operators.
    environment = record["environment"]
    (nodes,) = environment["nodes"]
    assert (nodes["pool"], nodes["nodes"]) == ("cpu", ["cn-beijing.192.168.0.51"])
    assert nodes["facts"]["instanceType"] == "ecs.g7.2xlarge" and nodes["facts"]["gpu"] is None
    assert environment["gone"] == []
    assert environment["kubernetes"]["gitVersion"] == "v1.30.7-aliyun.1"
    assert {o["key"]: o["version"] for o in environment["operators"]} == {
        "kueue": "0.19.2",
        "mpiOperator": "0.8.2",
        "trainingOperator": "1.9.4",
    }
    assert environment["digest"].startswith("sha256:") and len(environment["digest"]) == 71
    tf = json.loads((directory / "tf-multiworker-mnist" / "run-001.json").read_text())
    (gpu_nodes,) = tf["environment"]["nodes"]
    assert gpu_nodes["pool"] == "gpu-v100"
    assert gpu_nodes["nodes"] == ["cn-beijing.192.168.0.21", "cn-beijing.192.168.0.22"]
    assert gpu_nodes["facts"]["gpu"]["product"] == "Tesla-V100-SXM2-32GB"
    assert tf["environment"]["gone"] == ["cn-beijing.10.0.3.14"]
    # The cluster's nodes and Deployments are read once for every job recorded.
    assert sorted(p for p in api.seen if p.startswith(("/api/v1/nodes", "/apis/apps"))) == [
        "/api/v1/nodes?limit=500",
        "/apis/apps/v1/deployments?limit=500",
    ]
    # Arena's tf-operator: the chief found by the chart's labels; another digest than declared.
    assert tf["log"]["pod"] == "tf-multiworker-mnist-chief-0"
    assert "tf-multiworker-mnist: tf-multiworker-mnist: ran with other base values" in ran.stdout
    again = _on_cluster(
        root, cluster, monkeypatch, "results", "collect", "aiacc", "imagenet-tensorflow"
    )
    assert (
        "aiacc/imagenet-tensorflow: skipped: the same log is already recorded as run 1"
        in again.stdout
    )


def test_an_ack_stack_needs_its_kubeconfig(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KUBECONFIG", str(root / "nowhere"))
    ran = run(root, "status", "aiacc", monkeypatch=monkeypatch)
    assert ran.code == 2
    assert ran.stderr == (
        "error: stack aiacc is an ACK cluster (stacks/Pulumi.aiacc.yaml) whose kubeconfig the "
        "program fetches from ACK: write the cluster's kubeconfig to a file, e.g. `pulumi config "
        "get --show-secrets trainstack:kubeconfig -s aiacc > aiacc.kubeconfig` (on ACK also: "
        "console > cluster > Connection Information), and pass --kubeconfig aiacc.kubeconfig; or "
        "--context NAME of a kubeconfig context that reaches it\n"
    )


def test_follow_streams_until_the_server_closes(
    root: Path, cluster: Path, api: RecordedApi, monkeypatch: pytest.MonkeyPatch
) -> None:
    args = ("logs", "aiacc", "imagenet-tensorflow", "--follow")
    ran = _on_cluster(root, cluster, monkeypatch, *args)
    assert ran.code == 0, ran.stderr
    assert ran.stdout.endswith("total images/sec: 1344.00\n" + "-" * 64 + "\n")
    assert any("/log?" in p and "follow=true" in p for p in api.seen)
