"""The preflight every training pod runs first (charts/training-job/files/preflight.sh).

Rendered by the chart, then run for real: the rendered init container's own command and
environment, in a real shell (dash, bash in POSIX mode, busybox when installed), with
stand-ins for nvidia-smi, sshd, ssh, getent and the commands the script uses on a PATH of
their own, and temporary directories for the mounts. Each failure ends with its exact
line, exit status 1; a pass exits 0.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.chart.jobs import CI_VALUES, job_values, render_job
from tests.chart.preflight_pod import (
    KEYS,
    Pod,
    mpi_job,
    preflight,
    ready,
    role_preflight,
    run,
)
from tests.chart.test_conformance import KITCHEN_SINKS
from trainstack.chart.render import render_training_job
from trainstack.conformance.validate import pod_templates
from trainstack.training_job import read_values_file
from trainstack.training_job.preflight import RESOLVE_SECONDS


def test_a_pod_that_has_what_its_job_needs_passes(shell: list[str], place: Path) -> None:
    pod = Pod(place)
    ready(pod)
    job = mpi_job(pod)
    for role, checked in (
        (
            "Worker",
            f"4 GPU(s), sshd {place}/sshd (sshd -t, StrictModes no, keys in {KEYS}), "
            f"dataset {place}/data, results {place}/results",
        ),
        (
            "Launcher",
            f"ssh (StrictHostKeyChecking false, key in {KEYS}), dataset {place}/data, "
            f"results {place}/results",
        ),
    ):
        code, lines = run(role_preflight(job, role), shell, pod)
        assert code == 0, lines
        assert lines[-1].startswith("trainstack preflight: passed in ")
        names = ", 2 worker name(s)" if role == "Launcher" else ""
        assert lines[-1].endswith(f"{checked} writable, $workers, $gpus{names}")
    # nothing left behind by the write probe
    assert list((place / "results").iterdir()) == []


FAILURES: dict[str, tuple[str, Any]] = {
    "too few GPUs": ("Worker", "2 of the 4 GPUs asked for are visible (nvidia-smi -L)"),
    "no nvidia-smi and no device files": (
        "Worker",
        "0 of the 4 GPUs asked for are visible (/dev/nvidia<N>; no nvidia-smi in the image)",
    ),
    "no sshd": (
        "Worker",
        "the workers' sshd {root}/sshd is not in the image (the MPI transport is ssh: "
        "docs/mpi-transport.md)",
    ),
    "no ssh client": (
        "Launcher",
        "the launcher's ssh client ssh is not in the image (the MPI transport is ssh: "
        "docs/mpi-transport.md)",
    ),
    "a dataset not mounted": ("Worker", "dataset {root}/data is not mounted (no such directory)"),
    "results not writable": ("Worker", "results /proc/self is not writable by user 0"),
    "a variable the script needs": (
        "Worker",
        "environment variable gpus is not set (preflight.requiredEnv)",
    ),
    "workers that do not resolve": (
        "Launcher",
        "the launcher cannot resolve worker(s) job-worker-0.job.team.svc, "
        "job-worker-1.job.team.svc within 1 s",
    ),
}


@pytest.mark.parametrize("case", sorted(FAILURES))
def test_each_failure_ends_with_its_one_line(case: str, shell: list[str], place: Path) -> None:
    pod = Pod(place)
    ready(pod)
    values: dict[str, Any] = {}
    extra: dict[str, str] = {}
    if case == "too few GPUs":
        pod.gpus(2)
    elif case == "no nvidia-smi and no device files":
        if list(Path("/dev").glob("nvidia[0-9]*")):
            pytest.skip("this machine has NVIDIA device files")
        (pod.bin / "nvidia-smi").unlink()
    elif case == "no ssh client":
        (pod.bin / "ssh").unlink()
    elif case == "results not writable":
        if os.geteuid() != 0:
            pytest.skip("the expected line names user 0")
        # a directory nobody, root included, can create a file in
        values["results"] = {"claimName": "out", "mountPath": "/proc/self"}
    elif case == "a variable the script needs":
        values["env"] = {"workers": "2"}
    elif case == "workers that do not resolve":
        pod.stub("getent", "exit 2")
        # the rendered wait is RESOLVE_SECONDS; a test does not wait that long
        extra["TRAINSTACK_PREFLIGHT_RESOLVE_SECONDS"] = "1"
    job = mpi_job(pod, **values)
    if case == "no sshd":
        (place / "sshd").unlink()
    if case == "a dataset not mounted":
        (place / "data").rmdir()
    role, line = FAILURES[case]
    code, lines = run(role_preflight(job, role), shell, pod, extra)
    assert code == 1
    assert lines[-1] == "trainstack preflight: " + line.format(root=place)


def test_a_mount_the_pods_user_cannot_read(shell: list[str], place: Path) -> None:
    pod = Pod(place)
    ready(pod)
    job = mpi_job(pod)
    (place / "data").chmod(0o700)  # root's; the pod runs as 65534
    # sshd reads the keys where the operator mounts them whoever logs in
    pod.sshd(authorizedkeysfile=f"{KEYS}/authorized_keys")
    if shutil.which("setpriv") is None or os.geteuid() != 0:
        pytest.skip("needs root and setpriv to run the pod as another user")
    code, lines = run(role_preflight(job, "Worker"), shell, pod, user=65534)
    assert code == 1
    # results (0777) stays writable by anyone
    assert lines[-1] == f"trainstack preflight: dataset {place}/data is not readable by user 65534"


def test_every_problem_is_on_the_one_line_and_the_wait_is_skipped(
    shell: list[str], place: Path
) -> None:
    pod = Pod(place)
    ready(pod)
    pod.gpus(0)
    pod.stub("getent", "exit 2")
    job = mpi_job(pod, env={})
    worker, launcher = role_preflight(job, "Worker"), role_preflight(job, "Launcher")
    assert run(worker, shell, pod)[1][-1] == (
        "trainstack preflight: 0 of the 4 GPUs asked for are visible (nvidia-smi -L); "
        "environment variable workers is not set (preflight.requiredEnv); environment "
        "variable gpus is not set (preflight.requiredEnv)"
    )
    # another check failed: the launcher does not wait RESOLVE_SECONDS for its workers
    code, lines = run(launcher, shell, pod)
    assert code == 1 and "within 0 s" in lines[-1]


def test_a_trainjob_runs_its_command_after_the_checks(shell: list[str], place: Path) -> None:
    pod = Pod(place)
    pod.gpus(1)
    pod.stub("torchrun", 'echo "torchrun $*"')
    values = job_values(
        "trainjob",
        command=["torchrun", "/app/train.py"],
        args=["--epochs", "1"],
        worker={"replicas": 2, "gpus": 1},
    )
    trainer = render_job(values)["spec"]["trainer"]
    code, lines = run(trainer, shell, pod)
    assert (code, lines[-1]) == (0, "torchrun /app/train.py --epochs 1")
    pod.gpus(0)
    code, lines = run(trainer, shell, pod)
    assert code == 1
    assert lines[-1] == (
        "trainstack preflight: 0 of the 1 GPUs asked for are visible (nvidia-smi -L)"
    )


def test_the_wait_for_the_workers_is_the_documented_bound() -> None:
    launcher = role_preflight(render_job(job_values("mpi", worker={"replicas": 1})), "Launcher")
    env = {e["name"]: e["value"] for e in launcher["env"]}
    assert env["TRAINSTACK_PREFLIGHT_RESOLVE_SECONDS"] == str(RESOLVE_SECONDS)
    assert env["TRAINSTACK_PREFLIGHT_HOSTS"] == "job-worker-0.job.team.svc"


def _training_pods(values: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    for obj in render_training_job(values, release="job", namespace="team"):
        if obj["kind"] in ("Deployment", "Service", "TrainJob"):
            continue
        for path, template in pod_templates(obj):
            yield f"{obj['kind']} {path}", template["spec"]


@pytest.mark.parametrize(
    "values",
    [read_values_file(path) for path in CI_VALUES] + list(KITCHEN_SINKS.values()),
    ids=[path.name for path in CI_VALUES] + sorted(KITCHEN_SINKS),
)
def test_every_training_pod_carries_it_and_it_weakens_nothing(values: dict[str, Any]) -> None:
    if values["framework"] == "trainjob":
        (job,) = [
            o
            for o in render_training_job(values, release="job", namespace="team")
            if o["kind"] == "TrainJob"
        ]
        # no init containers in a TrainJob: the trainer's command runs after the checks
        assert job["spec"]["trainer"]["command"][3] == "trainstack-preflight"
        return
    pods = list(_training_pods(values))
    assert pods
    for where, pod in pods:
        init = preflight(pod)
        (main,) = pod["containers"]
        assert init["securityContext"] == main["securityContext"], where
        assert not init["securityContext"].get("privileged") or main["securityContext"].get(
            "privileged"
        )
        assert init.get("resources") == main.get("resources"), where
        assert (init["image"], init["imagePullPolicy"]) == (main["image"], main["imagePullPolicy"])
        assert init.get("volumeMounts") == main.get("volumeMounts"), where
        assert init["terminationMessagePolicy"] == "FallbackToLogsOnError"


def test_ack_arenas_shared_template_checks_without_gpus_or_stripped_claims() -> None:
    values = job_values(
        "mpi",
        operatorApi="arena",
        security={"seccompProfile": None},
        worker={"replicas": 2, "gpus": 4},
        datasets=[{"claimName": "imagenet-data", "mountPath": "/data"}],
        mpi={"mountsOnLauncher": False, "launcher": {"resources": {"requests": {"cpu": "1"}}}},
    )
    template = render_job(values)["spec"]["template"]["spec"]
    init = preflight(template)
    names = {e["name"] for e in init.get("env", [])}
    # the launcher Job is made from this template: no GPU request, no claim it would lose
    assert "TRAINSTACK_PREFLIGHT_GPUS" not in names and "TRAINSTACK_PREFLIGHT_READ" not in names
    assert init["resources"] == {"requests": {"cpu": "1"}}
    assert [m["mountPath"] for m in init["volumeMounts"]] == ["/dev/shm"]
    assert init["securityContext"] == template["containers"][0]["securityContext"]


def test_one_switch_turns_it_off() -> None:
    job = render_job(job_values("pytorch", preflight={"enabled": False}))
    for spec in job["spec"]["pytorchReplicaSpecs"].values():
        assert "initContainers" not in spec["template"]["spec"]
