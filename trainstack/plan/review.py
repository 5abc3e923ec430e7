"""What a reviewer reads beside the objects: warnings, acknowledged warnings, unselected files.

Written as ``review.json`` in every plan (``trainstack diff`` lists each stack's warnings
from it, new ones first, and the experiments that became unselected), and summed up at the
end of the plan summary. Sorted, so the same plan gives the same bytes.
"""

from __future__ import annotations

from trainstack.checks import Finding
from trainstack.plan.files import AcknowledgedItem, NotSelectedItem, ReviewFile, WarningItem
from trainstack.plan.model import Plan


def review_file(plan: Plan) -> ReviewFile:
    """The content of ``review.json``."""
    return ReviewFile(
        stack_file=plan.stack.source,
        warnings=[WarningItem(**_finding(warning)) for warning in plan.warnings],
        acknowledged=[
            AcknowledgedItem(**_finding(item.warning), reason=item.reason, acknowledged_in=item.by)
            for item in plan.acknowledged
        ],
        not_selected=[
            NotSelectedItem(item.file, list(item.experiments)) for item in plan.not_selected
        ],
    )


def _finding(finding: Finding) -> dict[str, str]:
    return {
        "check": finding.check,
        "source": finding.source,
        "experiment": finding.experiment,
        "key": finding.key,
        "message": finding.message,
    }


def review_lines(plan: Plan) -> list[str]:
    """The summary's lines about acknowledged warnings and unselected experiments."""
    lines = [f"acknowledged: {item}" for item in plan.acknowledged]
    if plan.not_selected:
        lines.append(
            f"not selected by this stack ({_count(plan)}; trainstack:experiments.select in "
            f"{plan.stack.source}):"
        )
        lines += [f"  {item.file}: {', '.join(item.experiments)}" for item in plan.not_selected]
    return lines


def _count(plan: Plan) -> str:
    experiments = sum(len(item.experiments) for item in plan.not_selected)
    return f"{experiments} experiment(s) of {len(plan.not_selected)} file(s)"
