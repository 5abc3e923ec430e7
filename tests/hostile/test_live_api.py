"""``status``, ``logs`` and ``results collect`` against an API server that misbehaves: each
ends in one clear error line (exit 2) within the documented deadline, or in the right
result, with nothing written and no raw control character printed.

Each reads the recorded cluster on loopback with one route replaced by a hostile one
(``tests/live/test_inspect_hostile.py`` has the senders). A real process (what users see)
where a regression would hang without end (endless pages, a log that never ends) or keep
a connection open that only a process's exit closes (a huge answer), for raw bytes on a
pipe and for signals; the other inputs, silent or trickling servers included (they end
by themselves), run the command in this process (:func:`tests.cli_helpers.run`: an
internal error raises there), 1-2 s of CPU less each.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli_helpers import Ran, run, run_process
from tests.live.apiserver import RecordedApi, Route
from tests.live.recorded_jobs import MPIJOBS, VISION_PODS
from tests.live.test_inspect_hostile import Sent, _head, deep, endless, escapes, huge, trickle
from tests.stack_helpers import REPO
from trainstack.core.limits import MAX_API_PAGES, MAX_API_RESPONSE_BYTES

# Commands run in this process: nothing else a process would print on its stderr.
pytestmark = pytest.mark.usefixtures("stderr_as_a_process_has_it")

Send = Callable[[Any], None]
LAUNCHER_LOG = f"{VISION_PODS}/imagenet-tensorflow-launcher/log"
LIST_ERROR = "error: listing mpijobs in namespace vision: "
NO_HANG = 30
"""Seconds a refused command may take in all: its deadline (2-3 s) or timeout (1 s) plus a
process's start and the stack's loading, 3-10 s on a loaded machine; a hang runs on to
the harness's 60 s."""


def _replace(api: RecordedApi, path: str, send: Send) -> None:
    """Every request for ``path`` answered by ``send`` (routes match in order)."""
    api.routes.insert(0, Route(path, {}, send=send))


def _json(document: Any, status: int = 200) -> Send:
    body = json.dumps(document).encode() if not isinstance(document, bytes) else document

    def send(handler: Any) -> None:
        _head(handler, status, Content_Length=str(len(body)))
        handler.wfile.write(body)

    return send


def _silent(handler: Any) -> None:
    """Accepts the request and never answers (until the test ends)."""
    time.sleep(20)


def _job(**changes: Any) -> dict[str, Any]:
    job: dict[str, Any] = {
        "apiVersion": "kubeflow.org/v2beta1",
        "kind": "MPIJob",
        "metadata": {
            "name": "imagenet-tensorflow",
            "namespace": "vision",
            "labels": {"trainstack.io/experiment": "imagenet-tensorflow"},
            "annotations": {},
        },
        "spec": {"mpiReplicaSpecs": {"Launcher": {"replicas": 1}}},
        "status": {},
    }
    for path, value in changes.items():
        *parents, last = path.split("__")
        target = job
        for parent in parents:
            target = target[parent]
        target[last] = value
    return job


def _list(*items: Any) -> Send:
    return _json({"kind": "MPIJobList", "apiVersion": "kubeflow.org/v2beta1", "items": list(items)})


def _refused(ran: Ran, prefix: str = LIST_ERROR) -> str:
    assert ran.code == 2, ran.stdout + ran.stderr
    assert "Traceback" not in ran.stderr and "internal error" not in ran.stderr
    assert ran.stderr.startswith(prefix) and ran.stderr.count("\n") == 1, ran.stderr
    assert not [c for c in ran.stdout + ran.stderr if c in "\x1b\x07\r"]
    return ran.stderr


def _status(
    root: Path, config: Path, *args: str, monkeypatch: pytest.MonkeyPatch | None = None
) -> tuple[Ran, float]:
    """``status aiacc``: in this process when given ``monkeypatch``, else a process."""
    command = ("status", "aiacc", "--kubeconfig", str(config), *args)
    started = time.monotonic()
    if monkeypatch is None:
        ran = run_process(root, *command)
    else:
        ran = run(root, *command, monkeypatch=monkeypatch)
    return ran, time.monotonic() - started


