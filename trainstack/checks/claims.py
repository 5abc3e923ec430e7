"""Every claim a job mounts must be a dataset of the stack, in the job's namespace."""

from __future__ import annotations

from collections.abc import Sequence

from trainstack.checks.findings import Finding
from trainstack.config.stack import StackConfig
from trainstack.experiments.resolve import Experiment


def claim_findings(
    experiments: Sequence[Experiment], config: StackConfig, source: str
) -> list[Finding]:
    """Errors for claims no stack dataset provides (the pods would wait for them forever)."""
    return [found for e in experiments for found in _claims(e, config, source)]


def _claims(experiment: Experiment, config: StackConfig, source: str) -> list[Finding]:
    job = experiment.job
    claims = [(f"job.datasets[{i}].claimName", d.claim_name) for i, d in enumerate(job.datasets)]
    if job.results.claim_name is not None:
        claims.append(("job.results.claimName", job.results.claim_name))
    namespace = experiment.namespace
    provided = sorted(d.name for d in config.datasets if namespace in d.namespaces)
    return [
        Finding(
            experiment.source,
            experiment.release_name,
            key,
            f"claim {claim!r} is not provided by any dataset of the stack in namespace "
            f"{namespace!r} (trainstack:datasets in {source} provides: "
            f"{', '.join(provided) or 'none'}): {_fix(claim, namespace, config, provided)}",
        )
        for key, claim in claims
        if config.dataset(claim, namespace) is None
    ]


def _fix(claim: str, namespace: str, config: StackConfig, provided: list[str]) -> str:
    """How to get the claim into the namespace: share the dataset of that name, or add one."""
    mount = f", or mount {' or '.join(map(repr, provided))} instead" if provided else ""
    for index, dataset in enumerate(config.datasets):
        if dataset.name == claim:
            return (
                f"add {namespace!r} to trainstack:datasets[{index}].sharedWith (dataset "
                f"{claim!r} is in {', '.join(map(repr, dataset.namespaces))}){mount}"
            )
    return f"add a dataset {claim!r} in namespace {namespace!r} to trainstack:datasets{mount}"
