"""The fairness report as text lines (styled for a terminal) or as a markdown section."""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from trainstack.console.markdown import code_span
from trainstack.diff.budget import GITHUB_COMMENT_LIMIT, fit
from trainstack.diff.environment import SEVERITIES, EnvironmentReport
from trainstack.diff.fairness import CATEGORIES, Category, FairnessReport, Finding
from trainstack.diff.render_text import StyledLine

UNFAIR = (
    "NOT COMPARABLE: {count} difference(s) are neither acceleration nor cluster identity, "
    "so throughput measured on these stacks cannot be compared"
)
FAIR = "fair: the stacks differ only in acceleration and cluster identity ({counts})"
UNFAIR_HEALTH = (
    "NOT COMPARABLE: the GPUs or their interconnect are not healthy or not equally fast "
    "({summary}), so throughput measured on these stacks cannot be compared"
)
UNFAIR_OBSERVED = (
    "NOT COMPARABLE: the clusters as observed differ in {count} way(s) that change training "
    "speed, so throughput measured on these stacks cannot be compared"
)


def verdict(report: FairnessReport) -> str:
    """One sentence: fair or not, and why; then what was seen of the clusters."""
    environment = report.environment
    if report.of("other"):
        text = UNFAIR.format(count=len(report.of("other")))
    elif environment is not None and not environment.comparable:
        text = UNFAIR_OBSERVED.format(count=len(environment.of("not comparable")))
    elif report.health is not None and not report.health.comparable:
        text = UNFAIR_HEALTH.format(summary=report.health.summary())
    else:
        counts = categories_in(report.findings)
        text = FAIR.format(counts=", ".join(f"{counts[c]} {c}" for c in CATEGORIES[1:]))
    health = report.health
    said = f"; {health.summary()}" if health is not None and health.comparable else ""
    return text + _observed(environment) + said


def _observed(environment: EnvironmentReport | None) -> str:
    if environment is None:
        return ""
    if not environment.compared:
        return f"; {environment.missing}"
    counts = ", ".join(f"{len(environment.of(s))} {s}" for s in SEVERITIES)
    return f"; observed facts compared ({counts})"


# Objects named on a line of a group, before "and N more".
NAMED_OBJECTS = 3


def fairness_lines(report: FairnessReport) -> list[StyledLine]:
    """The text report: verdict, then the unexpected differences, then the expected ones.

    One line per distinct fact (category and difference), with how many objects show it
    and the first few of them by name.
    """
    title = f"fairness {report.before_label} -> {report.after_label}: {verdict(report)}"
    lines: list[StyledLine] = [(title, "bold green" if report.fair else "bold red")]
    width = max(len(category) for category in CATEGORIES)
    for category in CATEGORIES:
        style = "red" if category == "other" else ""
        for group in grouped(report.of(category)):
            lines.append((f"  {category:<{width}}  {_objects(group)}: {group.detail}", style))
    styles = {"not comparable": "red", "warning": "yellow", "acceleration": ""}
    for finding in report.environment.findings if report.environment else ():
        text = f"  {'observed':<{width}}  {finding.severity}: {finding.text}"
        lines.append((text, styles[finding.severity]))
    lines += [
        (f"  {'health':<{width}}  {finding.severity}: {finding.text}", "red")
        for finding in (report.health.findings if report.health else ())
    ]
    lines += [(f"note: {note}", "yellow") for note in report.notes]
    return lines


def _objects(group: FindingGroup) -> str:
    """``MPIJob a/b`` alone, or ``3 objects (A, B, C)``, or ``16 objects (A, B, C and 13 more)``."""
    subjects = group.subjects
    if len(subjects) == 1:
        return subjects[0]
    named = ", ".join(subjects[:NAMED_OBJECTS])
    more = f" and {len(subjects) - NAMED_OBJECTS} more" if len(subjects) > NAMED_OBJECTS else ""
    return f"{len(subjects)} objects ({named}{more})"


TRUNCATED_NOTE = (
    "\n> **Truncated:** {omitted} more difference(s) not listed (comment size limit). "
    "Run `trainstack diff {before} {after} --fairness` locally.\n"
)


def fairness_markdown(report: FairnessReport, limit: int = GITHUB_COMMENT_LIMIT) -> str:
    """A markdown section: verdict, then a table of every difference and its category."""
    mark = ":white_check_mark:" if report.fair else ":x:"
    head = [
        f"### trainstack fairness: {code_span(report.before_label)} → "
        f"{code_span(report.after_label)}\n\n{mark} **{html.escape(verdict(report))}**\n\n"
    ]
    rows = [
        f"| {category} | {len(group.subjects)} | "
        f"{', '.join(code_span(subject) for subject in group.subjects)} | "
        f"{code_span(group.detail)} |\n"
        for category in CATEGORIES
        for group in grouped(report.of(category))
    ]
    rows += [
        f"| observed: {finding.severity} | - | facts | {code_span(finding.text)} |\n"
        for finding in (report.environment.findings if report.environment else ())
    ]
    rows += [
        f"| health: {finding.severity} | - | health | {code_span(finding.text)} |\n"
        for finding in (report.health.findings if report.health else ())
    ]
    if rows:
        head.append("| category | objects | which | difference |\n|---|---|---|---|\n")
    notes = [f"\nnote: {code_span(note)}\n" for note in report.notes]

    def note(omitted: int) -> str:
        if not omitted:
            return ""
        return TRUNCATED_NOTE.format(
            omitted=omitted, before=report.before_label, after=report.after_label
        )

    return fit(head, [*rows, *notes], limit, note)


@dataclass(frozen=True)
class FindingGroup:
    """Findings of one category that state the same fact about several objects."""

    category: Category
    detail: str
    subjects: tuple[str, ...]


def grouped(findings: Iterable[Finding]) -> list[FindingGroup]:
    """One group per (category, fact), in the order the facts first appear."""
    groups: dict[tuple[Category, str], list[str]] = {}
    for finding in findings:
        groups.setdefault((finding.category, finding.detail), []).append(finding.subject)
    return [
        FindingGroup(category, detail, tuple(subjects))
        for (category, detail), subjects in groups.items()
    ]


def categories_in(findings: Sequence[Finding]) -> dict[Category, int]:
    """How many findings of each category, in report order."""
    return {category: sum(1 for f in findings if f.category == category) for category in CATEGORIES}
