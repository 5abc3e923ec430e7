"""Experiments no stack selects: checked, never deployed, a warning naming the file and
how to select it."""

from __future__ import annotations

from collections.abc import Sequence

from trainstack.checks.findings import Finding, warning
from trainstack.experiments.elsewhere import OtherStack, selected_by_any
from trainstack.experiments.select import NotSelected

SELECTED_BY_NO_STACK = "selectedByNoStack"


def unselected_findings(
    not_selected: Sequence[NotSelected], others: Sequence[OtherStack], stack_file: str
) -> list[Finding]:
    """One warning per file whose experiments (matrix points) neither this stack (its file:
    ``stack_file``) nor any of ``others`` selects."""
    files = sorted({stack_file, *(other.source for other in others)})
    found = []
    for item in not_selected:
        nobody = [
            point
            for point in item.experiments
            if not selected_by_any(dict.fromkeys((point, item.name)), others)
        ]
        if not nobody:
            continue
        what = ", ".join(nobody) if nobody != [item.name] else item.name
        found.append(
            warning(
                item.file,
                item.name,
                "name",
                f"{what}: selected by no stack ({', '.join(files)}), so checked but never "
                f"deployed: add {item.name!r} (or a pattern that matches it, e.g. '*') to "
                "trainstack:experiments.select of the stack that should run it, and take it out "
                "of that stack's trainstack:experiments.exclude",
                SELECTED_BY_NO_STACK,
            )
        )
    return found
