from __future__ import annotations

import pytest

from tests.health.samples import sample
from trainstack.health.parse_diag import parse_diag

CUT = "dcgmi diag's table is cut short (it did not end with its frame)"


@pytest.mark.parametrize(
    "name",
    [
        "dcgmi-diag-r3-3.0.4-partial.txt",
        "dcgmi-diag-4.2.3-partial.txt",
        "dcgmi-diag-r2-3.3.7-partial.txt",
    ],
)
def test_a_published_table_cut_short_is_not_a_pass(name: str) -> None:
    table = parse_diag(sample(name))
    assert table.failures == ()
    assert table.problems == (CUT,)
    assert not table.passed


def test_a_whole_table_of_passes_passes() -> None:
    table = parse_diag(sample("dcgmi-diag-4.2.3-partial.txt") + "  |\n" + "+---+---+\n")
    assert table.problems == ()
    assert table.passed


def test_a_failing_gpu_row_fails_the_node_naming_the_test_and_gpu() -> None:
    text = sample("dcgmi-diag-4.2.3-partial.txt").replace("GPU2: Pass", "GPU2: Fail")
    table = parse_diag(text + "  |\n+---+---+\n")
    assert table.failures == ("software: GPU 2: GPU2: Fail",)
    assert not table.passed
    assert "GPU2: Fail" in table.excerpt


def test_metadata_rows_are_not_tests() -> None:
    table = parse_diag(sample("dcgmi-diag-r2-3.3.7-partial.txt"))
    assert "3.3.7" not in "".join(table.failures)


@pytest.mark.parametrize("text", ["", "Error: unable to connect to host engine", "\x00" * 64])
def test_no_table_is_a_problem(text: str) -> None:
    table = parse_diag(text)
    assert table.problems == ("dcgmi diag printed no result table (no test with Pass, Fail...)",)
    assert not table.passed
