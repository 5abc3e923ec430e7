"""A run's DCGM series summarised: gauges, counters with resets, clock-event bitmasks, the
last XID, on the query's grid; the nodes' series binned to their budget. By hand."""

from __future__ import annotations

import math

import numpy as np
import pytest

from trainstack.config.telemetry import DcgmLabels
from trainstack.live.prometheus import Series
from trainstack.results import telemetry_summary
from trainstack.results.dcgm import BY_NAME
from trainstack.results.telemetry_query import Window
from trainstack.results.telemetry_summary import GpuSeries, on_grid, stats_of, summarised

LABELS = DcgmLabels.model_validate({})


def _gpu(name: str, values: list[float], node: str = "n1", gpu: str = "0") -> GpuSeries:
    return GpuSeries(node, gpu, "Tesla V100-SXM2-32GB", BY_NAME[name], np.array(values), 0)


def test_samples_land_on_the_windows_points() -> None:
    window = Window(start=1000.0, end=1060.0, step=15)  # points 1000, 1015, ..., 1060
    series = Series(
        {"__name__": "DCGM_FI_DEV_POWER_USAGE", "Hostname": "n1", "gpu": "3"},
        times=(1000.0, 1015.4, 1044.9, 2000.0),  # 2000: outside the window
        values=(100.0, 200.0, 300.0, 400.0),
        not_a_number=2,
    )
    other = Series({"__name__": "up"}, (1000.0,), (1.0,), 0)
    (gpu,) = on_grid([series, other], window, LABELS)
    assert (gpu.node, gpu.gpu, gpu.missing, window.points) == ("n1", "3", 2, 5)
    assert gpu.values[:2].tolist() == [100.0, 200.0] and math.isnan(gpu.values[2])
    assert gpu.values[3] == 300.0 and math.isnan(gpu.values[4])


def test_a_gauge_is_its_mean_and_percentiles() -> None:
    # 0, 1, 2, 3, 4 and a gap: mean 2; p5 = 0 + 0.05 x 4 = 0.2; p95 = 3.8 (linear ranks).
    clock = "DCGM_FI_DEV_SM_CLOCK"
    stats = stats_of(BY_NAME[clock], [_gpu(clock, [0, 1, 2, 3, 4, math.nan])])
    assert (stats.mean, stats.p5, stats.p95, stats.samples) == (2.0, 0.2, 3.8, 5)
    assert stats.increase is None


def test_a_counter_is_its_increase_resets_counted_from_zero() -> None:
    # 5 -> 7 (+2), reset -> 2 (+2), -> 4 (+2): 6 on GPU 0; 10 -> 13: 3 on GPU 1.
    field = BY_NAME["DCGM_FI_DEV_ECC_DBE_VOL_TOTAL"]
    gpus = [_gpu(field.name, [5, 7, 2, 4]), _gpu(field.name, [10, 13, math.nan, 13], gpu="1")]
    stats = stats_of(field, gpus)
    assert (stats.increase, stats.mean) == (9.0, None)
    _, series, _ = summarised(gpus)
    assert series[field.name] == [0, 5, 7, 9]  # summed increase since the start


def test_clock_events_are_the_share_of_samples_with_a_throttling_reason() -> None:
    # idle (0x1) no; HW thermal (0x40) yes; SW power cap (0x4) no; 0x48 yes: 2 of 4.
    field = BY_NAME["DCGM_FI_DEV_CLOCKS_EVENT_REASONS"]
    stats = stats_of(field, [_gpu(field.name, [0x1, 0x40, 0x4, 0x48])])
    assert stats.mean == 0.5 and stats.p5 is None


def test_the_last_xid_series_is_the_largest_over_the_gpus() -> None:
    field = BY_NAME["DCGM_FI_DEV_XID_ERRORS"]
    gpus = [_gpu(field.name, [0, 0, 79]), _gpu(field.name, [0, 48, 48], gpu="1")]
    _, series, nodes = summarised(gpus)
    assert series[field.name] == [0, 48, 79]
    assert nodes[0].fields[field.name].mean is None and nodes[0].gpus == ["0", "1"]


def test_per_node_series_are_binned_to_the_nodes_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(telemetry_summary, "MAX_NODE_VALUES", 10)
    field = "DCGM_FI_DEV_POWER_USAGE"
    run_stats, run_series, (node,) = summarised([_gpu(field, [float(i) for i in range(25)])])
    assert len(run_series[field]) == 25  # the run's own series is never binned
    # 25 points into bins of 3: means 1, 4, 7, ..., 22, then 24 alone.
    assert node.series[field] == [1, 4, 7, 10, 13, 16, 19, 22, 24]
    assert run_stats[field].mean == 12.0
