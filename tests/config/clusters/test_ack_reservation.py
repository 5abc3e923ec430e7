"""ACK's default node reservation, held to every number of its documentation page.

The rows of "Example default resource reservations for ACK nodes" (ECS c7 and ebmc7a
instance types; max pods as the page gives them, Terway inclusive ENI):
https://www.alibabacloud.com/help/en/ack/ack-managed-and-ack-dedicated/user-guide/resource-reservation-policy
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from trainstack.config.clusters.ack_reservation import (
    EVICTION_THRESHOLD,
    MIB,
    reserved_cpu,
    reserved_memory,
    whole_mib,
)

GIB = 1024 * MIB
# cores, GiB, max pods, 1.28+ CPU m, 1.28+ memory MiB, 1.20-1.27 CPU m, 1.20-1.27 memory MiB
TABLE = [
    (2, 4, 15, 70, 420, 100, 1024),
    (4, 8, 48, 80, 783, 100, 1843),
    (8, 16, 48, 90, 783, 200, 2662),
    (16, 32, 213, 110, 2598, 400, 3645),
    (32, 64, 213, 150, 2598, 800, 5611),
    (64, 128, 213, 230, 2598, 1600, 9543),
    (128, 256, 423, 390, 4908, 2400, 12164),
    (256, 512, 453, 710, 5238, 3040, 17407),
]


@pytest.mark.parametrize(
    ("cores", "gib", "pods", "cpu_new", "mem_new", "cpu_old", "mem_old"), TABLE
)
def test_every_row_of_acks_table(
    cores: int, gib: int, pods: int, cpu_new: int, mem_new: int, cpu_old: int, mem_old: int
) -> None:
    assert reserved_cpu(Decimal(cores), (1, 35)) * 1000 == cpu_new
    assert reserved_cpu(Decimal(cores), (1, 27)) * 1000 == cpu_old
    assert reserved_memory(Decimal(gib) * GIB, (1, 28), pods) == mem_new * MIB
    # 1.20-1.27: the formula's fractions are rounded up to a whole MiB, never below the
    # table (which rounds 1843.2 to 1843 and 12165.12 to 12164): allocatable errs low
    old = reserved_memory(Decimal(gib) * GIB, (1, 20), None) / MIB
    assert mem_old <= old <= mem_old + 2


def test_the_docs_worked_examples() -> None:
    # "1000 x 6% + 1000 x 1% + 1000 x 2 x 0.5% + (32000 - 4000) x 0.25% = 150 millicores"
    assert reserved_cpu(Decimal(32), (1, 28)) == Decimal("0.15")
    # "100 + (32000 - 4000) x 2.5% = 800 millicores"
    assert reserved_cpu(Decimal(32), (1, 20)) == Decimal("0.8")
    # ecs.g7.16xlarge, 256 GiB, 213 pods: "min(11 x (210 + 3) + 255, 256 x 1024 x 25%) = 2598 MiB"
    assert reserved_memory(Decimal(256) * GIB, (1, 30), 213) == 2598 * MIB
    # 256 GiB on 1.20-1.27: "= 11.88 GiB"
    assert reserved_memory(Decimal(256) * GIB, (1, 27), None) == 12166 * MIB


def test_the_docs_4_core_node_is_never_overestimated() -> None:
    """The page's `kubectl describe node` (a 1.20-1.27 node): capacity 7925980Ki, allocatable
    5824732Ki. With the 300Mi eviction threshold trainstack assumes, the derived allocatable
    is at most that, and within 2 MiB of it."""
    capacity = Decimal(7925980 * 1024)
    reserved = reserved_memory(capacity, (1, 27), None)
    allocatable = whole_mib(capacity - reserved - EVICTION_THRESHOLD)
    documented = Decimal(5824732 * 1024)
    assert documented - 2 * MIB <= allocatable <= documented


def test_the_memory_reservation_is_capped_at_a_quarter_of_the_node() -> None:
    assert reserved_memory(Decimal(2) * GIB, (1, 35), 250) == 512 * MIB


def test_the_gpu_nodes_of_workload_one() -> None:
    # ecs.gn6e-c12g1.12xlarge: 48 vCPU, 368 GiB
    assert 48 - reserved_cpu(Decimal(48), (1, 35)) == Decimal("47.81")
    assert 48 - reserved_cpu(Decimal(48), (1, 27)) == Decimal("46.8")
