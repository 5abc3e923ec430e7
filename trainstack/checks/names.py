"""Experiment names: unique after matrix expansion, and valid for Helm and Kubernetes."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from trainstack.checks.findings import Finding
from trainstack.config.stack import StackConfig
from trainstack.core.names import RELEASE_NAME_MAX
from trainstack.experiments.resolve import Experiment
from trainstack.training_job import release_name_problems


def name_findings(
    experiments: Sequence[Experiment], config: StackConfig, source: str
) -> list[Finding]:
    """Errors for duplicated names and names that cannot name the release and its pods."""
    findings: list[Finding] = []
    # Unique across namespaces too: the name identifies the experiment in plans, diffs
    # and the fairness report, and names its Pulumi resource.
    sources: dict[str, list[str]] = defaultdict(list)
    for experiment in experiments:
        sources[experiment.release_name].append(experiment.source)
    for experiment in experiments:
        others = sources[experiment.release_name]
        if len(others) > 1:
            findings.append(
                Finding(
                    experiment.source,
                    experiment.release_name,
                    "name",
                    f"{len(others)} experiments are named {experiment.release_name!r} "
                    f"(from {', '.join(sorted(set(others)))}); names must be unique after "
                    "matrix expansion",
                )
            )
        if len(experiment.release_name) > RELEASE_NAME_MAX:
            findings.append(
                Finding(
                    experiment.source,
                    experiment.release_name,
                    "name",
                    f"{len(experiment.release_name)} characters; a Helm release name has at most "
                    f"{RELEASE_NAME_MAX}",
                )
            )
        for problem in release_name_problems(experiment.release_name, experiment.job):
            findings.append(
                Finding(
                    experiment.source,
                    experiment.release_name,
                    "name",
                    f"found {problem.found}; allowed: {problem.allowed}",
                )
            )
    return findings
