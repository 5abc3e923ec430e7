"""ack-arena's MPIJob v1alpha1: the workers report a failed preflight, the launcher fails with it.

The fork's workers are a StatefulSet (restartPolicy Always) and its launcher is created
only once every worker is Ready, so a failing worker preflight would be retried forever.
Rendered by the chart, then run for real in dash, bash in POSIX mode and busybox: the
template's preflight init container exits 0 in a worker (the line left as its message)
and 1 in the launcher; the launcher's command first reads each worker's line with a
kubectl stand-in answering as the API server would, and fails naming the worker.
"""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

from tests.chart.jobs import job_values, render_job
from tests.chart.preflight_pod import Pod, run

ARENA = {"operatorApi": "arena", "security": {"seccompProfile": None}}
PASSED = "trainstack preflight: passed in 0 s: dataset /data"


def _job(pod: Pod, data: Path) -> dict[str, Any]:
    values = job_values(
        "mpi",
        **ARENA,
        command=["echo", "trained"],
        worker={"replicas": 2, "gpus": 4},
        mpi={"mountsOnLauncher": True},
        datasets=[{"claimName": "imagenet-data", "mountPath": str(data)}],
    )
    return render_job(values, release="job")


def _pod_spec(job: dict[str, Any]) -> dict[str, Any]:
    spec: dict[str, Any] = job["spec"]["template"]["spec"]
    return spec


def _kubectl(pod: Pod, answers: dict[str, str], fails: bool = False) -> str:
    """A kubectl that prints, for ``get pod NAME -o jsonpath=...``, NAME's preflight
    termination message, and checks it was asked exactly that."""
    cases = "\n".join(f"  {name}) printf '%s\\n' '{line}' ;;" for name, line in answers.items())
    body = (
        '[ "$1 $2" = "get pod" ] && [ "$4" = -o ] || exit 64\n'
        '[ "$5" = \'jsonpath={.status.initContainerStatuses[?(@.name=="preflight")]'
        ".state.terminated.message}' ] || exit 65\n"
        + ("exit 1\n" if fails else "")
        + f'case "$3" in\n{cases}\n  *) exit 1 ;;\nesac'
    )
    return str(pod.stub("kubectl", body, pod.root))


def test_a_worker_only_reports_a_failed_check_the_launcher_fails_on_it(
    shell: list[str], place: Path
) -> None:
    pod = Pod(place)
    job = _job(pod, place / "missing")
    init = _pod_spec(job)["initContainers"][0]
    role = {e["name"]: e for e in init["env"]}["TRAINSTACK_PREFLIGHT_POD_ROLE"]
    # the downward API gives it the fork's role label of the pod it runs in
    assert role["valueFrom"] == {"fieldRef": {"fieldPath": "metadata.labels['mpi_role_type']"}}

    line = f"trainstack preflight: dataset {place / 'missing'} is not mounted (no such directory)"
    # the dataset's manifest line first (none: not mounted), the failure last
    said = ["trainstack preflight: dataset imagenet-data manifest none", line]
    in_worker = run(init, shell, pod, {"TRAINSTACK_PREFLIGHT_POD_ROLE": "worker"})
    assert in_worker == (0, said)
    in_launcher = run(init, shell, pod, {"TRAINSTACK_PREFLIGHT_POD_ROLE": "launcher"})
    assert in_launcher == (1, said)


def test_the_launcher_fails_with_the_first_workers_line_before_the_command(
    shell: list[str], place: Path
) -> None:
    pod = Pod(place)
    data = pod.directory("data")
    (container,) = _pod_spec(_job(pod, data))["containers"]
    failed = "trainstack preflight: dataset /data is not readable by user 1000"
    kubectl = _kubectl(pod, {"job-worker-0": PASSED, "job-worker-1": f"preflight: x\n{failed}"})

    code, lines = run(container, shell, pod, {"TRAINSTACK_KUBECTL": kubectl})

    assert code == 1
    assert lines == [
        "trainstack preflight: job-worker-1: dataset /data is not readable by user 1000"
    ]


def test_the_command_runs_when_every_worker_passed_or_had_no_preflight(
    shell: list[str], place: Path
) -> None:
    pod = Pod(place)
    pod.stub("echo", 'printf "%s\\n" "$*"')
    data = pod.directory("data")
    (container,) = _pod_spec(_job(pod, data))["containers"]
    # worker-1's pod has no preflight (the jsonpath is empty); the API's text is data
    kubectl = _kubectl(pod, {"job-worker-0": PASSED, "job-worker-1": "$(reboot)"})

    assert run(container, shell, pod, {"TRAINSTACK_KUBECTL": kubectl}) == (0, ["trained"])


def test_a_report_that_cannot_be_read_is_said_and_not_fatal(shell: list[str], place: Path) -> None:
    pod = Pod(place)
    pod.stub("echo", 'printf "%s\\n" "$*"')
    (container,) = _pod_spec(_job(pod, pod.directory("data")))["containers"]
    kubectl = _kubectl(pod, {}, fails=True)
    command = container["command"] + container.get("args", [])
    env = {"PATH": str(pod.bin), "TRAINSTACK_KUBECTL": kubectl}
    env.update({e["name"]: e["value"] for e in container["env"] if e["name"].endswith("WORKERS")})

    ran = subprocess.run(
        [*shell, "-c", *command[2:]], env=env, capture_output=True, text=True, timeout=60
    )

    assert (ran.returncode, ran.stdout) == (0, "trained\n")
    assert "preflight: worker job-worker-0's report not read" in ran.stderr


def test_without_the_preflight_nothing_is_wrapped() -> None:
    values = job_values("mpi", **ARENA, command=["mpirun", "run"], preflight={"enabled": False})
    spec = _pod_spec(render_job(values))

    assert spec["containers"][0]["command"] == ["mpirun", "run"]
    assert "initContainers" not in spec
    assert not [e for e in spec["containers"][0].get("env", []) if "TRAINSTACK" in e["name"]]
