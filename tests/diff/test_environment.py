"""Fairness of environments: two clusters read by ``trainstack inspect`` that differ in one
fact at a time (the recorded cluster on loopback, changed), and the report on them."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.cli_helpers import run
from tests.diff.plan_dirs import copy_project
from tests.live.apiserver import RecordedApi, kubeconfig, serve
from tests.live.recorded_cluster import Shape, record_cluster
from trainstack.cli import main
from trainstack.core.project import Project
from trainstack.diff.environment import EnvironmentFinding, EnvironmentReport, environment_report
from trainstack.diff.fairness import FairnessReport
from trainstack.diff.render_fairness import fairness_markdown


@pytest.fixture()
def root(tmp_path: Path) -> Path:
    return copy_project(tmp_path / "project")


def inspected(root: Path, stack: str, shape: Shape, monkeypatch: pytest.MonkeyPatch) -> None:
    api = RecordedApi()
    record_cluster(api, shape)
    for url in serve(api):
        config = kubeconfig(root.parent / f"{stack}.kubeconfig", url)
        ran = run(root, "inspect", stack, "--kubeconfig", str(config), monkeypatch=monkeypatch)
        assert ran.code == 0, ran.stderr


def report(
    root: Path, baseline: Shape, monkeypatch: pytest.MonkeyPatch
) -> list[EnvironmentFinding]:
    inspected(root, "aiacc", Shape(), monkeypatch)
    inspected(root, "baseline", baseline, monkeypatch)
    project = Project.load(root)
    found = environment_report(root, "aiacc", "baseline", project.display)
    assert found.compared
    # the accelerated stack's component is the difference the comparison is about
    return [f for f in found.findings if f.severity != "acceleration"]


def test_the_acceleration_component_is_listed_as_such_not_as_a_difference(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    inspected(root, "aiacc", Shape(), monkeypatch)
    inspected(root, "baseline", Shape(), monkeypatch)
    found = environment_report(root, "aiacc", "baseline", Project.load(root).display)
    (accelerated,) = [f for f in found.findings if f.severity == "acceleration"]
    # aiacc declares the seed's component with placeholders: it cannot be looked for
    assert accelerated.text.startswith("acceleration component ACK add-on <name of the AI")
    assert accelerated.text.endswith("(not checked) vs none (not checked)")


def driver(version: str) -> dict[str, str | None]:
    major, minor, revision = version.split(".")
    return {
        "nvidia.com/cuda.driver-version.full": version,
        "nvidia.com/cuda.driver.major": major,
        "nvidia.com/cuda.driver.minor": minor,
        "nvidia.com/cuda.driver.rev": revision,
    }


def test_the_same_cluster_twice_has_no_difference(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert report(root, Shape(), monkeypatch) == []


@pytest.mark.parametrize(
    ("baseline", "severity", "text"),
    [
        (
            Shape(gpu_node_info={"kubeletVersion": "v1.30.1-aliyun.1"}),
            "warning",
            "kubelet v1.30.7-aliyun.1 vs v1.30.1-aliyun.1 on gpu-v100",
        ),
        (
            Shape(gpu_node_info={"kernelVersion": "5.10.134-16.3.al8.x86_64"}),
            "warning",
            "kernel 5.10.134-17.2.al8.x86_64 vs 5.10.134-16.3.al8.x86_64 on gpu-v100",
        ),
        (
            Shape(git_version="v1.31.1-aliyun.1"),
            "warning",
            "cluster Kubernetes v1.30.7-aliyun.1 vs v1.31.1-aliyun.1",
        ),
        (
            Shape(gpu_labels=driver("535.183.01")),
            "warning",
            "driver 535.161.08 vs 535.183.01 on gpu-v100",
        ),
        (
            Shape(gpu_labels=driver("550.54.15")),
            "not comparable",
            "driver 535.161.08 vs 550.54.15 on gpu-v100",
        ),
        (
            Shape(gpu_labels={"nvidia.com/cuda.runtime-version.full": "11.8"}),
            "not comparable",
            "CUDA 12.2 vs 11.8 on gpu-v100",
        ),
        (
            Shape(gpu_labels={"nvidia.com/gpu.product": "Tesla-V100-SXM2-16GB"}),
            "not comparable",
            "GPU model Tesla-V100-SXM2-32GB vs Tesla-V100-SXM2-16GB on gpu-v100",
        ),
        (
            Shape(gpu_labels={"node.kubernetes.io/instance-type": "ecs.gn6v-c8g1.16xlarge"}),
            "not comparable",
            "instance type ecs.gn6e-c12g1.12xlarge vs ecs.gn6v-c8g1.16xlarge on gpu-v100",
        ),
        (Shape(gpu_nodes=3), "not comparable", "nodes 4 vs 3 on gpu-v100"),
        (
            Shape(images={"mpi-operator": "mpioperator/mpi-operator:0.6.0"}),
            "not comparable",
            "operator mpiOperator version 0.8.2 vs 0.6.0",
        ),
        (Shape(other_nodes=1), "warning", "nodes 0 vs 1 on nodes of no pool"),
    ],
)
def test_one_observed_difference(
    root: Path, monkeypatch: pytest.MonkeyPatch, baseline: Shape, severity: str, text: str
) -> None:
    assert report(root, baseline, monkeypatch) == [EnvironmentFinding(severity, text)]


def test_without_facts_the_report_says_so(root: Path) -> None:
    project = Project.load(root)
    found = environment_report(root, "aiacc", "baseline", project.display)
    assert not found.compared and found.comparable
    assert found.missing == (
        "declared configuration only: no facts/aiacc.json or facts/baseline.json "
        "(`trainstack inspect STACK` reads a cluster's)"
    )


def _fairness(
    root: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> tuple[int, list[str]]:
    monkeypatch.chdir(root)
    monkeypatch.setattr(sys, "argv", ["trainstack", "diff", "aiacc", "baseline", "--fairness"])
    with pytest.raises(SystemExit) as stop:
        main()
    code = stop.value.code
    return (code if isinstance(code, int) else 0), capsys.readouterr().out.splitlines()


def test_the_fairness_report_without_and_with_facts(
    root: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, lines = _fairness(root, monkeypatch, capsys)
    assert code == 0
    assert lines[0].startswith("fairness aiacc -> baseline: fair: the stacks differ only in ")
    assert lines[0].endswith(
        "; declared configuration only: no facts/aiacc.json or facts/baseline.json "
        "(`trainstack inspect STACK` reads a cluster's); health not measured: no "
        "facts/aiacc.health.json or facts/baseline.health.json (`trainstack health STACK`)"
    )
    inspected(root, "aiacc", Shape(), monkeypatch)
    product: dict[str, str | None] = {"nvidia.com/gpu.product": "Tesla-V100-SXM2-16GB"}
    info = {"kubeletVersion": "v1.30.1-aliyun.1"}
    inspected(root, "baseline", Shape(gpu_labels=product, gpu_node_info=info), monkeypatch)
    code, lines = _fairness(root, monkeypatch, capsys)
    assert code == 1
    assert lines[0] == (
        "fairness aiacc -> baseline: NOT COMPARABLE: the clusters as observed differ in 1 "
        "way(s) that change training speed, so throughput measured on these stacks cannot be "
        "compared; observed facts compared (1 not comparable, 1 warning, 1 acceleration); "
        "health not measured: no facts/aiacc.health.json or facts/baseline.health.json "
        "(`trainstack health STACK`)"
    )
    observed = [line for line in lines if line.startswith("  observed")]
    assert observed == [
        "  observed          not comparable: GPU model Tesla-V100-SXM2-32GB vs "
        "Tesla-V100-SXM2-16GB on gpu-v100",
        "  observed          warning: kubelet v1.30.7-aliyun.1 vs v1.30.1-aliyun.1 on gpu-v100",
        "  observed          acceleration: acceleration component ACK add-on <name of the AI "
        "Acceleration component as ACK lists it on this cluster> <its exact version on this "
        "cluster> (not checked) vs none (not checked)",
    ]


def test_the_markdown_report_lists_observed_differences() -> None:
    found = EnvironmentReport((EnvironmentFinding("not comparable", "nodes 4 vs 3 on gpu-v100"),))
    report = FairnessReport("aiacc", "baseline", (), environment=found)
    comment = fairness_markdown(report)
    assert ":x: **NOT COMPARABLE: the clusters as observed differ in 1 way(s)" in comment
    assert "| observed: not comparable | - | facts | `nodes 4 vs 3 on gpu-v100` |\n" in comment
