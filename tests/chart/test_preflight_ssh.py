"""The preflight's ssh checks (MPIJob v2beta1), run for real in dash, bash --posix and
busybox against stand-in sshd and ssh binaries that answer with OpenSSH's recorded
output (tests/chart/openssh/): each setting mpi-operator relies on
(kubeflow/mpi-operator build/base/Dockerfile) fails the pod with a line naming it. And
the values the script computes with, hostile ones included, stay data (issue 37)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from tests.chart.preflight_pod import HOME, KEYS, Pod, mpi_job, ready, role_preflight, run

PREFIX = "trainstack preflight: "
MOUNTED = "mpi-operator mounts them (mpi.sshAuthMountPath)"
WORKER_FAILURES: dict[str, tuple[dict[str, Any], str]] = {
    "the privilege separation directory": (
        {"refuses": "Missing privilege separation directory: /run/sshd\n"},
        "sshd's privilege separation directory /run/sshd is missing: create it in the image "
        "(mpi-operator's base image: mkdir -p /var/run/sshd)",
    ),
    "no host key sshd can load": (
        {"refuses": "sshd: no hostkeys available -- exiting.\n"},
        f"sshd has no host key it can read: generate them in the image (ssh-keygen -A) "
        f"readable by user {os.getuid()}",
    ),
    "a configuration sshd refuses": (
        {
            "refuses": "/etc/ssh/sshd_config: line 1: Bad configuration option: Foo\n"
            "/etc/ssh/sshd_config: terminating, 1 bad configuration options\n"
        },
        "sshd -t rejects its configuration: /etc/ssh/sshd_config: line 1: Bad configuration "
        "option: Foo",
    ),
    "StrictModes as the package ships it": (
        {"strictmodes": "yes"},
        "sshd has StrictModes yes: it refuses the job's keys on the operator's Secret volume; "
        "set StrictModes no in sshd_config (as mpi-operator's base image)",
    ),
    "no key authentication": (
        {"pubkeyauthentication": "no"},
        "sshd has PubkeyAuthentication no: the launcher logs in with the job's key; set "
        "PubkeyAuthentication yes",
    ),
    "no readable host key": (
        {"hostkey": "/nonexistent/ssh_host_rsa_key"},
        "sshd has no host key it can read (/nonexistent/ssh_host_rsa_key): generate them in "
        "the image (ssh-keygen -A)",
    ),
    "keys read elsewhere": (
        {"authorizedkeysfile": "/etc/ssh/authorized_keys/%u"},
        f"sshd reads the keys of user {{user}} (home {HOME}) from AuthorizedKeysFile "
        f"/etc/ssh/authorized_keys/%u, not {KEYS}/authorized_keys where {MOUNTED}",
    ),
    "another port": (
        {"port": "2222"},
        "the workers' sshd listens on port 2222, not mpi.sshPort 22: set mpi.sshPort to the "
        "port of the image's ssh configuration",
    ),
}


def _user() -> str:
    import pwd

    return pwd.getpwuid(os.getuid()).pw_name


@pytest.mark.parametrize("case", sorted(WORKER_FAILURES))
def test_each_sshd_setting_the_operator_relies_on_fails_the_worker_by_name(
    case: str, shell: list[str], place: Path
) -> None:
    pod = Pod(place)
    ready(pod)
    job = mpi_job(pod)
    settings, line = WORKER_FAILURES[case]
    pod.sshd(**settings)
    code, lines = run(role_preflight(job, "Worker"), shell, pod)
    assert code == 1
    assert lines[-1] == PREFIX + line.format(user=_user())


def test_root_needs_a_root_login_by_key(shell: list[str], place: Path) -> None:
    if os.getuid() != 0:
        pytest.skip("the check is for a pod that runs as root")
    pod = Pod(place)
    ready(pod)
    job = mpi_job(pod)
    for value in ("no", "forced-commands-only"):
        pod.sshd(permitrootlogin=value)
        code, lines = run(role_preflight(job, "Worker"), shell, pod)
        assert (code, lines[-1]) == (
            1,
            f"{PREFIX}sshd has PermitRootLogin {value}, but the pod runs as root; set "
            "PermitRootLogin prohibit-password",
        )
    # what Debian's package ships (the recording) logs root in by key
    pod.sshd(permitrootlogin="without-password")
    assert run(role_preflight(job, "Worker"), shell, pod)[0] == 0


LAUNCHER_FAILURES: dict[str, tuple[dict[str, str], str]] = {
    "host keys asked for, as OpenSSH's default": (
        {"stricthostkeychecking": "ask"},
        "the launcher's ssh has StrictHostKeyChecking ask: with no terminal it refuses every "
        "worker's new host key; set StrictHostKeyChecking no in ssh_config (as mpi-operator's "
        "base image)",
    ),
    "host keys required": (
        {"stricthostkeychecking": "true"},
        "the launcher's ssh has StrictHostKeyChecking true: with no terminal it refuses every "
        "worker's new host key; set StrictHostKeyChecking no in ssh_config (as mpi-operator's "
        "base image)",
    ),
    "the key looked for elsewhere": (
        {"identityfile": "/etc/ssh/job_key"},
        f"the launcher's ssh looks for user {{user}}'s key (home {HOME}) in IdentityFile "
        f"/etc/ssh/job_key, not {KEYS}/id_rsa where mpi-operator mounts it "
        "(mpi.sshAuthMountPath)",
    ),
    "another port": (
        {"port": "2222"},
        "the launcher's ssh connects to port 2222, not mpi.sshPort 22: set mpi.sshPort to the "
        "port of the image's ssh configuration",
    ),
}


@pytest.mark.parametrize("case", sorted(LAUNCHER_FAILURES))
def test_each_ssh_client_setting_fails_the_launcher_by_name(
    case: str, shell: list[str], place: Path
) -> None:
    pod = Pod(place)
    ready(pod)
    job = mpi_job(pod)
    settings, line = LAUNCHER_FAILURES[case]
    pod.ssh(**settings)
    code, lines = run(role_preflight(job, "Launcher"), shell, pod)
    assert code == 1
    assert lines[-1] == PREFIX + line.format(user=_user())


def test_the_checks_run_sshd_and_ssh_as_the_job_does(shell: list[str], place: Path) -> None:
    """The exact arguments: the workers' own sshd options (with the chart's -p), then -t
    and -T; the launcher's ssh with mpirun's -p, -G and the first worker's name."""
    pod = Pod(place)
    ready(pod)
    job = mpi_job(pod, mpi={"sshPort": 2222, "workerArgs": ["-f", "/etc/ssh/job_sshd_config"]})
    sshd = pod.sshd(port="2222")
    ssh = pod.ssh(port="2222")
    for name in ("Worker", "Launcher"):
        code, lines = run(role_preflight(job, name), shell, pod)
        assert code == 0, lines
    options = ["-De", "-f", "/etc/ssh/job_sshd_config", "-p", "2222"]
    assert pod.calls(sshd) == [[*options, "-t"], [*options, "-T"]]
    assert pod.calls(ssh) == [["-p", "2222", "-G", "job-worker-0.job.team.svc"]]


