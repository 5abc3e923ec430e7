"""The plan's summary: what would be created, and who gets what in which namespace."""

from __future__ import annotations

from rich.console import Console

from tests.conftest import StackWriter
from tests.experiment_helpers import load
from tests.stack_helpers import example_config, on_ack_arena
from trainstack.plan.model import Plan
from trainstack.plan.runner import plan_stack
from trainstack.plan.summary import print_summary
from trainstack.plan.summary_cluster import acceleration_lines


def _raw_summary(plan: Plan, width: int = 200) -> list[str]:
    console = Console(record=True, width=width, color_system=None)
    print_summary(plan, console, "build/plan/x")
    return console.export_text().splitlines()


def _summary(plan: Plan) -> list[str]:
    return [" ".join(line.split()) for line in _raw_summary(plan)]


def test_the_summary_says_who_gets_what_in_each_namespace(
    example_plans: dict[str, Plan],
) -> None:
    lines = _summary(example_plans["aiacc"])
    start = lines.index("access: who gets what, in which namespace")
    rows = [line for line in lines[start:] if line.startswith("│")][:4]
    assert rows == [
        "│ nlp │ ClusterRole edit │ Group nlp-researchers │",
        "│ nlp │ Role trainstack-training-jobs │ Group nlp-researchers │",
        "│ vision │ ClusterRole edit │ Group vision-researchers │",
        "│ vision │ Role trainstack-training-jobs │ Group vision-researchers │",
    ]


def test_no_access_table_without_bindings(example_plans: dict[str, Plan]) -> None:
    assert not any(line.startswith("access:") for line in _summary(example_plans["onprem"]))


def _transport(plan: Plan) -> list[str]:
    """The MPI transport lines, each whole (no terminal folds them)."""
    lines = _raw_summary(plan, width=2000)
    start = next(i for i, line in enumerate(lines) if line.startswith("MPI transport"))
    end = next(i for i in range(start + 1, len(lines)) if not lines[i].startswith(" "))
    return [line.strip() for line in lines[start:end]]


def test_each_mpi_experiment_states_its_operator_transport_and_image_needs(
    example_plans: dict[str, Plan],
) -> None:
    image = (
        "<image built from images/aiacc-ssh/Dockerfile (FROM "
        "cuda11-registry.cn-beijing.cr.aliyuncs.com/aiacc/cuda11:v3.0)>"
    )
    checked = "each worker's and the launcher's preflight checks its settings at start"
    for stack in ("aiacc", "baseline"):
        lines = _transport(example_plans[stack])
        assert lines[:5] == [
            "MPI transport: ranks over ssh, MPIJob kubeflow.org/v2beta1 served by "
            "operators.mpiOperator (Kubeflow mpi-operator 0.8.2)",
            "how: the launcher's mpirun reaches each worker's sshd over ssh",
            "the image must contain: sshd in the workers (mpi.workerCommand, default "
            "/usr/sbin/sshd -De) and an ssh client in the launcher",
            "the launcher starts: with its workers (unqueued: AtStartup, so a worker's failed "
            "preflight ends the job through the launcher; queued: WaitForWorkersReady, which "
            "mpi-operator 0.8.2 does not apply to a job created suspended); its preflight "
            "waits at most 600 s for the workers' names",
            "the job's env reaches the ranks as: what mpirun exports (sshd starts a session "
            "without the pod's env): OMPI_*, and the job's env through Open MPI's env file "
            "(OMPI_MCA_mca_base_envar_file_prefix)",
        ]
        accelerated = "PERSEUS_ALLREDUCE_DTYPE, " if stack == "aiacc" else ""
        assert lines[5:8] == [
            f"imagenet-tensorflow: image {image}, workers run /usr/sbin/sshd -De",
            f"ssh setup of the image: built by the project from images/aiacc-ssh/Dockerfile; "
            f"{checked}",
            f"exported to every rank: {accelerated}gpus, workers (Open MPI's env file, "
            "trainstack.io/mpi-rank-env); OMPI_MCA_btl_vader_single_copy_mechanism (OMPI_*: "
            "Open MPI forwards them)",
        ]
        assert len(lines) == 5 + 3 * 6  # imagenet and the five Keras/LSTM points
    onprem = _transport(example_plans["onprem"])
    assert onprem[0].startswith("MPI transport: ranks over ssh, MPIJob kubeflow.org/v2beta1")
    assert onprem[5].startswith("horovod-resnet50-onprem: image ")


def test_on_ack_arena_the_transport_is_kubectl_exec_and_needs_no_sshd(
    write_stack: StackWriter,
) -> None:
    plan = plan_stack(write_stack(on_ack_arena("aiacc")), "test")
    assert _transport(plan) == [
        "MPI transport: ranks over kubectl-exec, MPIJob kubeflow.org/v1alpha1 served by "
        "operators.arena (ACK ack-arena 0.14.2)",
        "how: the launcher's mpirun starts each rank with kubectl exec (kubectl delivered by "
        "the operator's init container; workers run sleep 365d)",
        "the image must contain: nothing for the transport (no sshd, no ssh client): /bin/sh "
        "in the workers",
        "the launcher starts: once every worker is Ready (the fork creates the launcher Job then)",
        "the job's env reaches the ranks as: the pods' env: kubectl exec runs each rank in its "
        "worker's container",
        "imagenet-tensorflow: image <image built from images/aiacc-ssh/Dockerfile (FROM "
        "cuda11-registry.cn-beijing.cr.aliyuncs.com/aiacc/cuda11:v3.0)>",
    ]


