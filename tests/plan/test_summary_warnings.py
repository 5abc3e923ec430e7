"""The plan's warnings on stderr: each in full, or at fleet scale the first few of a kind."""

from __future__ import annotations

import dataclasses

import pytest
from rich.console import Console

from trainstack.checks.findings import warning
from trainstack.config.loader import LoadedStack
from trainstack.plan.model import Plan
from trainstack.plan.summary_warnings import NAMED, WARNINGS_EACH, print_warnings

PTRACE = "job.security.capabilities.add"
MEMORY = "job.worker.resources.limits.memory"


def _plan(plan: Plan, ptrace: int, memory: int) -> Plan:
    """``plan`` with ``ptrace`` openMpiPtrace warnings and ``memory`` memoryLimit ones, each
    of an experiment of its own, in the order a plan sorts them (by file)."""
    found = [
        warning(
            f"experiments/mpi-{n:02d}.yaml",
            f"mpi-{n:02d}",
            PTRACE,
            "no SYS_PTRACE",
            "openMpiPtrace",
        )
        for n in range(ptrace)
    ] + [
        warning(f"experiments/tf-{n:02d}.yaml", f"tf-{n:02d}", MEMORY, "no limit", "memoryLimit")
        for n in range(memory)
    ]
    return dataclasses.replace(plan, warnings=tuple(found))


def _printed(plan: Plan, verbose: bool) -> tuple[list[str], int]:
    err = Console(record=True, width=2000, color_system=None)
    assert isinstance(plan.stack, LoadedStack)
    counted = print_warnings(plan, plan.stack, err, verbose)
    return err.export_text().splitlines(), counted


def _warned(lines: list[str]) -> list[str]:
    """The experiment each full warning is of."""
    return [
        line.split(": experiment ")[1].split(":")[0] for line in lines if ": experiment " in line
    ]


def test_a_few_warnings_of_a_kind_are_each_printed_in_full(example_plans: dict[str, Plan]) -> None:
    plan = _plan(example_plans["aiacc"], WARNINGS_EACH, 2)
    lines, counted = _printed(plan, verbose=False)
    assert counted == 0
    assert _warned(lines) == [f"mpi-{n:02d}" for n in range(WARNINGS_EACH)] + ["tf-00", "tf-01"]
    # Each with where to acknowledge it.
    assert sum(line.startswith("  to acknowledge it:") for line in lines) == WARNINGS_EACH + 2


@pytest.mark.parametrize("more", [1, NAMED + 2])
def test_more_of_a_kind_are_counted_in_one_line_after_the_first(
    example_plans: dict[str, Plan], more: int
) -> None:
    """A stack of 1,000 experiments printed 1,666 lines of three kinds of warnings."""
    plan = _plan(example_plans["aiacc"], WARNINGS_EACH + more, 2)
    lines, counted = _printed(plan, verbose=False)
    assert counted == more
    assert _warned(lines) == [f"mpi-{n:02d}" for n in range(WARNINGS_EACH)] + ["tf-00", "tf-01"]
    rest = [f"mpi-{n:02d}" for n in range(WARNINGS_EACH, WARNINGS_EACH + more)]
    named = ", ".join(rest[:NAMED]) + (", …" if more > NAMED else "")
    (line,) = [line for line in lines if " more [" in line]
    assert line == (
        f"warning: {more} more [openMpiPtrace] warning(s), of {more} experiment(s) ({named}): "
        "`trainstack plan --verbose` prints each with where to acknowledge it; the plan's "
        "review.json lists them all"
    )
    # Right after the last one printed of its kind, before the next kind's.
    assert lines.index(line) == lines.index(next(text for text in lines if "tf-00" in text)) - 1


def test_verbose_prints_every_warning(example_plans: dict[str, Plan]) -> None:
    plan = _plan(example_plans["aiacc"], WARNINGS_EACH + 40, 2)
    lines, counted = _printed(plan, verbose=True)
    assert counted == 0
    assert len(_warned(lines)) == WARNINGS_EACH + 42
    assert not any(" more [" in line for line in lines)
