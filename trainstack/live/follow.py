"""``logs --follow``: a pod's log as it is written, until the pod ends.

The API server ends a followed log when its container ends: the kubelet serving it checks
at least every second whether the container still runs and closes the stream once it is
done (``logForceCheckPeriod = 1 * time.Second`` in pkg/kubelet/kuberuntime/logs/logs.go,
kubernetes/kubernetes at 04791b4906602ffda5ccf9bc4c84d3329f1d7080). A server, proxy or
load balancer in front of it can hold the stream open after that, and a follow would wait
for ever. So while the log is read, a thread reads the pod every :data:`CHECK_SECONDS`
(``GET /api/v1/namespaces/NS/pods/NAME``, a request of its own: ``--timeout``, and
``--deadline`` counted from its start) and, once the pod has ended and the reader has
waited :data:`QUIET_SECONDS` for the log's next bytes in vain (or
:data:`DRAIN_SECONDS` in all, for a server trickling bytes), ends the stream
(:meth:`~trainstack.live.log_stream.Hangup.hang_up`):

- the pod ``Succeeded`` or ``Failed``, or the followed container terminated: a note on
  stderr, exit status 0 (as when the server ends the stream itself);
- the pod gone (404, or a new pod of that name: another ``uid``): an error, exit status 2
  (the log may be cut, and how the pod ended is unknown).

A check that fails (no answer within ``--timeout``, a 5xx, a 403...) changes nothing: the
follow goes on and the next check comes :data:`CHECK_SECONDS` later; after
:data:`NOTED_FAILURES` failures in a row a note says so, once. A stream the server ends
itself ends the follow as before, whatever the checks found. Documented in
docs/after-deployment.md.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable, Mapping
from typing import Any

from trainstack.console.safe_text import printable
from trainstack.core.errors import JobNotFoundError, TrainstackError
from trainstack.live.cluster import Cluster
from trainstack.live.jobs import training_container
from trainstack.live.log_stream import Hangup

CHECK_SECONDS = 10.0
"""How often the followed pod is read. A held stream outlives its pod by at most this,
plus :data:`QUIET_SECONDS`; one small GET every 10 s is nothing to an API server (a
Kubernetes watch would be a second stream that a proxy could hold open the same way)."""
QUIET_SECONDS = 5.0
"""How long the log must have been quiet (the reader waiting, nothing come) before the
stream of an ended pod is ended: the lines the kubelet still sends after the container's
end (it reads the log file to its end, checking the container every second: module
documentation) come well within it. Printing is not waiting: a slow pipe delays it."""
DRAIN_SECONDS = 30.0
"""How long, in all, the reader may wait for the log's bytes after the pod was found
ended, however they come: a server trickling a byte a second is never quiet for
:data:`QUIET_SECONDS`, and would be followed for ever. Waits only (a slow pipe is not
counted); the kubelet sends the rest of the log file within about a second (module
documentation)."""
NOTED_FAILURES = 3
"""Failed checks in a row after which a note says so (one failure is no news)."""
JOIN_SECONDS = 1.0
"""How long the end of a follow waits for a check under way (the thread is a daemon: the
process never waits for a check that hangs)."""
GONE = "gone"
ENDED_PHASES = ("Succeeded", "Failed")


def pod_end(pod: Mapping[str, Any] | None, container: str, uid: str | None) -> str | None:
    """Why the followed pod is over (its phase, ``container X terminated``, or :data:`GONE`);
    ``None`` while it runs (``Pending``, ``Running``, ``Unknown``: a node out of touch)."""
    if pod is None:
        return GONE
    found_uid = (pod.get("metadata") or {}).get("uid")
    if uid and found_uid and found_uid != uid:
        return GONE
    status = pod.get("status") or {}
    if status.get("phase") in ENDED_PHASES:
        return str(status["phase"])
    entries = status.get("containerStatuses")
    for entry in entries if isinstance(entries, list) else []:
        if not isinstance(entry, dict) or entry.get("name") != container:
            continue
        state = entry.get("state")
        if isinstance(state, dict) and "terminated" in state:
            return f"container {container} terminated"
    return None


class _Watch:
    """The checks of one followed pod (run in a thread of their own)."""

    def __init__(self, cluster: Cluster, namespace: str, pod: str, uid: Any, hangup: Hangup):
        self.cluster = cluster
        self.namespace = namespace
        self.pod = pod
        self.uid = uid if isinstance(uid, str) else None
        self.hangup = hangup
        self.done = threading.Event()
        """Set when the follow ended (whoever ended it): the thread stops."""
        self.ended: str | None = None
        """What :func:`pod_end` found, once it found the pod over."""

    def run(self, container: str) -> None:
        failures = 0
        while self.ended is None and not self.done.wait(CHECK_SECONDS):
            try:
                found = self.cluster.pod(self.namespace, self.pod)
            except TrainstackError as error:
                failures += 1
                if failures == NOTED_FAILURES:
                    print(
                        f"note: {failures} checks of pod {printable(self.pod)} failed, the "
                        f"last: {error}; still following, checking every {CHECK_SECONDS:g} s",
                        file=sys.stderr,
                    )
                continue
            failures = 0
            self.ended = pod_end(found, container, self.uid)
        drained = self.hangup.waited() + DRAIN_SECONDS
        while not self.done.is_set():
            quiet = self.hangup.quiet()
            left = drained - self.hangup.waited()
            if quiet >= QUIET_SECONDS or left <= 0:
                self.hangup.hang_up()
                return
            self.done.wait(min(QUIET_SECONDS - quiet, max(left, 0.01)))


def follow_log(
    cluster: Cluster,
    namespace: str,
    pod: Mapping[str, Any],
    tail: int | None,
    show: Callable[[str], None],
) -> str | None:
    """``show`` each line of the log of ``pod``'s training container as it comes, until the
    stream ends; the note to print when trainstack ended it (module documentation).

    Raises :class:`JobNotFoundError` when the pod went away while it was followed.
    """
    metadata = pod["metadata"]
    name = str(metadata["name"])
    container = training_container(pod)
    hangup = Hangup()
    watch = _Watch(cluster, namespace, name, metadata.get("uid"), hangup)
    thread = threading.Thread(target=watch.run, args=(container,), name="follow-check", daemon=True)
    thread.start()
    try:
        for line in cluster.log_lines(
            namespace, name, container, follow=True, tail=tail, hangup=hangup
        ):
            show(line)
    except BaseException:
        watch.done.set()  # Ctrl-C, a signal, an error: no wait for a check under way
        raise
    watch.done.set()
    thread.join(timeout=JOIN_SECONDS)
    if not hangup.hung_up:
        return None
    shown = printable(name)
    if watch.ended == GONE:
        raise JobNotFoundError(
            f"pod {shown} is gone ({cluster.where()}): deleted (or replaced by a new pod of "
            "that name) while its log was followed, and the server kept the log stream open: "
            "stopped following; the log above may be cut, `trainstack status` shows how the "
            "job ended"
        )
    return (
        f"pod {shown} ended ({watch.ended}) and the server kept the log stream open: "
        "stopped following"
    )