def test_the_acceleration_says_what_is_unknown_and_where_each_value_is_documented(
    example_plans: dict[str, Plan],
) -> None:
    lines = acceleration_lines(example_plans["aiacc"].stack.config)
    assert lines[:2] == [
        "acceleration: on",
        "  cluster component: ack-addon <name of the AI Acceleration component as ACK lists "
        "it on this cluster> <its exact version on this cluster> (set before deploying)",
    ]
    assert lines[2].startswith(
        '  job setting env.PERSEUS_ALLREDUCE_DTYPE = "0": documented by '
        "https://www.alibabacloud.com/help/en/egs/startup-commands-and-environment-variables"
    )
    assert acceleration_lines(example_plans["baseline"].stack.config) == ["acceleration: off"]


def test_a_job_setting_without_a_source_is_marked_unverified() -> None:
    config = example_config("aiacc")
    acceleration = config["trainstack:acceleration"]
    acceleration["experimentOverrides"]["env"]["PERSEUS_ALLREDUCE_NANCHECK"] = "1"
    del acceleration["component"]
    lines = acceleration_lines(load(config).config)
    assert lines[1] == "  cluster component: none"
    assert lines[3] == (
        '  job setting env.PERSEUS_ALLREDUCE_NANCHECK = "1": unverified: no source in '
        "trainstack:acceleration.sources"
    )


def test_what_deploy_fetches_from_outside_has_a_heading_of_its_own(
    example_plans: dict[str, Plan],
) -> None:
    lines = _summary(example_plans["aiacc"])
    start = lines.index(
        "pulled from outside region cn-beijing at deploy time (11); each key points it at a mirror:"
    )
    # (long lines wrap at the console's width: each entry starts on a line of its own)
    assert lines[start + 1].startswith(
        "https://github.com/kubeflow/trainer//manifests/overlays/standalone?ref=v1.9.4: "
    )
    assert _summary(example_plans["aiacc"]) == lines  # the same plan, the same summary


def test_the_summary_shows_capacity_allocatable_and_image_facts(
    example_plans: dict[str, Plan],
) -> None:
    lines = _summary(example_plans["aiacc"])
    assert any(
        line.startswith(
            "pool gpu-v100: 4 node(s) x 4 V100 = 16 GPUs, NVIDIA driver 550.144.03; per "
            "node: capacity 48 CPU, 368Gi; allocatable 47.81 CPU, 364.708Gi"
        )
        for line in lines
    )
    assert any(
        line.startswith("image of tf-multiworker-mnist (experiments/tf-multiworker-mnist.yaml): ")
        and "CUDA yes" in line
        for line in lines
    )


def test_the_cost_of_the_example_stacks_is_unknown_and_says_why(
    example_plans: dict[str, Plan],
) -> None:
    lines = _raw_summary(example_plans["aiacc"])
    start = lines.index(
        "cost (CNY; nodes only, pay-as-you-go: no disks, NAS, traffic or cluster fees; "
        "docs/cost.md):"
    )
    assert lines[start + 1 : start + 4] == [
        "  pool gpu-v100: 4 node(s) of ecs.gn6e-c12g1.12xlarge: price unknown: the price of "
        "ecs.gn6e-c12g1.12xlarge in cn-beijing is a placeholder (set before deploying)",
        "  pool cpu: 2 node(s) of ecs.g7.2xlarge: price unknown: the price of ecs.g7.2xlarge in "
        "cn-beijing is a placeholder (set before deploying)",
        "  stack aiacc: 16 GPUs, per hour unknown (2 pool(s) without a price)",
    ]
    assert lines[start + 4].strip() == "cost per experiment (CNY)"
    # The ACK price list's placeholders are listed where the stack sets its own prices.
    assert (
        "  stacks/Pulumi.aiacc.yaml: trainstack:cost.prices: <pay-as-you-go price of "
        "ecs.gn6e-c12g1.12xlarge in cn-beijing, CNY per hour> (for the cost figures only: "
        "`pulumi up` does not need it)"
    ) in lines
    # On premises: no price list, said so; nothing to set before deploying.
    onprem = " ".join(_summary(example_plans["onprem"]))  # long lines wrap at 200 columns
    assert (
        "pool dgx-v100: 2 node(s) of no instance type: price unknown: pool dgx-v100 has no "
        "instance type: an existing cluster's nodes (on premises, or rented elsewhere) have "
        "no price list: give the pool's price per node-hour in trainstack:cost.prices (pool: "
        "NAME), as your organisation counts it"
    ) in onprem
    assert "trainstack:cost.prices:" not in onprem


def test_the_default_summary_is_grouped_short_and_wrapped(
    example_plans: dict[str, Plan],
) -> None:
    """Issue 38, item 6: read in 30 s; the details are one `--verbose` away."""
    console = Console(record=True, width=400, color_system=None)
    print_summary(example_plans["aiacc"], console, "build/plan/x", verbose=False)
    lines = console.export_text().splitlines()
    headings = [line for line in lines if line and line[0].isalpha() and line.endswith(":")]
    assert headings == [
        "capacity:",
        "teams:",
        "operators:",
        "experiments:",
        "acknowledged:",
        "cost:",
        "set before deploying (18):",
    ]
    assert lines[0] == "stack aiacc: 53 resources of 29 types (`--verbose` lists them)"
    # Only a URL, which cannot be broken, is longer than 100 characters.
    assert all(len(line) <= 100 or "https://" in line for line in lines)
    assert len(lines) < len(_raw_summary(example_plans["aiacc"])) * 3 // 4
    assert not any(line.startswith("MPI transport") for line in lines)
    (details,) = [n for n, line in enumerate(lines) if line.startswith("details (`--verbose`)")]
    assert all(line.startswith("    ") for line in lines[details + 1 : -1])
    assert lines[-1] == "plan written to build/plan/x"
