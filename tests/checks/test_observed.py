"""The plan against the cluster's facts: each difference a warning with both values.

The facts are what ``trainstack inspect`` (the real client) reads from the recorded cluster
on loopback, changed one fact at a time.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli_helpers import run
from tests.live.apiserver import RecordedApi, kubeconfig, serve
from tests.live.recorded_cluster import Shape, record_cluster
from tests.project_copy import copy_project
from trainstack.checks.observed import gpu_model_matches, observed_findings
from trainstack.core.project import Project
from trainstack.experiments.lookup import load_stack_experiments
from trainstack.facts.store import read_facts

FACTS = "facts/aiacc.json"
TEMPLATE = "stacks/templates/workload-1-ack.yaml"
# The recorded nodes' allocatable (tests/live/data/cluster/node-*.json) against the stack's
# cpuPerNode/memoryPerNode: what every real ACK node shows (the kubelet reserves some).
ACK_POLICY = (
    "reserved by ACK's resource reservation policy for Kubernetes 1.35, max pods 256, "
    "https://www.alibabacloud.com/help/en/ack/ack-managed-and-ack-dedicated/user-guide/"
    "resource-reservation-policy"
)
# The recorded nodes report less than the stacks derive from the policy: each pool's
# allocatable CPU or memory differs, derived value and derivation shown.
ALLOCATABLE = [
    "(pool cpu): nodePools[1].memoryPerNode: allocatable memory per node: derived "
    f"28.708Gi (capacity 32Gi - 3.292Gi {ACK_POLICY}), observed 27.669Gi ({FACTS})",
    "(pool gpu-v100): nodePools[0].cpuPerNode: allocatable CPU per node: derived "
    f"47.81 (capacity 48 - 0.19 {ACK_POLICY}), observed 47.6 ({FACTS})",
    "(pool gpu-v100): nodePools[0].memoryPerNode: allocatable memory per node: "
    f"derived 364.708Gi (capacity 368Gi - 3.292Gi {ACK_POLICY}), observed 360.522Gi ({FACTS})",
]


@pytest.fixture()
def root(tmp_path: Path) -> Path:
    """A copy of the project (program, chart, stacks, experiments)."""
    return copy_project(tmp_path / "project")


def inspected(root: Path, shape: Shape, monkeypatch: pytest.MonkeyPatch) -> None:
    """``trainstack inspect aiacc`` of the recorded cluster of ``shape``."""
    api = RecordedApi()
    record_cluster(api, shape)
    for url in serve(api):
        config = kubeconfig(root.parent / "aiacc.kubeconfig", url)
        ran = run(root, "inspect", "aiacc", "--kubeconfig", str(config), monkeypatch=monkeypatch)
        assert ran.code == 0, ran.stderr


def differences(root: Path, shape: Shape, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The warnings of the aiacc stack against the facts of ``shape``, but allocatable's."""
    inspected(root, shape, monkeypatch)
    project = Project.load(root)
    resolved = load_stack_experiments(project, "aiacc")
    facts = read_facts(root, "aiacc", project.display)
    assert facts is not None
    stack = resolved.stack
    found = observed_findings(resolved.runs, stack.config, stack.source, facts, FACTS)
    assert all(f.check == "observedDiffers" and f.severity == "warning" for f in found)
    # The pools are written in the stack's cluster template: their warnings name it.
    assert {f.source for f in found if f.experiment.startswith("(pool ")} <= {TEMPLATE}
    lines = [f"{f.experiment}: {f.key}: {f.message}" for f in found]
    return [line for line in lines if line not in ALLOCATABLE]


