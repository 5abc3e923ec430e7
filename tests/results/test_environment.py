"""Every result knows where it ran; ``results compare`` refuses pairs whose environments
differ beyond the acceleration, naming the difference.

End to end: ``results collect`` (the real client) on two recorded clusters that differ in
one fact, then ``results compare``. Then the verdict itself on environments built here.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli_helpers import project_copy, run
from tests.live.apiserver import RecordedApi, kubeconfig, serve
from tests.live.recorded_cluster import Shape
from tests.live.recorded_jobs import record_jobs
from trainstack.core.project import Project
from trainstack.experiments.lookup import load_stack_experiments
from trainstack.facts.environment import digest, run_view
from trainstack.facts.model import (
    AccelerationFacts,
    KubernetesFacts,
    NodeFacts,
    Resources,
    RunEnvironment,
    RunNodes,
)
from trainstack.results.environment import environment_verdict
from trainstack.results.record import RunRecord


@pytest.fixture()
def root(tmp_path: Path) -> Path:
    return project_copy(tmp_path / "project")


def collect(root: Path, stack: str, shape: Shape, monkeypatch: pytest.MonkeyPatch) -> None:
    digests = {
        run.point_name: run.base_digest
        for run in load_stack_experiments(Project.load(root), stack).runs
    }
    api = RecordedApi(replacements={"DIGEST": digests["imagenet-tensorflow"]})
    record_jobs(api, shape)
    for url in serve(api):
        config = kubeconfig(root.parent / f"{stack}.kubeconfig", url)
        args = ("results", "collect", stack, "--kubeconfig", str(config))
        ran = run(root, *args, monkeypatch=monkeypatch)
        assert ran.code == 0, ran.stderr


def compared(root: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, dict[str, object]]:
    args = ("results", "compare", "aiacc", "baseline", "--format", "json")
    ran = run(root, *args, monkeypatch=monkeypatch)
    assert ran.code == 0, ran.stderr
    return {row["experiment"]: row for row in json.loads(ran.stdout) if row["metric"] != "duration"}


def test_a_newer_driver_on_one_cluster_is_named(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    collect(root, "aiacc", Shape(), monkeypatch)
    driver = {"nvidia.com/cuda.driver-version.full": "550.54.15"}
    collect(root, "baseline", Shape(gpu_labels=driver), monkeypatch)
    rows = compared(root, monkeypatch)
    # tf-multiworker-mnist's pods ran on GPU nodes: their drivers differ.
    tf = rows["tf-multiworker-mnist"]
    assert tf["comparable"] is False and tf["change"] is None
    assert tf["reason"] == (
        "tf-multiworker-mnist: the environments differ beyond the acceleration: driver "
        "535.161.08 vs 550.54.15 on gpu-v100"
    )
    assert tf["environment"] == {
        "status": "differs",
        "differences": ["driver 535.161.08 vs 550.54.15 on gpu-v100"],
    }
    # imagenet-tensorflow's one pod left, its launcher, ran on identical CPU nodes.
    imagenet = rows["imagenet-tensorflow"]
    assert imagenet["environment"] == {"status": "same", "differences": []}
    assert imagenet["comparable"] is True
    text = run(root, "results", "compare", "aiacc", "baseline", monkeypatch=monkeypatch).stdout
    assert (
        "  - tf-multiworker-mnist: the environments differ beyond the acceleration: driver "
        "535.161.08 vs 550.54.15 on gpu-v100\n"
    ) in text


def test_an_older_kubelet_everywhere(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    collect(root, "aiacc", Shape(), monkeypatch)
    collect(root, "baseline", Shape(git_version="v1.31.1-aliyun.1"), monkeypatch)
    rows = compared(root, monkeypatch)
    for experiment, row in rows.items():
        assert row["comparable"] is False, experiment
        assert row["environment"] == {
            "status": "differs",
            "differences": ["cluster Kubernetes v1.30.7-aliyun.1 vs v1.31.1-aliyun.1"],
        }


def _environment(kubelet: str = "v1.30.7-aliyun.1", component: str | None = None) -> RunEnvironment:
    facts = NodeFacts(
        instance_type="ecs.gn6e-c12g1.12xlarge",
        kubelet_version=kubelet,
        os_image="Alibaba Cloud Linux 3",
        kernel_version="5.10.134-17.2.al8.x86_64",
        container_runtime_version="containerd://1.6.36",
        architecture="amd64",
        capacity=Resources(cpu="48", gpus="4"),
        allocatable=Resources(cpu="47600m", gpus="4"),
        gpu=None,
    )
    environment = RunEnvironment(
        digest="sha256:" + "0" * 64,
        kubernetes=KubernetesFacts(git_version="v1.30.7-aliyun.1", platform="linux/amd64"),
        nodes=[RunNodes(pool="gpu-v100", nodes=["a", "b"], facts=facts)],
        gone=[],
        operators=[],
        acceleration=AccelerationFacts(declared=component, found=None, version=None),
    )
    return environment.model_copy(update={"digest": digest(run_view(environment))})


def _records(stack: str, *environments: RunEnvironment | str) -> list[RunRecord]:
    base = {
        "format": "trainstack-results/1",
        "stack": stack,
        "experiment": "imagenet-tensorflow",
        "source": "cluster",
        "baseValuesDigest": "sha256:" + "1" * 64,
        "shape": {"gpus": 16, "workers": 4, "gpusPerWorker": 4},
        "log": {"file": "run-001.log", "sha256": "2" * 64, "bytes": 1, "truncated": False},
        "metrics": {},
    }
    return [
        RunRecord.model_validate({**base, "run": number, "environment": environment})
        for number, environment in enumerate(environments, 1)
    ]


def test_the_acceleration_component_alone_is_expected() -> None:
    verdict = environment_verdict(
        "imagenet-tensorflow",
        "aiacc",
        _records("aiacc", _environment(component="ACK add-on aiacc 1.0")),
        "baseline",
        _records("baseline", _environment()),
    )
    assert (verdict.status, verdict.comparable) == ("same", True)


def test_runs_of_one_side_in_two_environments() -> None:
    verdict = environment_verdict(
        "imagenet-tensorflow",
        "aiacc",
        _records("aiacc", _environment(), _environment(kubelet="v1.30.8-aliyun.1")),
        "baseline",
        _records("baseline", _environment()),
    )
    assert not verdict.comparable
    assert verdict.reason == (
        "imagenet-tensorflow: the runs on aiacc ran in 2 environments: kubelet v1.30.7-aliyun.1 "
        "vs v1.30.8-aliyun.1 on gpu-v100"
    )


def test_runs_from_saved_logs_have_an_unknown_environment() -> None:
    verdict = environment_verdict(
        "imagenet-tensorflow",
        "aiacc",
        _records("aiacc", "unknown"),
        "baseline",
        _records("baseline", _environment()),
    )
    assert (verdict.status, verdict.comparable) == ("unknown", True)
    assert verdict.reason == (
        "imagenet-tensorflow: environment unknown on aiacc (runs recorded from saved logs, "
        "`results add`): not checked"
    )


def test_a_record_of_an_earlier_trainstack_reads_as_unknown() -> None:
    (record,) = _records("aiacc", "unknown")
    document = record.model_dump(mode="json", by_alias=True)
    del document["environment"]
    assert RunRecord.model_validate(document).environment == "unknown"
