"""``nvidia-smi -q`` output: each GPU's clocks, power limit, ECC mode and throttling.

The text is one block per GPU (``GPU 00000000:8A:00.0``), sections indented by four
spaces and their fields by eight, ``Name : value`` (as recorded in NVIDIA/nvidia-docker
issues #914 and #1076). Read: ``Product Name``, ``GPU UUID``; ``Max Clocks`` > ``SM``;
``Applications Clocks`` > ``Graphics``; ``Power Readings`` > ``Power Limit`` (newer
drivers: ``Current Power Limit``); ``ECC Mode`` > ``Current``; ``ECC Errors`` >
``Volatile`` > ``Double Bit`` > ``Total`` (older) or ``DRAM Uncorrectable``; and the reasons
under ``Clocks Event Reasons`` (older drivers: ``Clocks Throttle Reasons``) that are
``Active`` (``Idle`` and ``Applications Clocks Setting`` are not throttling: a GPU at rest
and the clocks the administrator set). A value ``N/A`` is no figure. Indented lines
before the first block are a block whose header was cut (the tail of a log).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from trainstack.health.excerpt import figure
from trainstack.health.model import Figure

_BLOCK = re.compile(r"^GPU [0-9A-Fa-f]{4,8}:[0-9A-Fa-f]{2}:[0-9A-Fa-f]{2}\.[0-9A-Fa-f]$")
_FIELD = re.compile(r"^(?P<indent>\s*)(?P<name>[^:]+?)\s*(?::\s*(?P<value>.*?))?\s*$")
_NUMBER = re.compile(r"^(?P<number>\d+(?:\.\d+)?)\s*(?P<unit>MHz|W)?$")
NOT_THROTTLING = frozenset({"Idle", "Applications Clocks Setting", "GPU Idle"})
_REASONS = ("Clocks Event Reasons", "Clocks Throttle Reasons")


@dataclass
class SmiGpu:
    """One GPU's block, as read."""

    product: str | None = None
    uuid: str | None = None
    sm_clock_max_mhz: Figure | None = None
    sm_clock_applications_mhz: Figure | None = None
    power_limit_w: Figure | None = None
    ecc_mode: str | None = None
    ecc_uncorrected: Figure | None = None
    throttling: list[str] = field(default_factory=list)


def _number(value: str | None) -> float | None:
    found = _NUMBER.match(value or "")
    return float(found["number"]) if found else None


def parse_smi(text: str) -> list[SmiGpu]:
    """Each GPU block of an ``nvidia-smi -q`` log, in order."""
    gpus: list[SmiGpu] = []
    path: list[tuple[int, str]] = []
    for line in text.splitlines():
        if _BLOCK.match(line.strip()) and not line.startswith(" "):
            gpus.append(SmiGpu())
            path = []
            continue
        if not line.strip():
            continue
        if not gpus:
            if not line.startswith("    "):
                continue  # the log's own header (driver version, GPUs attached)
            gpus.append(SmiGpu())  # a block whose first lines were cut (a log's tail)
        found = _FIELD.match(line)
        if found is None:
            continue
        indent = len(found["indent"].expandtabs(4))
        name, value = found["name"].strip(), found["value"]
        while path and path[-1][0] >= indent:
            path.pop()
        parents = [part for _, part in path]
        if value is None or value == "":
            path.append((indent, name))
            continue
        _read(gpus[-1], parents, name, value, line)
    return gpus


def _read(gpu: SmiGpu, parents: list[str], name: str, value: str, line: str) -> None:
    """Keep one ``name : value`` field of a GPU's block, by where it sits."""
    number = _number(value)
    where = parents[-1] if parents else ""
    if not parents and name == "Product Name":
        gpu.product = value
    elif not parents and name == "GPU UUID":
        gpu.uuid = value
    elif where == "Max Clocks" and name == "SM" and number is not None:
        gpu.sm_clock_max_mhz = figure(number, [where, line])
    elif where == "Applications Clocks" and name == "Graphics" and number is not None:
        gpu.sm_clock_applications_mhz = figure(number, [where, line])
    elif (
        where in ("Power Readings", "GPU Power Readings")
        and name in ("Power Limit", "Current Power Limit")
        and number is not None
    ):
        gpu.power_limit_w = figure(number, [where, line])
    elif where == "ECC Mode" and name == "Current":
        gpu.ecc_mode = value
    elif "Volatile" in parents and name in ("Total", "DRAM Uncorrectable") and number is not None:
        if name == "DRAM Uncorrectable" or parents[-1] == "Double Bit":
            gpu.ecc_uncorrected = figure(number, [*parents[-2:], line])
    elif any(reason in parents for reason in _REASONS) and value == "Active":
        if name not in NOT_THROTTLING:
            gpu.throttling = sorted({*gpu.throttling, name})
