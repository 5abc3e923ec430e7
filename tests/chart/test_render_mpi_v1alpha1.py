"""The MPIJob (kubeflow.org/v1alpha1) the chart renders for ack-arena (operatorApi arena).

ack-arena's fork makes the launcher and the workers from one pod template and starts the
ranks through kubectl exec (trainstack/training_job/frameworks/mpi/arena.py): the
template carries the launcher's command and the workers' GPUs, the launcher's resources
travel in launcherResources, and nothing of sshd is rendered.
"""

from __future__ import annotations

from typing import Any

from tests.chart.jobs import job_values, render_job
from tests.conformance import crd_dir
from trainstack.conformance import CrdSchemas, object_violations
from trainstack.operators.registry import release

ARENA = {"operatorApi": "arena", "security": {"seccompProfile": None}}
IMAGENET = job_values(
    "mpi",
    **ARENA,
    image={"name": "cuda11-registry.cn-beijing.cr.aliyuncs.com/aiacc/cuda11:v3.0"},
    command="sh /data/tensorflow-imagenet/launch_arena.sh",
    workingDir="/data",
    worker={"replicas": 4, "gpus": 4},
    mpi={"mountsOnLauncher": True},
    datasets=[{"claimName": "imagenet-data", "mountPath": "/data"}],
)


def _template(job: dict[str, Any]) -> dict[str, Any]:
    template: dict[str, Any] = job["spec"]["template"]
    return template


def _container(job: dict[str, Any]) -> dict[str, Any]:
    (container,) = _template(job)["spec"]["containers"]
    assert isinstance(container, dict)
    return container


def test_imagenet_is_one_template_for_launcher_and_workers() -> None:
    job = render_job(IMAGENET, release="imagenet-tensorflow")

    assert (job["apiVersion"], job["kind"]) == ("kubeflow.org/v1alpha1", "MPIJob")
    spec = job["spec"]
    assert spec["replicas"] == 4
    assert spec["mountsOnLauncher"] is True
    assert "mpiReplicaSpecs" not in spec and "slotsPerWorker" not in spec
    container = _container(job)
    assert container["name"] == "mpi"  # Arena's name for it
    # on the launcher, the workers' preflight reports are read first, then the command runs
    wrapper, name, *command = container["command"][2:]
    assert wrapper.startswith("# trainstack preflight: charts/training-job/files/preflight-workers")
    assert (name, command) == (
        "trainstack-preflight",
        ["sh", "-c", "sh /data/tensorflow-imagenet/launch_arena.sh"],
    )
    assert container["workingDir"] == "/data"
    assert container["resources"]["limits"]["nvidia.com/gpu"] == 4
    assert {m["mountPath"] for m in container["volumeMounts"]} == {"/dev/shm", "/data"}


def test_nothing_of_sshd_and_the_launchers_token_for_kubectl_exec() -> None:
    pod = _template(render_job(IMAGENET))["spec"]

    # kubectl exec runs as the launcher's ServiceAccount: its token must be mounted
    assert pod["automountServiceAccountToken"] is True
    assert "sshAuthMountPath" not in render_job(IMAGENET)["spec"]
    assert "/usr/sbin/sshd" not in str(pod["containers"])
    assert "SSHD" not in str(pod["initContainers"][0].get("env"))
    # the launcher Job keeps Never, trainstack's default; the fork makes anything else
    # OnFailure
    assert pod["restartPolicy"] == "Never"
    retried = job_values("mpi", **ARENA, mpi={"launcher": {"restartPolicy": "OnFailure"}})
    assert _template(render_job(retried))["spec"]["restartPolicy"] == "OnFailure"


def test_the_launchers_resources_are_launcher_resources() -> None:
    values = job_values(
        "mpi",
        **ARENA,
        worker={"replicas": 2, "resources": {"requests": {"cpu": "8"}}},
        mpi={"launcher": {"resources": {"requests": {"cpu": "1", "memory": "2Gi"}}}},
    )
    job = render_job(values)

    assert job["spec"]["launcherResources"] == {"requests": {"cpu": "1", "memory": "2Gi"}}
    assert _container(job)["resources"] == {"requests": {"cpu": "8"}}
    assert "launcherResources" not in render_job(IMAGENET)["spec"]


def test_the_run_policy_sits_under_spec_without_time_limits() -> None:
    values = job_values("mpi", **ARENA, runPolicy={"cleanPodPolicy": "All", "backoffLimit": 0})
    spec = render_job(values)["spec"]

    assert spec["cleanPodPolicy"] == "All"
    assert spec["backoffLimit"] == 0
    assert "runPolicy" not in spec


def test_the_default_dialect_still_renders_v2beta1() -> None:
    values = {key: value for key, value in IMAGENET.items() if key != "operatorApi"}
    assert render_job(values)["apiVersion"] == "kubeflow.org/v2beta1"


def test_it_passes_ack_arenas_mpijob_crd_schema() -> None:
    arena = release("arena", "0.14.2")
    assert arena is not None
    schemas = CrdSchemas(crd_dir())
    everything = job_values(
        "mpi",
        **ARENA,
        worker={"replicas": 2, "gpus": 8, "resources": {"limits": {"memory": "64Gi"}}},
        mpi={"launcher": {"resources": {"requests": {"cpu": 1}}, "restartPolicy": "Never"}},
        datasets=[{"claimName": "imagenet-data", "mountPath": "/data", "readOnly": True}],
        results={"claimName": "results"},
        runPolicy={"cleanPodPolicy": "All", "backoffLimit": 2},
        network={"hostNetwork": True},
        env={"NCCL_DEBUG": "INFO"},
    )
    for values in (IMAGENET, everything):
        assert object_violations(render_job(values), schemas, arena.schemas) == []


def test_the_schema_check_sees_what_v1alpha1_lacks() -> None:
    arena = release("arena", "0.14.2")
    assert arena is not None
    job = render_job(IMAGENET)
    job["spec"]["slotsPerWorker"] = 4
    found = object_violations(job, CrdSchemas(crd_dir()), arena.schemas)
    assert [violation.path for violation in found] == ["spec"]
    assert "slotsPerWorker" in found[0].rule
