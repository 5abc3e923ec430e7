"""``logs --follow`` against a server that holds the stream open after the pod ended: the
follow ends by the pod's state (read every CHECK_SECONDS, here 0.1 s), and only then.

Through the real HTTP client against the recorded cluster on loopback; the log's stream is
held open by the server until the test ends (at most :data:`HOLD` seconds: a follow that
failed to stop would end there, without its note, and the test fail, not hang).
"""

from __future__ import annotations

import base64
import json
import re
import ssl
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import trustme

from tests.cli_helpers import Ran, run
from tests.live.apiserver import RecordedApi, Route, kubeconfig, reply_json, serve
from tests.live.recorded_jobs import VISION_PODS
from trainstack.live import follow
from trainstack.live.api import ApiReader
from trainstack.live.cluster import Cluster
from trainstack.live.kubeconfig import Target
from trainstack.live.transport import ReadLimits

POD = "imagenet-tensorflow-launcher"
POD_PATH = f"{VISION_PODS}/{POD}"
HOLD = 30.0
"""Seconds a held stream stays open at most (the test's own bound)."""
LINES = [b"step 1 loss 0.5\n", b"step 2 loss 0.4\nstep 3", b" loss 0.3\n", b"images/sec: 1344.00"]
SHOWN = "step 1 loss 0.5\nstep 2 loss 0.4\nstep 3 loss 0.3\nimages/sec: 1344.00\n"
"""What ``logs`` prints of :data:`LINES` (the last, unfinished line included)."""