NOT_KUBERNETES = "is not what the Kubernetes API sends"
REPLICAS = "spec__mpiReplicaSpecs__Launcher__replicas"
STATUS_CASES: list[tuple[str, Send, tuple[str, ...], str]] = [
    ("invalid-json", _json(b'{"kind": "MPIJobList", "items": [{'), (), NOT_KUBERNETES),
    ("deep-json", deep, (), "JSON nested more than 64 deep: refused"),
    ("endless-continue", endless, (), f"more than {MAX_API_PAGES} pages"),
    ("items-not-a-list", _json({"kind": "MPIJobList", "items": 7}), (), NOT_KUBERNETES),
    (
        "replicas-a-word",
        _list(_job(**{REPLICAS: "abc"})),
        (),
        "MPIJob imagenet-tensorflow: `spec.mpiReplicaSpecs.Launcher.replicas` is 'abc', "
        "not a number of pods",
    ),
    ("negative-replicas", _list(_job(**{REPLICAS: -3})), (), "is -3, not a number of pods"),
    (
        "labels-a-list",
        _list(_job(metadata__labels=["x"])),
        (),
        "`metadata.labels` is list, not an object",
    ),
    (
        "conditions-a-string",
        _list(_job(status__conditions="Succeeded")),
        (),
        "`status.conditions` is str, not a list",
    ),
    (
        "start-time-a-number",
        _list(_job(status__startTime=5)),
        (),
        "`status.startTime` is int, not a string",
    ),
    ("no-name", _list(_job(metadata__name=None)), (), "a MPIJob without `metadata.name`"),
    ("silent", _silent, ("--timeout", "1"), "no answer from the API server within 1 s"),
    ("trickle", trickle, ("--timeout", "1", "--deadline", "2"), "not done within --deadline 2 s"),
]


IN_A_PROCESS = {"endless-continue"}
"""The case a regression would turn into a hang without end (every page names another): a
process of its own, stopped by the harness after 60 s. The silent and trickling servers
end by themselves (after 20 and 60 s: a regression fails ``NO_HANG``), and deep JSON has
its process test in ``tests/live/test_inspect_hostile.py``; the rest differ in the list."""


@pytest.mark.parametrize(
    ("case", "send", "args", "expected"), STATUS_CASES, ids=[case[0] for case in STATUS_CASES]
)
def test_status_refuses_a_hostile_job_list(
    root: Path,
    cluster: Path,
    api: RecordedApi,
    monkeypatch: pytest.MonkeyPatch,
    case: str,
    send: Send,
    args: tuple[str, ...],
    expected: str,
) -> None:
    _replace(api, MPIJOBS, send)
    here = None if case in IN_A_PROCESS else monkeypatch
    ran, elapsed = _status(root, cluster, *args, monkeypatch=here)
    assert expected in _refused(ran)
    assert elapsed < NO_HANG


def test_status_refuses_a_huge_answer_in_bounded_memory(
    root: Path, cluster: Path, api: RecordedApi
) -> None:
    sent = Sent()
    _replace(api, MPIJOBS, huge(sent))
    ran, _ = _status(root, cluster)
    assert f"an answer larger than {MAX_API_RESPONSE_BYTES} bytes: refused" in _refused(ran)
    # Read up to the limit, then the connection dropped (what loopback's socket buffers hold
    # and the process's exit take aside): never the 4 x 64 MiB the server would send.
    assert sent.bytes < MAX_API_RESPONSE_BYTES + (32 << 20)


def test_a_server_message_cannot_forge_a_second_error_line(
    root: Path, cluster: Path, api: RecordedApi, monkeypatch: pytest.MonkeyPatch
) -> None:
    _replace(api, MPIJOBS, escapes)
    stderr = _refused(_status(root, cluster, monkeypatch=monkeypatch)[0])
    assert "\\r\\nforged line (context 'aiacc-admin'" in stderr and stderr.count("error:") == 1


def test_status_shows_what_a_server_sends_escaped(
    root: Path, cluster: Path, api: RecordedApi, monkeypatch: pytest.MonkeyPatch
) -> None:
    job = _job(metadata__name="evil\x1b]0;pwned\x07\r\nerror: forged")
    job["status"] = {"startTime": "2024-05-06T10:00:00Z\x1b[2J"}
    _replace(api, MPIJOBS, _list(job))
    _replace(api, VISION_PODS, _json({"kind": "PodList", "items": []}))
    ran, _ = _status(root, cluster, monkeypatch=monkeypatch)
    assert ran.code == 0, ran.stderr
    assert "evil\\x1b]0;pwned\\x07\\r\\nerror: forged" in ran.stdout
    assert "2024-05-06T10:00:00Z\\x1b[2J" in ran.stdout
    assert not [c for c in ran.stdout if c in "\x1b\x07\r"]
    assert "\nerror" not in ran.stdout


