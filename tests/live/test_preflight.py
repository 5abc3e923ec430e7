"""The reason a job does not run, as its pods' preflight said it."""

from __future__ import annotations

from typing import Any

from trainstack.live.preflight import MAX_CHARS, preflight_reason

LINE = "trainstack preflight: 0 of the 4 GPUs asked for are visible (nvidia-smi -L)"


def _pod(name: str, key: str, state: str, exit_code: int, message: str) -> dict[str, Any]:
    terminated = {"exitCode": exit_code, "message": message}
    return {
        "metadata": {"name": name},
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
    assert preflight_reason([_pod("a", "initContainerStatuses", "state", 0, LINE)]) is None
    assert preflight_reason([_pod("a", "containerStatuses", "state", 137, "OOMKilled")]) is None
    assert preflight_reason([{"metadata": {"name": "a"}}]) is None


def test_control_characters_are_left_out_and_long_lines_cut() -> None:
    noisy = f"\x1b[31m{LINE}\x07\x1b[0m"
    assert preflight_reason([_pod("a", "containerStatuses", "state", 1, noisy)]) == ("a", LINE)
    long = "trainstack preflight: " + "x; " * 400
    (_, found) = preflight_reason([_pod("a", "containerStatuses", "state", 1, long)]) or ("", "")
    assert len(found) == MAX_CHARS and found.endswith("...")
