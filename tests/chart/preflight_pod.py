"""A stand-in pod to run the rendered preflight in (tests/chart/test_preflight*.py).

The rendered init container's own command and environment run in a real shell (dash,
bash in POSIX mode, busybox when installed), with stand-ins for nvidia-smi, sshd, ssh,
getent and the commands the script uses on a PATH of their own, and temporary
directories for the mounts. The stand-in sshd and ssh answer their config dumps with
OpenSSH's real output (tests/chart/openssh/, recorded from Debian's packages), edited
only where a test says so, and record the arguments they were given.
"""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
from pathlib import Path
from typing import Any

from tests.chart.jobs import job_values, render_job

SHELLS = {
    "dash": ["dash"],
    "bash-posix": ["bash", "--posix"],
    "busybox": ["busybox", "sh"],
}
# what the script (and the stand-ins) run besides the shell's builtins
TOOLS = ("date", "grep", "ls", "id", "hostname", "rm", "sleep", "tr", "cat", "head")
STUB = "#!/bin/sh\n{body}\n"
OPENSSH = Path(__file__).parent / "openssh"
HOME = pwd.getpwuid(os.getuid()).pw_dir.rstrip("/")
"""The home of the user the tests run as: where sshd and ssh look for keys by default."""
KEYS = f"{HOME}/.ssh"
# A stand-in of OpenSSH's sshd (-t: its refusal, if any, on stderr; -T: its dump) and ssh
# (-G: its dump), each keeping the arguments of every call, one a line, "--" between.
SSHD = (
    'printf "%s\\n" "$@" -- >>"$0.args"\n'
    'for a in "$@"; do last=$a; done\n'
    'case "$last" in\n'
    '  -t) if [ -f "$0.refuses" ]; then cat "$0.refuses" >&2; exit 255; fi; exit 0 ;;\n'
    '  -T) cat "$0.dump"; exit 0 ;;\n'
    "esac\n"
    "exit 2"
)
SSH = (
    'printf "%s\\n" "$@" -- >>"$0.args"\n'
    'for a in "$@"; do last=$a; done\n'
    'prev=""; for a in "$@"; do [ "$prev" = -G ] && { cat "$0.dump"; exit 0; }; prev=$a; done\n'
    "exit 0"
)


def recorded(name: str, **settings: str) -> str:
    """OpenSSH's recorded dump ``name``, with the lines of ``settings`` (keyword: value)
    replaced; a keyword it lacks is added."""
    lines = (OPENSSH / name).read_text().splitlines()
    for keyword, value in settings.items():
        keyword = keyword.lower()
        kept = [line for line in lines if line.split(" ", 1)[0] != keyword]
        lines = kept + ([f"{keyword} {value}"] if value else [])
    return "\n".join(lines) + "\n"


