"""The flags of a run from its GPUs' series, and what a field not exported leaves unchecked."""

from __future__ import annotations

import numpy as np

from trainstack.results.dcgm import BY_NAME, FIELDS
from trainstack.results.flags import flags_of
from trainstack.results.telemetry_summary import GpuSeries


def _gpu(name: str, values: list[float], gpu: str = "0") -> GpuSeries:
    return GpuSeries("n1", gpu, None, BY_NAME[name], np.array(values, dtype=float), 0)


def _healthy(gpu: str = "0") -> list[GpuSeries]:
    levels = {"DCGM_FI_PROF_SM_ACTIVE": 0.8, "DCGM_FI_DEV_CLOCKS_EVENT_REASONS": 0x4}
    return [_gpu(field.name, [levels.get(field.name, 0.0)] * 3, gpu) for field in FIELDS]


def test_a_healthy_run_is_not_flagged() -> None:
    # The software power cap (0x4) is how a V100 trains at full load: not throttling.
    assert flags_of(_healthy(), 0.3) == ([], [])


def test_each_flag_names_the_gpu_and_what_was_seen() -> None:
    series = [
        *_healthy(),
        _gpu("DCGM_FI_DEV_CLOCKS_EVENT_REASONS", [0x0, 0x8, 0x28], gpu="1"),
        _gpu("DCGM_FI_DEV_XID_ERRORS", [48, 48, 48], gpu="2"),
        _gpu("DCGM_FI_DEV_ECC_SBE_VOL_TOTAL", [3, 4, 6], gpu="3"),
        _gpu("DCGM_FI_PROF_SM_ACTIVE", [0.1, 0.2, 0.0], gpu="4"),
        _gpu("DCGM_FI_DEV_THERMAL_VIOLATION", [100, 100, 250], gpu="5"),
    ]
    flags, notes = flags_of(series, 0.3)
    assert [(flag.kind, flag.reason) for flag in flags] == [
        (
            "throttled",
            "hardware slowdown, software thermal slowdown on node n1 GPU 1 in 2 of 3 samples; "
            "150 ns thermal on node n1 GPU 5",
        ),
        ("xid-error", "XID 48 on node n1 GPU 2 (reported from the window's start)"),
        ("ecc-error", "3 single-bit on node n1 GPU 3"),
        ("low-sm-active", "node n1 GPU 4 SM active 0.10 on average, below the floor 0.3"),
    ]
    assert notes == []


def test_a_field_not_exported_is_said_not_checked() -> None:
    gone = {"DCGM_FI_PROF_SM_ACTIVE", "DCGM_FI_DEV_ECC_SBE_VOL_TOTAL"}
    series = [s for s in _healthy() if s.field.name not in gone]
    flags, notes = flags_of(series, 0.5)
    assert flags == []
    assert notes == [
        "ecc-error not checked on DCGM_FI_DEV_ECC_SBE_VOL_TOTAL: not exported (add it to the "
        "exporter's counters CSV)",
        "low-sm-active not checked on DCGM_FI_PROF_SM_ACTIVE: not exported (add it to the "
        "exporter's counters CSV); the floor 0.5 (trainstack:telemetry.smActiveFloor) was not "
        "checked",
    ]
