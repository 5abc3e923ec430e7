"""The DCGM fields ``results collect`` reads, as NVIDIA's DCGM exporter names them.

Names and identifiers: DCGM's ``dcgmlib/dcgm_fields.h`` at tag v4.5.3 (d646460), the DCGM
release dcgm-exporter 4.5.3-4.8.2 (691c927) is built on; the exporter names each series
after its field. Which the exporter sends without configuration: its
``etc/default-counters.csv`` at that tag, which lists SM clock, power, XID errors, tensor
and DRAM activity and PCIe bytes but leaves SM activity, NVLink bytes, clock-event
reasons, ECC counts and violation times commented out: enable them in the counters CSV
the exporter reads (``-f`` / the chart's ``arguments``) or they are "not exported".

*Profiling* fields (``DCGM_FI_PROF_*``, DCGM's "DCP" metrics) come from DCGM's profiling
module: datacenter GPUs from Volta on, one profiling client per GPU at a time (Nsight
Compute or another DCGM running profiling takes it away); the exporter logs "Not
collecting DCP metrics" and skips them otherwise.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Kind = Literal["gauge", "counter", "bitmask", "last"]
"""How a field's samples read: ``gauge`` a level (summarised as they are), ``counter`` a
total since the driver loaded (its increase over the run counts), ``bitmask`` DCGM's
clock-event reasons, ``last`` the last XID the GPU reported."""


@dataclass(frozen=True)
class DcgmField:
    """One DCGM field as the exporter sends it."""

    name: str
    """The series' name (``__name__``): the field's name in dcgm_fields.h."""
    field_id: int
    kind: Kind
    unit: str
    profiling: bool
    """A DCP field (``DCGM_FI_PROF_*``): needs DCGM's profiling module."""
    default: bool
    """Sent by the exporter's default-counters.csv at 4.5.3-4.8.2 (not commented out)."""
    label: str
    """What it is, for tables and plots."""


FIELDS: tuple[DcgmField, ...] = (
    DcgmField("DCGM_FI_PROF_SM_ACTIVE", 1002, "gauge", "ratio", True, False, "SM active"),
    DcgmField(
        "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE", 1004, "gauge", "ratio", True, True, "tensor active"
    ),
    DcgmField("DCGM_FI_PROF_DRAM_ACTIVE", 1005, "gauge", "ratio", True, True, "DRAM active"),
    DcgmField("DCGM_FI_PROF_NVLINK_TX_BYTES", 1011, "gauge", "B/s", True, False, "NVLink TX"),
    DcgmField("DCGM_FI_PROF_NVLINK_RX_BYTES", 1012, "gauge", "B/s", True, False, "NVLink RX"),
    DcgmField("DCGM_FI_PROF_PCIE_TX_BYTES", 1009, "gauge", "B/s", True, True, "PCIe TX"),
    DcgmField("DCGM_FI_PROF_PCIE_RX_BYTES", 1010, "gauge", "B/s", True, True, "PCIe RX"),
    DcgmField("DCGM_FI_DEV_POWER_USAGE", 155, "gauge", "W", False, True, "power"),
    DcgmField("DCGM_FI_DEV_SM_CLOCK", 100, "gauge", "MHz", False, True, "SM clock"),
    DcgmField("DCGM_FI_DEV_CLOCKS_EVENT_REASONS", 112, "bitmask", "", False, False, "clock events"),
    DcgmField("DCGM_FI_DEV_XID_ERRORS", 230, "last", "", False, True, "last XID"),
    DcgmField("DCGM_FI_DEV_ECC_SBE_VOL_TOTAL", 310, "counter", "", False, False, "ECC SBE"),
    DcgmField("DCGM_FI_DEV_ECC_DBE_VOL_TOTAL", 311, "counter", "", False, False, "ECC DBE"),
    DcgmField("DCGM_FI_DEV_POWER_VIOLATION", 240, "counter", "ns", False, False, "power cap"),
    DcgmField("DCGM_FI_DEV_THERMAL_VIOLATION", 241, "counter", "ns", False, False, "thermal limit"),
)
BY_NAME = {field.name: field for field in FIELDS}

SM_ACTIVE = "DCGM_FI_PROF_SM_ACTIVE"
TENSOR_ACTIVE = "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE"
POWER = "DCGM_FI_DEV_POWER_USAGE"
SM_CLOCK = "DCGM_FI_DEV_SM_CLOCK"
CLOCK_EVENTS = "DCGM_FI_DEV_CLOCKS_EVENT_REASONS"
XID = "DCGM_FI_DEV_XID_ERRORS"
ECC_SINGLE = "DCGM_FI_DEV_ECC_SBE_VOL_TOTAL"
ECC_DOUBLE = "DCGM_FI_DEV_ECC_DBE_VOL_TOTAL"
THERMAL_VIOLATION = "DCGM_FI_DEV_THERMAL_VIOLATION"

THROTTLING_EVENTS: tuple[tuple[int, str], ...] = (
    (0x08, "hardware slowdown"),
    (0x20, "software thermal slowdown"),
    (0x40, "hardware thermal slowdown"),
    (0x80, "hardware power brake"),
)
"""The clock-event reasons that mean the GPU was slowed against its will
(``DCGM_CLOCKS_EVENT_REASON_HW_SLOWDOWN``, ``SW_THERMAL``, ``HW_THERMAL``,
``HW_POWER_BRAKE`` in dcgm_fields.h at v4.5.3). Idle (0x1), the clocks setting (0x2),
the software power cap (0x4: a GPU at full load at its power limit, as V100s training
run), sync boost (0x10) and display clocks (0x100) are not throttling of a run."""