class Pod:
    """A stand-in for a pod's filesystem and PATH."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.bin = root / "bin"
        self.bin.mkdir()
        for tool in TOOLS:
            found = shutil.which(tool)
            assert found, tool
            (self.bin / tool).symlink_to(found)

    def stub(self, name: str, body: str, where: Path | None = None) -> Path:
        path = (where or self.bin) / name
        path.write_text(STUB.format(body=body))
        path.chmod(0o755)
        return path

    def gpus(self, count: int) -> None:
        self.stub(
            "nvidia-smi",
            f'i=0; while [ $i -lt {count} ]; do echo "GPU $i: Tesla V100-SXM2-32GB"; '
            "i=$((i+1)); done",
        )

    def directory(self, name: str, mode: int = 0o755) -> Path:
        path = self.root / name
        path.mkdir()
        path.chmod(mode)
        return path

    def sshd(self, refuses: str | None = None, **settings: str) -> Path:
        """The workers' sshd at <root>/sshd: set up as mpi-operator's base image sets it
        (StrictModes no, a readable host key), ``settings`` over that; ``refuses``: what
        its ``-t`` prints before it exits 255."""
        host_key = self.root / "ssh_host_ed25519_key"
        host_key.write_text("a host key\n")
        dump = {"strictmodes": "no", "hostkey": str(host_key), **settings}
        sshd = self.root / "sshd"
        if not sshd.exists():
            self.stub("sshd", SSHD, self.root)
        Path(f"{sshd}.dump").write_text(recorded("sshd-T.txt", **dump))
        refusal = Path(f"{sshd}.refuses")
        refusal.unlink(missing_ok=True)
        if refuses is not None:
            refusal.write_text(refuses)
        return sshd

    def ssh(self, **settings: str) -> Path:
        """The launcher's ssh on PATH: as mpi-operator's base image sets it
        (StrictHostKeyChecking no, UserKnownHostsFile /dev/null), ``settings`` over that."""
        dump = {"stricthostkeychecking": "false", "userknownhostsfile": "/dev/null", **settings}
        ssh = self.stub("ssh", SSH)
        Path(f"{ssh}.dump").write_text(recorded("ssh-G.txt", **dump))
        return ssh

    def calls(self, program: Path) -> list[list[str]]:
        """The arguments of each call of a stand-in sshd or ssh."""
        text = Path(f"{program}.args").read_text()
        calls = [call.strip("\n").split("\n") for call in text.split("--\n") if call.strip()]
        return calls


def preflight(pod_spec: dict[str, Any]) -> dict[str, Any]:
    init = pod_spec["initContainers"][0]
    assert init["name"] == "preflight"
    return dict(init)


def run(
    container: dict[str, Any],
    shell: list[str],
    pod: Pod,
    extra: dict[str, str] | None = None,
    user: int | None = None,
) -> tuple[int, list[str]]:
    """Run the container's command (``sh -c SCRIPT NAME [ARGS...]``) with ``shell`` as its
    sh, its rendered literal env, and ``extra`` over it."""
    command = container["command"] + container.get("args", [])
    assert command[:2] == ["sh", "-c"]
    env = {"PATH": str(pod.bin)}
    env.update({e["name"]: e["value"] for e in container.get("env", []) if "value" in e})
    env.update(extra or {})
    argv = [*shell, "-c", *command[2:]]
    if user is not None:
        setpriv = str(shutil.which("setpriv"))
        argv = [setpriv, f"--reuid={user}", f"--regid={user}", "--clear-groups", *argv]
    ran = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=60, check=False)
    return ran.returncode, ran.stdout.splitlines()


def mpi_job(pod: Pod, **values: Any) -> dict[str, Any]:
    """An MPIJob of 2 workers x 4 GPUs reading a dataset, writing results, needing env,
    whose workers run the stand-in sshd and whose keys are where this user's are."""
    data = pod.directory("data")
    results = pod.directory("results", 0o777)
    sshd = pod.sshd()
    base = job_values(
        "mpi",
        worker={"replicas": 2, "gpus": 4},
        mpi={"workerCommand": [str(sshd), "-De"], "sshAuthMountPath": KEYS},
        datasets=[{"claimName": "imagenet-data", "mountPath": str(data)}],
        results={"claimName": "out", "mountPath": str(results)},
        preflight={"requiredEnv": ["workers", "gpus"]},
        env={"workers": "2", "gpus": "4"},
    )
    # values replace the base's keys, but for mpi, whose keys they add to
    mpi = {**base["mpi"], **values.get("mpi", {})}
    return render_job({**base, **values, "mpi": mpi}, release="job")


def role_preflight(job: dict[str, Any], name: str) -> dict[str, Any]:
    return preflight(job["spec"]["mpiReplicaSpecs"][name]["template"]["spec"])


def ready(pod: Pod) -> None:
    """Everything the job needs: 4 GPUs, ssh as mpi-operator sets it, names that resolve."""
    pod.gpus(4)
    pod.ssh()
    pod.stub("getent", 'echo "10.0.0.1 $2"')
