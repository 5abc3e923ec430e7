"""The summary's experiments: a row each, or at fleet scale one line counting them."""

from __future__ import annotations

import dataclasses

import pytest
from rich.console import Console

from trainstack.checks.pods import total_gpus
from trainstack.plan.model import Plan
from trainstack.plan.summary import print_summary
from trainstack.plan.summary_experiments import EXPERIMENT_ROWS


def _printed(plan: Plan, verbose: bool) -> list[str]:
    console = Console(record=True, width=400, color_system=None)
    warnings = Console(record=True, width=400, color_system=None)
    print_summary(plan, console, "build/plan/x", warnings, verbose=verbose)
    return console.export_text().splitlines()


def _with_experiments(plan: Plan, count: int) -> Plan:
    """``plan`` with ``count`` experiments: copies of its first, each named apart."""
    first = plan.experiments[0]
    copies = [
        dataclasses.replace(first, release_name=f"{first.release_name}-{n:04d}")
        for n in range(count)
    ]
    return dataclasses.replace(plan, experiments=tuple(copies))


@pytest.mark.parametrize("count", [EXPERIMENT_ROWS, EXPERIMENT_ROWS + 1])
def test_the_default_summary_counts_a_fleet_of_experiments_in_one_line(
    example_plans: dict[str, Plan], count: int
) -> None:
    """At fleet scale the default summary stays short: up to EXPERIMENT_ROWS experiments are
    listed a row each; more are counted, and `--verbose` still lists every one."""
    first = example_plans["aiacc"].experiments[0]
    plan = _with_experiments(example_plans["aiacc"], count)
    row = f"│ {first.release_name}-"
    lines = _printed(plan, verbose=False)
    heading = lines.index("experiments:")
    listed = [line for line in lines if line.strip().startswith(row)]
    if count == EXPERIMENT_ROWS:
        assert len(listed) == count
        assert not any(line.startswith("details") and "each of the" in line for line in lines)
        return
    assert listed == []
    gpus = total_gpus(first.job) * count
    assert lines[heading + 1] == (
        f"  {count} experiments: {count} {first.job.framework}; in 1 namespace(s) "
        f"({first.namespace}); {gpus} GPUs asked for in all"
    )
    (details,) = [line for line in lines if line.startswith("details (`--verbose`)")]
    assert details.startswith(f"details (`--verbose`): each of the {count} experiments, ")
    verbose = _printed(plan, verbose=True)
    assert len([line for line in verbose if line.startswith(row)]) == count
