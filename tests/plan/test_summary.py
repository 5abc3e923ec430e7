"""The plan's summary: what would be created, and who gets what in which namespace."""

from __future__ import annotations

from rich.console import Console

from trainstack.plan.model import Plan
from trainstack.plan.summary import print_summary


def _summary(plan: Plan) -> list[str]:
    console = Console(record=True, width=200, color_system=None)
    print_summary(plan, console, "build/plan/x")
    return [" ".join(line.split()) for line in console.export_text().splitlines()]


def test_the_summary_says_who_gets_what_in_each_namespace(
    example_plans: dict[str, Plan],
) -> None:
    lines = _summary(example_plans["aiacc"])
    start = lines.index("access: who gets what, in which namespace")
    rows = [line for line in lines[start:] if line.startswith("│")][:4]
    assert rows == [
        "│ nlp │ ClusterRole edit │ Group nlp-researchers │",
        "│ nlp │ Role trainstack-training-jobs │ Group nlp-researchers │",
        "│ vision │ ClusterRole edit │ Group vision-researchers │",
        "│ vision │ Role trainstack-training-jobs │ Group vision-researchers │",
    ]


def test_no_access_table_without_bindings(example_plans: dict[str, Plan]) -> None:
    assert not any(line.startswith("access:") for line in _summary(example_plans["onprem"]))
