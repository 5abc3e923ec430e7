"""Why a job does not run, as its preflight said it: the line a pod's preflight ended with.

The chart's preflight (docs/preflight.md) ends a failed check with one line starting
``trainstack preflight:``, which the kubelet keeps as the container's termination message
(its file, or the log's tail: ``terminationMessagePolicy: FallbackToLogsOnError``). It is
read from the pod's status: the init container ``preflight``'s, or the trainer's of a
TrainJob, in its current state or, while it restarts, its last one.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from trainstack.training_job.preflight import FAILURE_PREFIX

MAX_CHARS = 600
"""A reason longer than this is cut (the line lists every failed check)."""
_CONTROL = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|[\x00-\x1f\x7f-\x9f]")


def preflight_reason(pods: Iterable[Mapping[str, Any]]) -> tuple[str, str] | None:
    """(pod name, line) of the first pod, by name, whose preflight failed; ``None`` if
    none did (or the pods are gone)."""
    for pod in sorted(pods, key=lambda pod: str((pod.get("metadata") or {}).get("name"))):
        line = _failed_line(pod.get("status") or {})
        if line is not None:
            return str((pod.get("metadata") or {}).get("name")), line
    return None


def _failed_line(status: Mapping[str, Any]) -> str | None:
    for key in ("initContainerStatuses", "containerStatuses"):
        for container in status.get(key) or []:
            for state in ("state", "lastState"):
                terminated = ((container or {}).get(state) or {}).get("terminated") or {}
                if terminated.get("exitCode") in (None, 0):
                    continue
                for line in reversed(str(terminated.get("message") or "").splitlines()):
                    clean = _CONTROL.sub("", line).strip()
                    if clean.startswith(FAILURE_PREFIX):
                        return clean if len(clean) <= MAX_CHARS else clean[: MAX_CHARS - 3] + "..."
    return None
