"""Why a job does not run, as its preflight said it: the line a pod's preflight ended with.

The chart's preflight (docs/preflight.md) ends a failed check with one line starting
``trainstack preflight:``, which the kubelet keeps as the container's termination message
(its file, or the log's tail: ``terminationMessagePolicy: FallbackToLogsOnError``). It is
read from the pod's status: the init container ``preflight``'s, or the trainer's of a
TrainJob, in its current state or, while it restarts, its last one. A worker of ack-arena's
MPIJob v1alpha1 only reports a failure (its container succeeds); its launcher then fails
with the worker's line.

Of several pods whose preflight failed, the first to fail is the reason, a launcher's last:
a launcher that cannot resolve its workers fails because a worker failed first.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from trainstack.live.pod_labels import CHART_POD_LABELS
from trainstack.training_job.preflight import DATASET_LINE, FAILURE_PREFIX, PASSED_PREFIX

MAX_CHARS = 600
"""A reason longer than this is cut (the line lists every failed check)."""
CHART_ROLE_LABEL = CHART_POD_LABELS.role
_CONTROL = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|[\x00-\x1f\x7f-\x9f]")


def preflight_reason(
    pods: Iterable[Mapping[str, Any]], role_label: str | None = None
) -> tuple[str, str] | None:
    """(pod name, line) of the pod whose preflight failed first, other roles before
    launchers (``role_label``: the label holding a pod's role, else the chart's); ``None``
    if none failed (or the pods are gone)."""
    failed = []
    for pod in pods:
        found = _failed_line(pod.get("status") or {})
        if found is not None:
            metadata = pod.get("metadata") or {}
            labels = metadata.get("labels") or {}
            roles = {labels.get(key) for key in (role_label, CHART_ROLE_LABEL) if key}
            failed.append(("launcher" in roles, found[0], str(metadata.get("name")), found[1]))
    if not failed:
        return None
    _, _, name, line = min(failed)
    return name, line


def _failed_line(status: Mapping[str, Any]) -> tuple[str, str] | None:
    """(when it failed, line): the last failure line of a container's termination."""
    for key in ("initContainerStatuses", "containerStatuses"):
        for container in status.get(key) or []:
            for state in ("state", "lastState"):
                terminated = ((container or {}).get(state) or {}).get("terminated") or {}
                if terminated.get("exitCode") is None:
                    continue
                for line in reversed(str(terminated.get("message") or "").splitlines()):
                    clean = _CONTROL.sub("", line).strip()
                    # a worker that only reports its failure exits 0 (MPIJob v1alpha1); a
                    # dataset's manifest line (printed before the last) is no failure
                    if DATASET_LINE.fullmatch(clean) or clean.startswith(PASSED_PREFIX):
                        continue
                    if clean.startswith(FAILURE_PREFIX):
                        cut = clean if len(clean) <= MAX_CHARS else clean[: MAX_CHARS - 3] + "..."
                        return str(terminated.get("finishedAt") or ""), cut
    return None
