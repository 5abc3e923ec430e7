"""A job needs an operator that serves its kind at the API version the chart renders."""

from __future__ import annotations

from trainstack.checks.findings import Finding
from trainstack.config.loader import LoadedStack
from trainstack.config.operators import MPIJOBS, PYTORCHJOBS, TFJOBS
from trainstack.experiments.resolve import Experiment

# What the training-job chart renders for each framework.
RENDERED = {
    "mpi": (MPIJOBS, "kubeflow.org/v2beta1", "mpiOperator"),
    "tensorflow": (TFJOBS, "kubeflow.org/v1", "trainingOperator, or arena with tf enabled"),
    "pytorch": (PYTORCHJOBS, "kubeflow.org/v1", "trainingOperator, or arena with pytorch enabled"),
}


def operator_findings(experiment: Experiment, stack: LoadedStack) -> list[Finding]:
    """An error when no enabled operator reconciles the job's kind and version."""
    crd, version, who = RENDERED[experiment.job.framework]
    served = stack.config.operators.served_crds().get(crd)
    if served is not None and served[1] == version:
        return []
    found = (
        f"{crd} is served at {served[1]} by operators.{served[0]}"
        if served
        else f"no enabled operator installs {crd}"
    )
    return [
        Finding(
            experiment.source,
            experiment.name,
            "job.framework",
            f"{experiment.job.framework} jobs are {version} objects, but {found} "
            f"(trainstack:operators in {stack.source}); enable {who}",
        )
    ]
