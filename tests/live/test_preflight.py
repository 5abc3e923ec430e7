"""The reason a job does not run, as its pods' preflight said it."""

from __future__ import annotations

from typing import Any

from trainstack.live.preflight import MAX_CHARS, preflight_reason

LINE = "trainstack preflight: 0 of the 4 GPUs asked for are visible (nvidia-smi -L)"


def _pod(
    name: str,
    key: str,
    state: str,
    exit_code: int,
    message: str,
    finished: str = "",
    labels: dict[str, str] | None = None,
) -> dict[str, Any]:
    terminated = {"exitCode": exit_code, "message": message, "finishedAt": finished}
    return {
        "metadata": {"name": name, "labels": labels or {}},
        "status": {key: [{"name": "preflight", state: {"terminated": terminated}}]},
    }


def test_the_last_preflight_line_of_a_failed_container_is_the_reason() -> None:
    pods = [
        _pod("job-worker-1", "initContainerStatuses", "lastState", 1, f"x\n{LINE}\n"),
        _pod("job-worker-0", "initContainerStatuses", "state", 1, f"preflight: gpus\n{LINE}"),
    ]
    assert preflight_reason(pods) == ("job-worker-0", LINE)


def test_a_trainjobs_trainer_says_it_in_its_own_status() -> None:
    pods = [_pod("ddp-node-0-0", "containerStatuses", "state", 1, LINE)]
    assert preflight_reason(pods) == ("ddp-node-0-0", LINE)


def test_no_reason_from_passes_other_failures_or_no_status() -> None:
    passed = "trainstack preflight: passed in 0 s: 4 GPU(s)"
    assert preflight_reason([_pod("a", "initContainerStatuses", "state", 0, passed)]) is None
    assert preflight_reason([_pod("a", "containerStatuses", "state", 137, "OOMKilled")]) is None
    assert preflight_reason([{"metadata": {"name": "a"}}]) is None


def test_control_characters_are_left_out_and_long_lines_cut() -> None:
    noisy = f"\x1b[31m{LINE}\x07\x1b[0m"
    assert preflight_reason([_pod("a", "containerStatuses", "state", 1, noisy)]) == ("a", LINE)
    long = "trainstack preflight: " + "x; " * 400
    (_, found) = preflight_reason([_pod("a", "containerStatuses", "state", 1, long)]) or ("", "")
    assert len(found) == MAX_CHARS and found.endswith("...")


def test_a_worker_that_only_reports_its_failure_gives_the_reason() -> None:
    """ack-arena's MPIJob v1alpha1: the worker's preflight succeeds, saying what failed."""
    pod = _pod("job-worker-1", "initContainerStatuses", "state", 0, f"{LINE}\n")
    assert preflight_reason([pod]) == ("job-worker-1", LINE)


def test_the_first_to_fail_is_the_reason_a_launchers_last() -> None:
    cannot = "trainstack preflight: the launcher cannot resolve worker(s) job-worker-2.job.x.svc"
    later = "trainstack preflight: results /results is not writable by user 1000"
    role = "training.kubeflow.org/job-role"
    pods = [
        _pod("job-launcher-8vq2x", "initContainerStatuses", "state", 1, cannot,
             "2024-05-06T12:05:02Z", {role: "launcher"}),
        _pod("job-worker-3", "initContainerStatuses", "state", 1, later,
             "2024-05-06T12:00:30Z", {role: "worker"}),
        _pod("job-worker-2", "initContainerStatuses", "lastState", 1, LINE,
             "2024-05-06T12:00:20Z", {role: "worker"}),
    ]  # fmt: skip
    assert preflight_reason(pods, role) == ("job-worker-2", LINE)
    # by the chart's own role label when the operator's is unknown
    chart = [
        _pod("job-launcher-1", "initContainerStatuses", "state", 1, cannot, "",
             {"app.kubernetes.io/component": "launcher"}),
        _pod("job-worker-9", "initContainerStatuses", "state", 1, later, "2024-05-06T13:00:00Z"),
    ]  # fmt: skip
    assert preflight_reason(chart) == ("job-worker-9", later)
    assert preflight_reason(pods[:1], role) == ("job-launcher-8vq2x", cannot)
