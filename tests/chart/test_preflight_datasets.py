"""The preflight's dataset lines (charts/training-job/files/preflight.sh): for each dataset a
pod mounts, one stdout line with the manifest digest found at its mount, or ``none``.

Rendered by the chart and run for real in each shell (dash, bash in POSIX mode, busybox),
against manifest files that are good, missing, malformed and hostile: the file is data on
a shared file system, so anything but the one exact shape is ``none``, and nothing in it
is ever run or printed.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from tests.chart.jobs import job_values, pod_spec, render_job
from tests.chart.preflight_pod import KEYS, Pod, preflight, role_preflight, run
from trainstack.live.preflight import preflight_reason
from trainstack.training_job.preflight import DATASET_LINE, MANIFEST_FILE

DIGEST = "sha256:" + "0123456789abcdef" * 4
LINE = "trainstack preflight: dataset {name} manifest {said}"


def _job(pod: Pod, **dataset: Any) -> dict[str, Any]:
    """An MPIJob whose pods mount two datasets: ``imagenet`` (``dataset`` over its values)
    and ``extra``."""
    imagenet = {"claimName": "imagenet", "mountPath": str(pod.root / "data"), **dataset}
    extra = {"claimName": "extra", "mountPath": str(pod.root / "extra")}
    mpi = {"workerCommand": [str(pod.root / "sshd"), "-De"], "sshAuthMountPath": KEYS}
    values = job_values(
        "mpi", worker={"replicas": 1, "gpus": 0}, mpi=mpi, datasets=[imagenet, extra]
    )
    return render_job(values, release="job")


def _dataset_lines(lines: list[str]) -> list[str]:
    return [line for line in lines if line.startswith("trainstack preflight: dataset ")]


def _pod(place: Path, manifest: bytes | None) -> Pod:
    pod = Pod(place)
    pod.stub("getent", 'echo "10.0.0.1 $2"')
    pod.ssh()
    pod.sshd()
    data, extra = pod.directory("data"), pod.directory("extra")
    (extra / MANIFEST_FILE).write_text(DIGEST.replace("0", "f") + "\n")
    if manifest is not None:
        (data / MANIFEST_FILE).write_bytes(manifest)
    (data / "train-00000-of-01024").write_bytes(b"a shard")
    return pod


GOOD = {
    "one line": DIGEST.encode() + b"\n",
    "no newline": DIGEST.encode(),
}
BAD = {
    "no manifest": None,
    "empty": b"",
    "upper-case hex": DIGEST.upper().encode() + b"\n",
    "short digest": DIGEST[:-1].encode() + b"\n",
    "long digest": DIGEST.encode() + b"0\n",
    "another algorithm": DIGEST.replace("sha256", "sha512").encode(),
    "two lines": DIGEST.encode() + b"\n" + DIGEST.encode() + b"\n",
    "two newlines": DIGEST.encode() + b"\n\n",
    "leading space": b" " + DIGEST.encode(),
    "carriage return": DIGEST.encode() + b"\r\n",
    "NUL inside": DIGEST[:39].encode() + b"\0" + DIGEST[39:].encode(),
    "escape sequence": b"\x1b[2J" + DIGEST.encode(),
    "a command": b"sha256:$(touch pwned)`touch pwned`\n",
    "a forged line": b"x\ntrainstack preflight: dataset imagenet manifest " + DIGEST.encode(),
    "a huge file": DIGEST.encode() + b"\n" + b"0" * 1_000_000,
}


@pytest.mark.parametrize("case", sorted(GOOD))
def test_a_good_manifest_is_printed_per_dataset(case: str, shell: list[str], place: Path) -> None:
    pod = _pod(place, GOOD[case])
    for role in ("Launcher", "Worker"):
        code, lines = run(role_preflight(_job(pod), role), shell, pod)
        assert code == 0, lines
        assert _dataset_lines(lines) == [
            LINE.format(name="imagenet", said=DIGEST),
            LINE.format(name="extra", said=DIGEST.replace("0", "f")),
        ]
        # the pass stays the last line, and the reason reader skips the dataset lines
        assert lines[-1].startswith("trainstack preflight: passed in ")
    assert all(DATASET_LINE.fullmatch(line) for line in _dataset_lines(lines))


@pytest.mark.parametrize("case", sorted(BAD))
def test_anything_else_is_none(case: str, shell: list[str], place: Path) -> None:
    pod = _pod(place, BAD[case])
    code, lines = run(role_preflight(_job(pod), "Worker"), shell, pod)
    assert code == 0, lines
    assert _dataset_lines(lines) == [
        LINE.format(name="imagenet", said="none"),
        LINE.format(name="extra", said=DIGEST.replace("0", "f")),
    ]
    assert not (place / "pwned").exists() and not Path("pwned").exists()


def test_what_is_not_a_regular_readable_file_is_none(shell: list[str], place: Path) -> None:
    pod = _pod(place, None)
    manifest = place / "data" / MANIFEST_FILE
    os.mkfifo(manifest)  # a FIFO would block a reader: never opened
    code, lines = run(role_preflight(_job(pod), "Worker"), shell, pod)
    assert (code, _dataset_lines(lines)[0]) == (0, LINE.format(name="imagenet", said="none"))
    manifest.unlink()
    manifest.mkdir()
    code, lines = run(role_preflight(_job(pod), "Worker"), shell, pod)
    assert (code, _dataset_lines(lines)[0]) == (0, LINE.format(name="imagenet", said="none"))
    manifest.rmdir()
    manifest.symlink_to("/dev/zero")
    code, lines = run(role_preflight(_job(pod), "Worker"), shell, pod)
    assert (code, _dataset_lines(lines)[0]) == (0, LINE.format(name="imagenet", said="none"))


def test_a_sub_path_mount_does_not_see_the_root_manifest(shell: list[str], place: Path) -> None:
    pod = _pod(place, GOOD["one line"])
    job = _job(pod, subPath="imagenet")
    worker = role_preflight(job, "Worker")
    datasets = {e["name"]: e["value"] for e in worker["env"]}["TRAINSTACK_PREFLIGHT_DATASETS"]
    assert datasets == f"imagenet\nextra {place}/extra"
    code, lines = run(worker, shell, pod)
    assert code == 0, lines
    assert _dataset_lines(lines)[0] == LINE.format(name="imagenet", said="none")


def test_a_failed_check_still_ends_with_its_line(shell: list[str], place: Path) -> None:
    pod = _pod(place, GOOD["one line"])
    job = _job(pod)
    (place / "extra" / MANIFEST_FILE).unlink()
    (place / "extra").rmdir()
    code, lines = run(role_preflight(job, "Worker"), shell, pod)
    assert code == 1
    assert _dataset_lines(lines)[0] == LINE.format(name="imagenet", said=DIGEST)
    assert (
        lines[-1]
        == f"trainstack preflight: dataset {place}/extra is not mounted (no such directory)"
    )
    # the kubelet's fallback keeps the log's tail: the reason is the last line, not a dataset's
    status = {
        "initContainerStatuses": [
            {"state": {"terminated": {"exitCode": 1, "message": "\n".join(lines)}}}
        ]
    }
    assert preflight_reason([{"metadata": {"name": "p"}, "status": status}]) == ("p", lines[-1])


def test_a_pod_without_datasets_prints_no_dataset_line(shell: list[str], place: Path) -> None:
    pod = Pod(place)
    job = render_job(job_values("pytorch", worker={"replicas": 1, "gpus": 0}))
    worker = preflight(pod_spec(job, "Master"))
    assert "TRAINSTACK_PREFLIGHT_DATASETS" not in {e["name"] for e in worker.get("env", [])}
    code, lines = run(worker, shell, pod)
    assert code == 0, lines
    assert _dataset_lines(lines) == []


def test_a_dataset_line_is_never_taken_for_a_failure() -> None:
    # a log's tail cut before the last line (FallbackToLogsOnError keeps the last 80
    # lines): the dataset lines left are no reason for `trainstack status`
    message = LINE.format(name="imagenet", said=DIGEST) + "\n" + LINE.format(name="x", said="none")
    status = {
        "initContainerStatuses": [{"state": {"terminated": {"exitCode": 1, "message": message}}}]
    }
    assert preflight_reason([{"metadata": {"name": "p"}, "status": status}]) is None