def _log(*chunks: bytes, forever: bool = False) -> Send:
    def send(handler: Any) -> None:
        _head(handler, content_type="text/plain")
        try:
            for chunk in chunks:
                handler.wfile.write(chunk)
                handler.wfile.flush()
            while forever:
                handler.wfile.write(b"step 1 loss 0.5\n")
                handler.wfile.flush()
                time.sleep(0.05)
        except OSError:
            return

    return send


def _logs(
    root: Path, config: Path, *args: str, monkeypatch: pytest.MonkeyPatch | None = None
) -> Ran:
    """``logs aiacc imagenet-tensorflow``: in this process when given ``monkeypatch``."""
    command = ("logs", "aiacc", "imagenet-tensorflow", "--kubeconfig", str(config), *args)
    if monkeypatch is None:
        return run_process(root, *command)
    return run(root, *command, monkeypatch=monkeypatch)


def _collect(root: Path, config: Path, monkeypatch: pytest.MonkeyPatch) -> Ran:
    """``results collect aiacc imagenet-tensorflow``, in this process."""
    command = ("results", "collect", "aiacc", "imagenet-tensorflow", "--kubeconfig", str(config))
    return run(root, *command, monkeypatch=monkeypatch)


def test_a_log_is_shown_with_its_control_characters_escaped(
    root: Path, cluster: Path, api: RecordedApi, monkeypatch: pytest.MonkeyPatch
) -> None:
    _replace(api, LAUNCHER_LOG, _log(b"ok\tcol\n\x1b[2J\x1b]0;pwned\x07 100%\r\nerror: forged\n"))
    ran = _logs(root, cluster, monkeypatch=monkeypatch)
    assert ran.code == 0, ran.stderr
    assert ran.stdout == "ok\tcol\n\\x1b[2J\\x1b]0;pwned\\x07 100%\\r\nerror: forged\n"
    raw = _logs(root, cluster, "--raw")  # a process: the bytes as a pipe passes them on
    # (the harness reads text: its universal newlines take the \r of \r\n)
    assert raw.stdout == "ok\tcol\n\x1b[2J\x1b]0;pwned\x07 100%\nerror: forged\n"


def test_a_log_without_newlines_is_cut_into_bounded_lines(
    root: Path, cluster: Path, api: RecordedApi, monkeypatch: pytest.MonkeyPatch
) -> None:
    _replace(api, LAUNCHER_LOG, _log(b"x" * (3 << 20)))
    ran = _logs(root, cluster, monkeypatch=monkeypatch)
    assert ran.code == 0, ran.stderr
    assert [len(line) for line in ran.stdout.splitlines()] == [1 << 20, 1 << 20, 1 << 20]


def test_a_log_that_never_ends_stops_at_the_deadline(
    root: Path, cluster: Path, api: RecordedApi
) -> None:
    _replace(api, LAUNCHER_LOG, _log(forever=True))
    started = time.monotonic()
    ran = _logs(root, cluster, "--deadline", "3")
    prefix = "error: reading the log of pod imagenet-tensorflow-launcher (container launcher)"
    assert "not done within --deadline 3 s" in _refused(ran, prefix)
    assert ran.stdout.startswith("step 1 loss 0.5\n")
    assert time.monotonic() - started < NO_HANG


def test_collect_of_a_log_that_never_ends_writes_nothing(
    root: Path, cluster: Path, api: RecordedApi
) -> None:
    _replace(api, LAUNCHER_LOG, _log(forever=True))
    ran = run_process(
        root,
        "results",
        "collect",
        "aiacc",
        "imagenet-tensorflow",
        "--kubeconfig",
        str(cluster),
        "--deadline",
        "3",
    )
    assert "not done within --deadline 3 s" in _refused(ran, "error: reading the log of pod ")
    assert not (root / "results" / "aiacc").exists()


def test_collect_refuses_a_pod_of_the_wrong_shape(
    root: Path, cluster: Path, api: RecordedApi, monkeypatch: pytest.MonkeyPatch
) -> None:
    pod = {"metadata": {"name": "imagenet-tensorflow-launcher"}, "spec": {"containers": "x"}}
    _replace(api, VISION_PODS, _json({"kind": "PodList", "items": [pod]}))
    ran = _collect(root, cluster, monkeypatch)
    stderr = _refused(ran, "error: listing pods in namespace vision: ")
    assert "pod imagenet-tensorflow-launcher: `spec.containers` is str, not a list" in stderr
    assert not (root / "results" / "aiacc").exists()


