from __future__ import annotations

import pytest

from tests.health.samples import sample
from trainstack.health.parse_proftester import parse_proftester


def test_the_median_tflops_of_a_gpu_in_dcgm_4_format() -> None:
    result = parse_proftester(sample("dcgmproftester-1004-a100-4.x.txt"), 1004)
    assert result.problems == ()
    assert list(result.tflops) == [0]
    # 32 lines of 1.78e+05 .. 1.97e+05 gflops; the first (ramp-up) left out; median 190
    assert result.tflops[0].value == pytest.approx(190.0)
    assert "(1.89e+05 gflops)." in result.tflops[0].excerpt


def test_the_older_format_without_a_space_or_final_period() -> None:
    result = parse_proftester(sample("dcgmproftester-1004-mig-two-workers.txt"), 1004)
    assert result.tflops[0].value == pytest.approx(107.894, abs=0.001)


def test_another_field_than_asked_is_not_read() -> None:
    result = parse_proftester(sample("dcgmproftester-1004-a100-4.x.txt"), 1007)
    assert result.tflops == {}
    assert result.problems == ("dcgmproftester12 -t 1007 printed no gflops line",)


@pytest.mark.parametrize(
    "name", ["dcgmproftester-1007-no-gflops.txt", "dcgmproftester-root-required.txt"]
)
def test_a_test_that_printed_no_gflops_is_a_problem(name: str) -> None:
    result = parse_proftester(sample(name), 1007)
    assert result.tflops == {}
    assert result.problems == ("dcgmproftester12 -t 1007 printed no gflops line",)


def test_garbled_numbers_are_skipped() -> None:
    text = "Worker 0:0 [1004]: TensorEngineActive: generated ???, dcgm 0 (1e+999 gflops).\n"
    text += "Worker 0:0 [1004]: TensorEngineActive: generated ???, dcgm 0 (--1 gflops).\n"
    assert parse_proftester(text, 1004).tflops == {}