def test_the_recorded_cluster_differs_only_in_allocatable(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    inspected(root, Shape(), monkeypatch)
    project = Project.load(root)
    resolved = load_stack_experiments(project, "aiacc")
    facts = read_facts(root, "aiacc", project.display)
    assert facts is not None
    stack = resolved.stack
    found = observed_findings(resolved.runs, stack.config, stack.source, facts, FACTS)
    assert sorted(f"{f.experiment}: {f.key}: {f.message}" for f in found) == ALLOCATABLE


@pytest.mark.parametrize(
    ("shape", "expected"),
    [
        (
            Shape(gpu_nodes=3),
            "(pool gpu-v100): nodePools[0].desiredSize: nodes: declared 4, observed 3",
        ),
        (
            Shape(cpu_nodes=0),
            "(pool cpu): nodePools[1].desiredSize: nodes: declared 2, observed 0",
        ),
        (
            Shape(gpu_labels={"node.kubernetes.io/instance-type": "ecs.gn6v-c8g1.16xlarge"}),
            "(pool gpu-v100): nodePools[0].instanceTypes: instance type: declared "
            "ecs.gn6e-c12g1.12xlarge, observed ecs.gn6v-c8g1.16xlarge",
        ),
        (
            Shape(
                gpu_labels={
                    "nvidia.com/gpu.product": "Tesla-P100-PCIE-16GB",
                    "aliyun.accelerator/nvidia_name": "Tesla-P100-PCIE-16GB",
                }
            ),
            "(pool gpu-v100): nodePools[0].gpuModel: GPU model: declared V100, "
            "observed Tesla-P100-PCIE-16GB",
        ),
        (
            Shape(
                gpu_labels={
                    key: None
                    for key in (
                        "nvidia.com/gpu.product",
                        "nvidia.com/gpu.count",
                        "nvidia.com/gpu.memory",
                        "nvidia.com/cuda.driver-version.full",
                        "nvidia.com/cuda.driver.major",
                        "nvidia.com/cuda.runtime-version.full",
                        "nvidia.com/cuda.runtime.major",
                        "aliyun.accelerator/nvidia_name",
                        "aliyun.accelerator/nvidia_mem",
                        "aliyun.accelerator/nvidia_count",
                    )
                }
            ),
            "(pool gpu-v100): nodePools[0].gpuModel: GPU model: declared V100, "
            "observed unknown (no GPU labels)",
        ),
        (
            Shape(gpu_labels={"node.kubernetes.io/instance-type": "ecs.x\x1b[2J"}),
            "(pool gpu-v100): nodePools[0].instanceTypes: instance type: declared "
            "ecs.gn6e-c12g1.12xlarge, observed ecs.x\\x1b[2J",
        ),
        (
            Shape(images={"mpi-operator": "mpioperator/mpi-operator:0.6.0"}),
            "(operators): trainstack:operators.mpiOperator.version: mpiOperator version: "
            "declared 0.8.2, observed 0.6.0",
        ),
        (
            Shape(images={"training-operator": "kubeflow/training-operator:latest"}),
            "(operators): trainstack:operators.trainingOperator.version: trainingOperator "
            "version: declared 1.9.4, observed unknown (image kubeflow/training-operator:latest)",
        ),
        (
            Shape(images={"kueue-controller-manager": "registry.k8s.io/kueue/kueue:v0.18.6"}),
            "(operators): trainstack:queueing.chart.version: kueue version: declared 0.19.2, "
            "observed 0.18.6",
        ),
    ],
)
def test_one_difference_one_warning(
    root: Path, monkeypatch: pytest.MonkeyPatch, shape: Shape, expected: str
) -> None:
    assert differences(root, shape, monkeypatch) == [f"{expected} ({FACTS})"]


def test_a_job_api_the_cluster_does_not_serve(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    inspected(root, Shape(), monkeypatch)
    path = root / FACTS
    facts = json.loads(path.read_text())
    facts["crds"][0]["served"] = ["v1"]  # mpijobs.kubeflow.org: an MPIJob v1 CRD
    facts["crds"][2]["found"], facts["crds"][2]["served"] = False, []
    path.write_text(json.dumps(facts))
    project = Project.load(root)
    resolved = load_stack_experiments(project, "aiacc")
    found = read_facts(root, "aiacc", project.display)
    assert found is not None
    stack = resolved.stack
    lines = [
        f"{f.key}: {f.message}"
        for f in observed_findings(resolved.runs, stack.config, stack.source, found, FACTS)
        if f.experiment == "(operators)"
    ]
    assert lines == [
        "trainstack:operators.mpiOperator: mpijobs.kubeflow.org: declared kubeflow.org/v2beta1 "
        f"served, observed served v1 ({FACTS})",
        "trainstack:operators.trainingOperator: tfjobs.kubeflow.org: declared kubeflow.org/v1 "
        f"served, observed not installed ({FACTS})",
    ]


@pytest.mark.parametrize(
    ("declared", "product", "matches"),
    [
        ("V100", "Tesla-V100-SXM2-32GB", True),
        ("v100", "Tesla V100-PCIE-16GB", True),
        ("A100", "NVIDIA-A100-SXM4-80GB", True),
        ("A10", "NVIDIA-A100-SXM4-80GB", True),  # containment: A10 reads into A100
        ("V100", "Tesla-P100-PCIE-16GB", False),
        ("H800", "NVIDIA-H100-80GB-HBM3", False),
    ],
)
def test_gpu_models_are_matched_by_their_letters_and_digits(
    declared: str, product: str, matches: bool
) -> None:
    assert gpu_model_matches(declared, product) is matches


def test_the_plan_warns_and_notes_what_it_compared_with(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    inspected(root, Shape(gpu_nodes=3), monkeypatch)
    out = tmp_path / "plan"
    ran = run(root, "plan", "aiacc", "-o", str(out), "--verbose", monkeypatch=monkeypatch)
    assert ran.code == 0, ran.stderr
    template = (root / TEMPLATE).read_text().splitlines()
    line = next(i for i, text in enumerate(template) if "desiredSize:" in text) + 1
    assert (
        # the pools are written in the cluster template the stack names: the warning names
        # the template, at the line of the key as written there
        f"warning: {TEMPLATE}:{line}: experiment (pool gpu-v100): "
        "nodePools[0].desiredSize: nodes: declared 4, observed 3 (facts/aiacc.json) "
        "[observedDiffers]"
    ) in ran.stderr.splitlines()
    assert (
        "note: the pools and operators were compared with the cluster's facts in "
        "facts/aiacc.json (`trainstack inspect aiacc` refreshes them); the checks use the "
        "declared values"
    ) in ran.stdout.splitlines()
    review = json.loads((out / "aiacc" / "review.json").read_text())
    observed = [w for w in review["warnings"] if w["check"] == "observedDiffers"]
    assert len(observed) == 4 and observed[0]["experiment"] == "(pool cpu)"


def test_a_broken_facts_file_stops_the_plan(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (root / "facts").mkdir()
    (root / FACTS).write_text('{"format": "trainstack-facts/1"')
    ran = run(root, "plan", "aiacc", "-o", str(tmp_path / "plan"), monkeypatch=monkeypatch)
    assert ran.code == 2
    assert ran.stderr == (
        "error: invalid facts file in facts/aiacc.json: (document): found invalid JSON "
        "(JSONDecodeError); allowed: a facts file as `trainstack inspect` writes it: restore "
        "it with `git checkout -- FILE`, or write it again with `trainstack inspect STACK`\n"
    )
    assert not (tmp_path / "plan").exists()
