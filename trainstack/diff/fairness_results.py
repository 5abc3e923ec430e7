"""Did the two stacks' recorded runs read the same data? ``diff A B --fairness`` on results.

A plan cannot see the bytes a dataset holds; the runs saw them: each run collected from
a cluster records the manifest digest of every dataset its pods read
(:mod:`trainstack.results.datasets`). For every experiment recorded on both stacks, the
runs that count (those of the experiment as it ran last) are compared dataset by
dataset, as ``results compare`` does: different manifests are an ``other`` finding
naming the dataset, so the report says NOT COMPARABLE; a dataset unknown or without a
manifest on a side is a note, no evidence either way.
"""

from __future__ import annotations

from pathlib import Path

from trainstack.diff.fairness import Finding
from trainstack.results.current import current_runs
from trainstack.results.datasets import dataset_verdict
from trainstack.results.store import Display, read_stack_runs


def results_findings(
    root: Path, a_stack: str, b_stack: str, display: Display
) -> tuple[list[Finding], list[str]]:
    """The findings (datasets read with different manifests) and notes (datasets not
    checked) of the runs recorded on both stacks under ``root``."""
    a_runs, b_runs = (
        read_stack_runs(root, a_stack, display),
        read_stack_runs(root, b_stack, display),
    )
    findings: list[Finding] = []
    notes: list[str] = []
    for experiment in sorted(set(a_runs) & set(b_runs)):
        a_records, _ = current_runs(a_runs[experiment])
        b_records, _ = current_runs(b_runs[experiment])
        verdict = dataset_verdict(experiment, a_stack, a_records, b_stack, b_records)
        if not verdict.comparable:
            detail = f"recorded runs of {experiment}: {verdict.detail}"
            findings.append(Finding("other", f"dataset {verdict.dataset}", detail))
        elif verdict.reason:
            notes.append(f"recorded runs of {verdict.reason}")
    return findings, notes
