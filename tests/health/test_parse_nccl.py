from __future__ import annotations

from tests.health.samples import sample
from trainstack.health.parse_nccl import parse_all_reduce


def test_the_busbw_at_the_largest_size_of_a_two_node_run() -> None:
    result = parse_all_reduce(sample("all_reduce_perf-2x8-h100.txt"))
    assert result.problems == ()
    assert result.largest_bytes == 8589934592
    assert result.busbw_gbps is not None
    # out-of-place busbw of the 8 GiB line, not the in-place one (337.35) nor the average
    assert result.busbw_gbps.value == 338.82
    assert "8589934592" in result.busbw_gbps.excerpt
    assert "busbw" in result.busbw_gbps.excerpt.splitlines()[0]


def test_a_run_cut_after_its_first_line_is_read_and_said_to_be_cut() -> None:
    result = parse_all_reduce(sample("all_reduce_perf-4090-tree.txt"))
    assert result.largest_bytes == 8
    assert result.problems == (
        "all_reduce_perf stopped before its `# Avg bus bandwidth` line (cut short)",
    )


def test_a_header_without_any_size_line_is_no_figure() -> None:
    result = parse_all_reduce(sample("all_reduce_perf-partial-v100.txt"))
    assert result.busbw_gbps is None
    assert result.problems == ("all_reduce_perf printed no result line (no size, time, busbw)",)


def test_wrong_results_and_out_of_bounds_values_are_problems() -> None:
    text = sample("all_reduce_perf-2x8-h100.txt")
    broken = text.replace("338.82      0", "338.82      3").replace(
        "Out of bounds values : 0 OK", "Out of bounds values : 3 FAILED"
    )
    result = parse_all_reduce(broken)
    assert "all_reduce_perf: 3 out-of-bounds values (FAILED)" in result.problems
    assert any("wrong results at 1 size(s), e.g. 8589934592 B" in p for p in result.problems)


def test_garbage_is_no_figure_and_no_crash() -> None:
    for text in (
        "",
        "\x00\x1b[2J" * 100,
        "NCCL failure common.cu:958 'unhandled system error'",
        "9" * 5000,
    ):
        result = parse_all_reduce(text)
        assert result.busbw_gbps is None
        assert result.problems
