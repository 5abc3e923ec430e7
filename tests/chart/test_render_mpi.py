"""The MPIJob (kubeflow.org/v2beta1) the chart renders for framework mpi."""

from __future__ import annotations

from tests.chart.jobs import (
    container,
    env,
    job_values,
    mounts,
    pod_spec,
    render_job,
    replica_specs,
    volumes,
)
from tests.conformance import crd_dir, validate_objects

IMAGENET = job_values(
    "mpi",
    image={"name": "cuda11-registry.cn-beijing.cr.aliyuncs.com/aiacc/cuda11:v3.0"},
    command="sh /data/tensorflow-imagenet/launch_arena.sh",
    workingDir="/data",
    worker={"replicas": 4, "gpus": 4},
    datasets=[{"claimName": "imagenet-data", "mountPath": "/data"}],
)


def test_imagenet_job_is_an_mpijob_with_one_launcher_and_four_workers() -> None:
    job = render_job(IMAGENET, release="imagenet-tensorflow")

    assert (job["apiVersion"], job["kind"]) == ("kubeflow.org/v2beta1", "MPIJob")
    assert job["metadata"]["name"] == "imagenet-tensorflow"
    assert job["metadata"]["namespace"] == "team"
    specs = replica_specs(job)
    assert sorted(specs) == ["Launcher", "Worker"]
    assert specs["Launcher"]["replicas"] == 1
    assert specs["Worker"]["replicas"] == 4


def test_workers_get_the_gpus_as_request_and_limit_and_the_launcher_none() -> None:
    job = render_job(IMAGENET)

    worker = container(job, "Worker")["resources"]
    assert worker["limits"]["nvidia.com/gpu"] == 4
    assert worker["requests"]["nvidia.com/gpu"] == 4
    launcher = container(job, "Launcher").get("resources", {})
    assert "nvidia.com/gpu" not in launcher.get("limits", {})
    assert "nvidia.com/gpu" not in launcher.get("requests", {})


def test_slots_per_worker_defaults_to_the_gpus_per_worker() -> None:
    assert render_job(IMAGENET)["spec"]["slotsPerWorker"] == 4
    no_gpu = job_values("mpi", worker={"replicas": 2})
    assert render_job(no_gpu)["spec"]["slotsPerWorker"] == 1
    explicit = job_values("mpi", worker={"gpus": 8}, mpi={"slotsPerWorker": 2})
    assert render_job(explicit)["spec"]["slotsPerWorker"] == 2


def test_launcher_runs_the_command_and_workers_run_sshd() -> None:
    job = render_job(IMAGENET)

    assert container(job, "Launcher")["command"] == [
        "sh",
        "-c",
        "sh /data/tensorflow-imagenet/launch_arena.sh",
    ]
    assert container(job, "Worker")["command"] == ["/usr/sbin/sshd", "-De"]
    assert container(job, "Launcher")["workingDir"] == "/data"
    assert container(job, "Worker")["workingDir"] == "/data"


def test_the_dataset_is_mounted_on_workers_and_on_the_launcher_by_default() -> None:
    job = render_job(IMAGENET)

    for role in ("Launcher", "Worker"):
        assert mounts(job, role)["/data"]["name"] == "dataset-0"
        claim = volumes(job, role)["dataset-0"]["persistentVolumeClaim"]
        assert claim == {"claimName": "imagenet-data", "readOnly": True}  # the default
        assert mounts(job, role)["/data"]["readOnly"] is True


def test_mounts_on_launcher_false_leaves_the_launcher_without_data() -> None:
    values = job_values(
        "mpi",
        mpi={"mountsOnLauncher": False},
        datasets=[{"claimName": "imagenet-data", "mountPath": "/data"}],
        results={"claimName": "results"},
    )
    job = render_job(values)

    assert "volumes" not in pod_spec(job, "Launcher")
    assert "volumeMounts" not in container(job, "Launcher")
    assert set(mounts(job, "Worker")) == {"/dev/shm", "/data", "/results"}


def test_shared_memory_is_on_the_workers_not_on_the_launcher() -> None:
    job = render_job(IMAGENET)

    shm = volumes(job, "Worker")["dshm"]["emptyDir"]
    assert shm == {"medium": "Memory", "sizeLimit": "2Gi"}
    assert mounts(job, "Worker")["/dev/shm"]["name"] == "dshm"
    assert "dshm" not in volumes(job, "Launcher")


