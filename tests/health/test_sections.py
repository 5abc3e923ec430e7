from __future__ import annotations

from trainstack.health.sections import sections


def test_each_section_with_its_exit_status_and_a_cut_one() -> None:
    log = (
        "noise before\n=== trainstack: nvidia-smi -q\nGPU 00000000:8A:00.0\n"
        "=== trainstack: exit 0\n=== trainstack: dcgmi diag\n| Denylist | Pass |\n"
    )
    found = sections(log)
    assert found["nvidia-smi -q"].text == "GPU 00000000:8A:00.0"
    assert found["nvidia-smi -q"].status == 0
    assert found["dcgmi diag"].status is None  # the log ends before its status
    assert found["dcgmi diag"].text == "| Denylist | Pass |"


def test_a_failed_tool_keeps_its_status() -> None:
    found = sections("=== trainstack: dcgmi diag\nError\n=== trainstack: exit 226\n")
    assert found["dcgmi diag"].status == 226
