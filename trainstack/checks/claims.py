"""Every claim a job mounts must be a dataset of the stack, in the job's namespace."""

from __future__ import annotations

from trainstack.checks.findings import Finding
from trainstack.config.loader import LoadedStack
from trainstack.experiments import Experiment


def claim_findings(experiment: Experiment, stack: LoadedStack) -> list[Finding]:
    """Errors for claims no stack dataset provides (the pods would wait for them forever)."""
    job = experiment.job
    claims = [(f"job.datasets[{i}].claimName", d.claim_name) for i, d in enumerate(job.datasets)]
    if job.results.claim_name is not None:
        claims.append(("job.results.claimName", job.results.claim_name))
    provided = sorted(d.name for d in stack.config.datasets if experiment.namespace in d.namespaces)
    return [
        Finding(
            experiment.source,
            experiment.name,
            key,
            f"claim {claim!r} is not provided by any dataset of the stack in namespace "
            f"{experiment.namespace!r} (trainstack:datasets in {stack.source} provides: "
            f"{', '.join(provided) or 'none'})",
        )
        for key, claim in claims
        if stack.config.dataset(claim, experiment.namespace) is None
    ]