def test_mpi_settings_and_restart_policies() -> None:
    values = job_values(
        "mpi", mpi={"implementation": "Intel", "sshAuthMountPath": "/home/mpiuser/.ssh"}
    )
    job = render_job(values)

    assert job["spec"]["mpiImplementation"] == "Intel"
    assert job["spec"]["sshAuthMountPath"] == "/home/mpiuser/.ssh"
    assert replica_specs(job)["Launcher"]["restartPolicy"] == "Never"
    assert replica_specs(job)["Worker"]["restartPolicy"] == "Never"
    retried = render_job(job_values("mpi", runPolicy={"restartPolicy": "OnFailure"}))
    assert replica_specs(retried)["Launcher"]["restartPolicy"] == "OnFailure"


def test_host_network_needs_its_own_ssh_port_on_both_sides() -> None:
    values = job_values(
        "mpi",
        worker={"replicas": 2, "gpus": 8},
        network={"hostNetwork": True},
        mpi={"sshPort": 2222},
    )
    job = render_job(values)

    for role in ("Launcher", "Worker"):
        assert pod_spec(job, role)["hostNetwork"] is True
        assert pod_spec(job, role)["dnsPolicy"] == "ClusterFirstWithHostNet"
    assert container(job, "Worker")["command"] == ["/usr/sbin/sshd", "-De", "-p", "2222"]
    assert env(job, "Launcher") == [
        ("OMPI_MCA_plm_rsh_agent", "ssh -p 2222"),
        ("PRTE_MCA_plm_ssh_agent", "ssh -p 2222"),
    ]
    assert "env" not in container(job, "Worker")


def test_the_default_ssh_port_adds_nothing() -> None:
    job = render_job(IMAGENET)

    assert "env" not in container(job, "Launcher")
    assert "hostNetwork" not in pod_spec(job, "Worker")
    assert "dnsPolicy" not in pod_spec(job, "Worker")


def test_user_env_comes_first_then_the_ssh_agent() -> None:
    values = job_values("mpi", env={"NCCL_DEBUG": "INFO"}, mpi={"sshPort": 2022})
    job = render_job(values)

    assert env(job, "Launcher")[0] == ("NCCL_DEBUG", "INFO")
    assert env(job, "Launcher")[1] == ("OMPI_MCA_plm_rsh_agent", "ssh -p 2022")
    assert env(job, "Worker") == [("NCCL_DEBUG", "INFO")]


def test_the_launcher_has_its_own_resources_image_and_node_selector() -> None:
    values = job_values(
        "mpi",
        worker={"gpus": 1},
        mpi={
            "launcher": {
                "image": "registry.example.com/team/launcher:1",
                "resources": {"requests": {"cpu": 1, "memory": "2Gi"}},
                "nodeSelector": {"pool": "cpu"},
            }
        },
    )
    job = render_job(values)

    launcher = container(job, "Launcher")
    assert launcher["image"] == "registry.example.com/team/launcher:1"
    assert launcher["resources"] == {"requests": {"cpu": "1", "memory": "2Gi"}}
    assert pod_spec(job, "Launcher")["nodeSelector"] == {"pool": "cpu"}
    assert "nodeSelector" not in pod_spec(job, "Worker")
    assert container(job, "Worker")["image"] == "registry.example.com/team/train:1.0"


def test_a_queued_launcher_waits_for_ready_workers_and_the_crd_accepts_it() -> None:
    """Issue 32: no race at start. mpi-operator (>= 0.5.0) creates the launcher only
    when every worker is Ready (pkg/controller/mpi_job_controller.go:678 at b10758da):
    rendered for queued jobs (0.8.2 does not apply it to a job created suspended,
    L665-686, but it costs nothing there)."""
    queued = {**IMAGENET, "labels": {"kueue.x-k8s.io/queue-name": "vision"}}
    job = render_job(queued)
    assert job["spec"]["launcherCreationPolicy"] == "WaitForWorkersReady"
    assert validate_objects([job], crd_dir()) == 1


def test_an_unqueued_launcher_starts_with_its_workers() -> None:
    """A launcher waiting for Ready workers is never made when a worker fails its
    preflight (L677-679), and nothing else ends an unqueued job: AtStartup, and the
    launcher's bounded wait for the workers' names fails it."""
    job = render_job(IMAGENET)
    assert "kueue.x-k8s.io/queue-name" not in (IMAGENET.get("labels") or {})
    assert job["spec"]["launcherCreationPolicy"] == "AtStartup"
    assert validate_objects([job], crd_dir()) == 1