@pytest.mark.parametrize(("stop", "status"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_follow_ends_at_once_on_a_signal(
    root: Path, cluster: Path, api: RecordedApi, stop: signal.Signals, status: int
) -> None:
    _replace(api, LAUNCHER_LOG, _log(forever=True))
    command = ["logs", "aiacc", "imagenet-tensorflow", "--follow", "--kubeconfig", str(cluster)]
    process = subprocess.Popen(
        [sys.executable, "-m", "trainstack", *command],
        cwd=root,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert process.stdout is not None
    assert process.stdout.readline() == b"step 1 loss 0.5\n"  # following, past any deadline
    process.send_signal(stop)
    started = time.monotonic()
    _, stderr = process.communicate(timeout=10)
    assert time.monotonic() - started < 2
    assert process.returncode == status and b"Traceback" not in stderr


def test_follow_waits_for_headers_no_longer_than_the_timeout(
    root: Path, cluster: Path, api: RecordedApi, monkeypatch: pytest.MonkeyPatch
) -> None:
    _replace(api, LAUNCHER_LOG, _silent)  # ends after 20 s: a regression fails, never hangs
    started = time.monotonic()
    ran = _logs(root, cluster, "--follow", "--timeout", "1", monkeypatch=monkeypatch)
    assert "no answer from the API server within 1 s" in _refused(ran, "error: reading the log")
    assert time.monotonic() - started < NO_HANG


@pytest.mark.parametrize(
    ("statuses", "expected"),
    [
        (["x"], "`status.containerStatuses[0]` is str, not an object"),
        (
            [{"name": "tensorflow", "state": 5}],
            "status.containerStatuses[0]: `state` is int, not an object",
        ),
        (
            [{"name": "t", "lastState": {"terminated": {"exitCode": "1", "message": "m"}}}],
            "status.containerStatuses[0]: `lastState.terminated.exitCode` is str, not an integer",
        ),
        ({"name": "t"}, "`status.containerStatuses` is dict, not a list"),
    ],
)
def test_collect_refuses_an_ill_typed_container_status(
    root: Path,
    cluster: Path,
    api: RecordedApi,
    monkeypatch: pytest.MonkeyPatch,
    statuses: Any,
    expected: str,
) -> None:
    """Read by collect (did the container start?), status (a preflight's reason) and the
    goodput (restarts): checked once where the pod is read, one clear error."""
    pod = api.items("pods-imagenet-tensorflow-launcher.json")[0]
    pod["status"]["containerStatuses"] = statuses
    _replace(api, VISION_PODS, _json({"kind": "PodList", "items": [pod]}))
    ran = _collect(root, cluster, monkeypatch)
    stderr = _refused(ran, "error: listing pods in namespace vision: ")
    assert f"pod imagenet-tensorflow-launcher: {expected}" in stderr, stderr
    assert not (root / "results" / "aiacc").exists()


@pytest.mark.parametrize("digest", ["sha256:NOT-A-DIGEST\x1b[2J", "", "sha256:" + "a" * 10_000])
def test_collect_of_a_job_with_a_malformed_digest_annotation(
    root: Path, cluster: Path, api: RecordedApi, monkeypatch: pytest.MonkeyPatch, digest: str
) -> None:
    """Not an internal error (the record's digest is validated): a note, escaped and cut,
    and the stack's current digest, as for a job without the annotation."""
    job = api.items("mpijob-imagenet-tensorflow.json")[0]
    job["metadata"]["annotations"]["trainstack.io/base-values-digest"] = digest
    document = {"kind": "MPIJobList", "apiVersion": "kubeflow.org/v2beta1", "items": [job]}
    _replace(api, MPIJOBS, _json(document))
    ran = _collect(root, cluster, monkeypatch)
    assert ran.code == 0, ran.stderr
    notes = [line for line in ran.stdout.splitlines() if "base-values digest" in line]
    assert len(notes) == 1 and "is no digest" in notes[0] and "\x1b" not in ran.stdout
    assert len(notes[0]) < 400
    assert (root / "results" / "aiacc" / "imagenet-tensorflow" / "run-001.json").is_file()