def test_a_user_without_a_passwd_entry_cannot_log_in(shell: list[str], place: Path) -> None:
    if os.geteuid() != 0:
        pytest.skip("needs root to run the pod as another user")
    uid = 43210
    import pwd

    try:
        pwd.getpwuid(uid)
        pytest.skip(f"user {uid} exists here")
    except KeyError:
        pass
    pod = Pod(place)
    ready(pod)
    job = mpi_job(pod)
    code, lines = run(role_preflight(job, "Launcher"), shell, pod, user=uid)
    assert code == 1
    assert f"user {uid} has no entry in /etc/passwd: ssh will not start for it" in lines[-1]


HOSTILE = "a[$(touch {mark})]"


@pytest.mark.parametrize(
    "variable",
    [
        "TRAINSTACK_PREFLIGHT_RESOLVE_SECONDS",
        "TRAINSTACK_PREFLIGHT_GPUS",
        "TRAINSTACK_PREFLIGHT_SSH_PORT",
    ],
)
def test_a_number_the_script_computes_with_is_digits_or_refused(
    variable: str, shell: list[str], place: Path
) -> None:
    """bash evaluates an array subscript's command substitution in $(( )) and in the
    operands of [ -lt ]: a value from the job's env never gets there unchecked."""
    pod = Pod(place)
    ready(pod)
    job = mpi_job(pod)
    mark = place / "ran"
    for hostile in (HOSTILE.format(mark=mark), "1" * 30, "-1", " 3", "3\n4"):
        code, lines = run(role_preflight(job, "Launcher"), shell, pod, {variable: hostile})
        assert not mark.exists(), (variable, hostile)
        assert code == 1, (variable, hostile, lines)
        assert f"{variable} is not a count of at most 9 digits" in lines[-1]


def test_options_and_names_from_the_env_stay_data(shell: list[str], place: Path) -> None:
    pod = Pod(place)
    ready(pod)
    job = mpi_job(pod)
    mark = place / "ran"
    sshd = pod.sshd()
    hostile = {
        "TRAINSTACK_PREFLIGHT_SSHD_ARGS": f"-De\n$(touch {mark})\n`touch {mark}`",
        "TRAINSTACK_PREFLIGHT_SSH_KEYS": f"$(touch {mark})",
        "TRAINSTACK_PREFLIGHT_ENV": "* workers",
    }
    code, lines = run(role_preflight(job, "Worker"), shell, pod, hostile)
    assert not mark.exists()
    assert code == 1
    assert pod.calls(sshd)[0] == ["-De", f"$(touch {mark})", f"`touch {mark}`", "-t"]
    assert "TRAINSTACK_PREFLIGHT_ENV names *, not a variable name" in lines[-1]