@pytest.fixture(autouse=True)
def _checks_every_tenth_of_a_second(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(follow, "CHECK_SECONDS", 0.1)
    monkeypatch.setattr(follow, "QUIET_SECONDS", 0.3)


@dataclass
class Held:
    """A followed log: ``chunks`` written, the stream held open until ``release`` (at most
    :data:`HOLD` s), then ``later`` written and the stream closed. ``chunked``: HTTP/1.1
    chunks, as the API server sends a log; else HTTP/1.0, the body ending with the
    connection."""

    chunks: list[bytes]
    later: list[bytes] = field(default_factory=list)
    chunked: bool = True
    written: threading.Event = field(default_factory=threading.Event)
    release: threading.Event = field(default_factory=threading.Event)
    pause: float = 0.0
    """Seconds between two chunks."""

    def __call__(self, handler: Any) -> None:
        if self.chunked:
            handler.protocol_version = "HTTP/1.1"
            handler.close_connection = True
        handler.send_response(200)
        handler.send_header("Content-Type", "text/plain")
        if self.chunked:
            handler.send_header("Transfer-Encoding", "chunked")
        handler.end_headers()
        try:
            self._write(handler, self.chunks)
            self.written.set()
            self.release.wait(HOLD)
            self._write(handler, self.later)
            if self.chunked:
                handler.wfile.write(b"0\r\n\r\n")
        except OSError:
            return  # the client hung up

    def _write(self, handler: Any, chunks: list[bytes]) -> None:
        for number, chunk in enumerate(chunks):
            if number:
                time.sleep(self.pause)
            handler.wfile.write(
                f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n" if self.chunked else chunk
            )
            handler.wfile.flush()


@dataclass
class PodAnswers:
    """``GET .../pods/NAME``: ``answer(n)`` for the n-th request (from 0): a status and a
    document, or ``None`` for no answer at all within the test's time."""

    answer: Callable[[int], tuple[int, Any] | None]
    count: int = 0
    checked: threading.Event = field(default_factory=threading.Event)
    """Set once :attr:`enough` checks were answered."""
    enough: int = 3

    def __call__(self, handler: Any) -> None:
        number = self.count
        self.count += 1
        answered = self.answer(number)
        if answered is None:
            time.sleep(3)
            return
        status, document = answered
        reply_json(handler, status, document)
        if self.count >= self.enough:
            self.checked.set()


def _pod(api: RecordedApi, phase: str, **status: Any) -> dict[str, Any]:
    """The recorded launcher pod, in ``phase`` (with more ``status`` fields)."""
    pod: dict[str, Any] = api.items("pods-imagenet-tensorflow-launcher.json")[0]
    pod["status"] = {**pod["status"], "phase": phase, **status}
    return pod


def _status(code: int, reason: str, message: str) -> dict[str, Any]:
    """A ``Status`` as the API server answers an error."""
    return {
        "kind": "Status",
        "apiVersion": "v1",
        "metadata": {},
        "status": "Failure",
        "message": message,
        "reason": reason,
        "code": code,
    }


NOT_FOUND = _status(404, "NotFound", f'pods "{POD}" not found')


@pytest.fixture()
def held() -> Iterator[list[Held]]:
    """The held streams of a test, released when it ends."""
    streams: list[Held] = []
    yield streams
    for stream in streams:
        stream.release.set()


def _serve(api: RecordedApi, held: list[Held], log: Held, pod: PodAnswers) -> None:
    held.append(log)
    api.routes.insert(0, Route(f"{POD_PATH}/log", {}, send=log))
    api.routes.insert(0, Route(POD_PATH, {}, send=pod))


def _follow(root: Path, cluster: Path, monkeypatch: pytest.MonkeyPatch, *args: str) -> Ran:
    ran = run(
        root,
        "logs",
        "aiacc",
        "imagenet-tensorflow",
        "--follow",
        "--kubeconfig",
        str(cluster),
        *args,
        monkeypatch=monkeypatch,
    )
    for thread in threading.enumerate():
        if thread.name == "follow-check":
            thread.join(timeout=10)
            assert not thread.is_alive(), "a pod check outlived its follow"
    return ran


def _ended_after(log: Held, phase: str, api: RecordedApi) -> PodAnswers:
    """Running until the whole log was written, then ``phase``."""
    return PodAnswers(lambda _: (200, _pod(api, phase if log.written.is_set() else "Running")))


def _release_after_checks(log: Held, pod: PodAnswers) -> None:
    """The held stream goes on (more lines, then its end) once ``pod.enough`` checks were
    answered."""
    threading.Thread(
        target=lambda: pod.checked.wait(HOLD) and log.release.set(), daemon=True
    ).start()


def _ended(phase: str) -> str:
    """The note of a follow stopped by the checks."""
    return (
        f"note: pod {POD} ended ({phase}) and the server kept the log stream open: "
        "stopped following\n"
    )


def _assert_stopped(ran: Ran, ended: str) -> None:
    """The whole log shown, then the note that the checks stopped the follow; exit 0."""
    assert ran.code == 0, ran.stderr
    assert ran.stdout == SHOWN
    assert ran.stderr == _ended(ended)


@pytest.mark.parametrize(("chunked", "phase"), [(True, "Succeeded"), (False, "Failed")])
def test_a_stream_held_open_after_the_pod_ended_is_stopped_with_a_note(
    root: Path,
    cluster: Path,
    api: RecordedApi,
    held: list[Held],
    monkeypatch: pytest.MonkeyPatch,
    chunked: bool,
    phase: str,
) -> None:
    log = Held(LINES, later=[b"\nwritten after the release\n"], chunked=chunked)
    pod = _ended_after(log, phase, api)
    _serve(api, held, log, pod)
    ran = _follow(root, cluster, monkeypatch)
    # Every line the server sent, the unfinished last one too; nothing sent after the stop.
    _assert_stopped(ran, phase)
    assert not log.release.is_set()  # stopped by the checks, not by the server


def test_the_lines_still_coming_after_the_pod_ended_are_all_shown(
    root: Path,
    cluster: Path,
    api: RecordedApi,
    held: list[Held],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The first check finds the pod over; only then do the last lines come, each well
    # within the quiet time after the one before, and the server ends the stream itself.
    # The default quiet time: 0.05 s between lines can stretch past a second on a loaded
    # machine (three pytest workers on two CPUs), and the stream's end ends the wait.
    monkeypatch.setattr(follow, "QUIET_SECONDS", 5.0)
    later = [f"step {n}\n".encode() for n in range(1, 10)]
    log = Held([b"step 0\n"], later=later, pause=0.05)
    pod = PodAnswers(lambda _: (200, _pod(api, "Succeeded")), enough=1)
    _serve(api, held, log, pod)
    _release_after_checks(log, pod)
    ran = _follow(root, cluster, monkeypatch)
    assert ran.code == 0, ran.stderr
    assert ran.stdout == "".join(f"step {n}\n" for n in range(10))
    assert ran.stderr == ""


def test_a_stream_trickling_after_the_pod_ended_is_stopped_too(
    root: Path,
    cluster: Path,
    api: RecordedApi,
    held: list[Held],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A byte every 0.1 s is never quiet for QUIET_SECONDS (0.3 here): the follow ends
    once the reader has waited DRAIN_SECONDS in all after the pod was found ended."""
    monkeypatch.setattr(follow, "DRAIN_SECONDS", 1.0)
    log = Held(LINES + [b"."] * 300, pause=0.1)  # 30 s of trickle if never stopped
    pod = PodAnswers(lambda _: (200, _pod(api, "Succeeded")))
    _serve(api, held, log, pod)
    started = time.monotonic()
    ran = _follow(root, cluster, monkeypatch)
    assert ran.code == 0, ran.stderr
    assert ran.stderr == _ended("Succeeded")
    assert ran.stdout.startswith(SHOWN[:-1]) and ran.stdout.endswith(".\n")
    assert not log.written.is_set() and time.monotonic() - started < 15


def test_a_stream_held_open_over_tls_is_stopped_too(
    root: Path, api: RecordedApi, held: list[Held], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # The socket under TLS is shut down as the plain one is (its TLS state left to the reader).
    ca = trustme.CA()
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    ca.issue_cert("127.0.0.1").configure_cert(context)
    log = Held(LINES)
    _serve(api, held, log, _ended_after(log, "Succeeded", api))
    authority = {"certificate-authority-data": base64.b64encode(ca.cert_pem.bytes()).decode()}
    for url in serve(api, context):
        ran = _follow(root, kubeconfig(tmp_path / "tls", url, cluster=authority), monkeypatch)
    _assert_stopped(ran, "Succeeded")


def test_a_terminated_training_container_ends_the_follow(
    root: Path, cluster: Path, api: RecordedApi, held: list[Held], monkeypatch: pytest.MonkeyPatch
) -> None:
    log = Held(LINES)
    statuses = [
        {"name": "sidecar", "state": {"running": {}}},
        {"name": "launcher", "state": {"terminated": {"exitCode": 0}}},
    ]
    pod = PodAnswers(lambda _: (200, _pod(api, "Running", containerStatuses=statuses)))
    _serve(api, held, log, pod)
    ran = _follow(root, cluster, monkeypatch)
    _assert_stopped(ran, "container launcher terminated")


def test_a_running_pod_is_followed_until_the_server_ends_the_stream(
    root: Path, cluster: Path, api: RecordedApi, held: list[Held], monkeypatch: pytest.MonkeyPatch
) -> None:
    log = Held(LINES[:1], later=[b"step 2 loss 0.4\n", b"done\n"])
    pod = PodAnswers(lambda _: (200, _pod(api, "Running")), enough=5)
    _serve(api, held, log, pod)
    # Five checks found the pod running (the log quiet meanwhile), then more lines came.
    _release_after_checks(log, pod)
    ran = _follow(root, cluster, monkeypatch)
    assert ran.code == 0, ran.stderr
    assert ran.stdout == "step 1 loss 0.5\nstep 2 loss 0.4\ndone\n"
    assert ran.stderr == ""
    assert log.release.is_set() and pod.count >= 5


@pytest.mark.parametrize(
    "first",
    [(500, _status(500, "InternalError", "etcdserver: request timed out")), None],
    ids=["500", "no answer within --timeout"],
)
def test_a_failed_check_does_not_end_the_follow(
    root: Path,
    cluster: Path,
    api: RecordedApi,
    held: list[Held],
    monkeypatch: pytest.MonkeyPatch,
    first: tuple[int, Any] | None,
) -> None:
    log = Held(LINES)
    ended = _ended_after(log, "Succeeded", api)
    pod = PodAnswers(lambda n: first if n == 0 else ended.answer(n))
    _serve(api, held, log, pod)
    ran = _follow(root, cluster, monkeypatch, "--timeout", "1")
    _assert_stopped(ran, "Succeeded")
    assert pod.count >= 2


def test_checks_that_keep_failing_are_noted_once_and_the_follow_goes_on(
    root: Path, cluster: Path, api: RecordedApi, held: list[Held], monkeypatch: pytest.MonkeyPatch
) -> None:
    log = Held(LINES[:1], later=[b"done\n"])
    forbidden = _status(403, "Forbidden", f'pods "{POD}" is forbidden: User "dev" cannot get')
    pod = PodAnswers(lambda _: (403, forbidden), enough=6)
    _serve(api, held, log, pod)
    _release_after_checks(log, pod)
    ran = _follow(root, cluster, monkeypatch)
    assert ran.code == 0, ran.stderr
    assert ran.stdout == "step 1 loss 0.5\ndone\n"
    assert re.fullmatch(
        re.escape(
            f"note: 3 checks of pod {POD} failed, the last: reading pod {POD} in namespace "
            f'vision: the API server answered 403 Forbidden: pods "{POD}" is forbidden: User '
            '"dev" cannot get; the kubeconfig\'s user may not read this (RBAC: it needs get '
            "and list) (context 'aiacc-admin' (http://127.0.0.1:"
        )
        + r"\d+\)\); still following, checking every 0\.1 s\n",
        ran.stderr,
    )


@pytest.mark.parametrize("gone", ["404", "a new pod of that name"])
def test_a_pod_gone_while_its_stream_is_held_is_an_error(
    root: Path,
    cluster: Path,
    api: RecordedApi,
    held: list[Held],
    monkeypatch: pytest.MonkeyPatch,
    gone: str,
) -> None:
    log = Held(LINES)
    replaced = _pod(api, "Running")
    replaced["metadata"]["uid"] = "another-uid"

    def answer(_: int) -> tuple[int, Any]:
        if not log.written.is_set():
            return 200, _pod(api, "Running")
        return (404, NOT_FOUND) if gone == "404" else (200, replaced)

    pod = PodAnswers(answer)
    _serve(api, held, log, pod)
    ran = _follow(root, cluster, monkeypatch)
    assert ran.code == 2
    assert ran.stdout == SHOWN
    assert ran.stderr.startswith(f"error: pod {POD} is gone (context 'aiacc-admin' (http://")
    assert ran.stderr.endswith(
        "): deleted (or replaced by a new pod of that name) while its log was followed, and "
        "the server kept the log stream open: stopped following; the log above may be cut, "
        "`trainstack status` shows how the job ended\n"
    )


def test_the_pod_checks_are_bounded_by_their_own_deadline_not_the_commands(
    api: RecordedApi, tmp_path: Path
) -> None:
    api.object(POD_PATH, _pod(api, "Succeeded"))
    for url in serve(api):
        path = kubeconfig(tmp_path / "k", url)
        target = Target(path, None, json.loads(path.read_text()))
        cluster = Cluster(ApiReader(target, ReadLimits(timeout=5, deadline=0.2)))
        time.sleep(0.3)  # the command's deadline is past
        found = cluster.pod("vision", POD)
        assert found is not None and found["status"]["phase"] == "Succeeded"
        assert cluster.pod("vision", "deleted-pod") is None


@pytest.mark.parametrize(
    ("status", "ended"),
    [
        ({"phase": "Succeeded"}, "Succeeded"),
        ({"phase": "Failed"}, "Failed"),
        ({"phase": "Running"}, None),
        ({"phase": "Pending"}, None),
        ({"phase": "Unknown"}, None),  # the node is out of touch: the pod may run on
        (
            {
                "phase": "Running",
                "containerStatuses": [{"name": "launcher", "state": {"terminated": {}}}],
            },
            "container launcher terminated",
        ),
        # another container's end, or a restart's last state, is not the followed one's
        (
            {
                "phase": "Running",
                "containerStatuses": [{"name": "sidecar", "state": {"terminated": {}}}],
            },
            None,
        ),
        (
            {
                "phase": "Running",
                "containerStatuses": [
                    {"name": "launcher", "state": {"running": {}}, "lastState": {"terminated": {}}}
                ],
            },
            None,
        ),
        ({"phase": "Running", "containerStatuses": "launcher"}, None),
        (
            {
                "phase": "Running",
                "containerStatuses": ["launcher", {"name": "launcher", "state": "x"}],
            },
            None,
        ),
    ],
)
def test_when_a_followed_pod_is_over(status: dict[str, Any], ended: str | None) -> None:
    pod = {"metadata": {"name": POD, "uid": "u1"}, "status": status}
    assert follow.pod_end(pod, "launcher", "u1") == ended
    assert follow.pod_end(pod, "launcher", None) == ended


def test_a_pod_gone_or_replaced_is_over() -> None:
    assert follow.pod_end(None, "launcher", "u1") == follow.GONE
    running = {"metadata": {"name": POD, "uid": "u2"}, "status": {"phase": "Running"}}
    assert follow.pod_end(running, "launcher", "u1") == follow.GONE
    assert follow.pod_end(running, "launcher", None) is None
