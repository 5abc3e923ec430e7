"""Warnings do not stop a plan; they say what often ruins a run."""

from __future__ import annotations

import pytest

from tests.experiment_helpers import IMAGENET, Deployer, job, stack_config
from tests.team_helpers import example_teams
from trainstack.core.errors import PlanCheckError
from trainstack.deployment import Deployment

SHARED_MEMORY = "Open MPI ranks per pod"


def _warnings(deployment: Deployment) -> list[str]:
    """The warnings, but the Open MPI one that workload 1 (4 ranks per pod) always gets."""
    return [str(w) for w in deployment.warnings if SHARED_MEMORY not in w.message]


def test_small_shm_on_a_nccl_job(deploy: Deployer) -> None:
    warnings = _warnings(deploy(job(shm={"enabled": True, "sizeLimit": "512Mi"})))
    assert warnings == [
        "experiments/00-imagenet-tensorflow.yaml: experiment imagenet-tensorflow: "
        "job.shm.sizeLimit: 512Mi is under 1Gi on a multi-GPU job: NCCL needs more shared "
        "memory [sharedMemory]"
    ]


def test_no_shm_on_a_nccl_job(deploy: Deployer) -> None:
    (warning,) = _warnings(deploy(job(shm={"enabled": False})))
    assert "job.shm.enabled: false on a multi-GPU job" in warning


def test_gpu_pods_without_memory_limit(deploy: Deployer) -> None:
    (warning,) = _warnings(deploy(job(worker={"replicas": 4, "gpus": 4})))
    assert warning.endswith(
        "job.worker.resources.limits.memory: worker pods hold 4 GPU(s) without a memory "
        "limit: an over-committed node kills jobs; set one (or a namespace LimitRange default) "
        "[memoryLimit]"
    )


def test_workload_one_with_limits_has_no_warning(deploy: Deployer) -> None:
    assert _warnings(deploy(job())) == []


def test_ttl_after_finished_reruns_the_job(deploy: Deployer) -> None:
    (warning,) = _warnings(deploy(job(runPolicy={"ttlSecondsAfterFinished": 600})))
    assert warning.endswith(
        "job.runPolicy.ttlSecondsAfterFinished: 600: the operator deletes the finished job, "
        "and the next `pulumi up` creates it again and re-runs it; remove the experiment "
        "from the stack to clean up instead [ttlAfterFinished]"
    )


def test_team_memory_default_counts_as_a_limit(deploy: Deployer) -> None:
    experiment = job(worker={"replicas": 2, "gpus": 4})
    experiment["team"] = "vision"
    experiment.pop("namespace", None)
    experiment["job"]["datasets"] = []
    config = stack_config(teams=example_teams())
    assert _warnings(deploy(experiment, config=config)) == []
    no_default = example_teams()
    no_default[0]["containerDefaults"] = {}
    with pytest.raises(PlanCheckError, match=r"limits\.memory: unset on worker pods"):
        # Without a default the team's quota refuses such pods outright (an error).
        deploy(experiment, config=stack_config(teams=no_default))


def test_a_credential_in_plain_env_is_a_warning_that_never_shows_it(deploy: Deployer) -> None:
    experiment = job(
        env={
            "WANDB_API_KEY": "wb-Secret-9",
            "TOKENIZERS_PARALLELISM": "false",
            "HF_TOKEN": {"valueFrom": {"secretKeyRef": {"name": "hf", "key": "token"}}},
        },
        worker={**IMAGENET["job"]["worker"], "env": {"DB_PASSWORD": "pw-Secret-8"}},
    )
    warnings = [str(w) for w in deploy(experiment).warnings if "credential" in w.message]
    assert [warning.split(": looks like")[0] for warning in warnings] == [
        "experiments/00-imagenet-tensorflow.yaml: experiment imagenet-tensorflow: "
        "job.env.WANDB_API_KEY",
        "experiments/00-imagenet-tensorflow.yaml: experiment imagenet-tensorflow: "
        "job.worker.env.DB_PASSWORD",
    ]
    assert warnings[0].endswith(
        "looks like a credential (by its name; the value is not shown) in plain text: it is "
        "written into the plan, the Helm release and the pods' spec, readable by all who can "
        "read those; keep it in a Kubernetes Secret and reference it with "
        "`valueFrom: {secretKeyRef: {name, key}}` [plainCredential]"
    )
    assert not any("Secret-" in warning for warning in warnings)


def test_several_open_mpi_ranks_per_pod_need_sys_ptrace(deploy: Deployer) -> None:
    (warning,) = [str(w) for w in deploy(job()).warnings]
    assert warning == (
        "experiments/00-imagenet-tensorflow.yaml: experiment imagenet-tensorflow: "
        "job.security.capabilities.add: no SYS_PTRACE for 4 Open MPI ranks per pod under the "
        "RuntimeDefault seccomp profile: Open MPI's shared-memory transfers use "
        "process_vm_readv, which the runtime refuses without it; add SYS_PTRACE (Pod Security "
        "baseline refuses it: the team needs podSecurity privileged), or set "
        "OMPI_MCA_btl_vader_single_copy_mechanism: none in env [openMpiPtrace]"
    )


@pytest.mark.parametrize(
    "changes",
    [
        {"security": {"capabilities": {"add": ["SYS_PTRACE"]}}},
        {
            "worker": {
                **IMAGENET["job"]["worker"],
                "security": {"capabilities": {"add": ["SYS_PTRACE"]}},
            }
        },  # noqa: E501
        {"env": {"OMPI_MCA_btl_vader_single_copy_mechanism": "none"}},
        {"mpi": {"slotsPerWorker": 1}},
        {"mpi": {"implementation": "Intel"}},
        {"security": {"seccompProfile": "Unconfined"}},
        {"security": {"privileged": True}},
    ],
    ids=["ptrace", "worker ptrace", "no cma", "one rank", "intel", "unconfined", "privileged"],
)
def test_open_mpi_shared_memory_is_fine_with_the_capability_or_without_its_cause(
    deploy: Deployer, changes: dict[str, object]
) -> None:
    found = [w for w in deploy(job(**changes)).warnings if SHARED_MEMORY in w.message]
    assert found == []


def test_variables_the_operator_sets_are_its_own(deploy: Deployer) -> None:
    experiment = job(env={"OMPI_MCA_plm_rsh_args": "-p 2222"})
    (warning,) = [w for w in deploy(experiment).warnings if w.key.startswith("job.env")]
    assert str(warning).endswith(
        "job.env.OMPI_MCA_plm_rsh_args: OMPI_MCA_plm_rsh_args is set by the operator in the "
        "MPIJob's training containers, and its value wins: remove it from the job [operatorEnv]"
    )
