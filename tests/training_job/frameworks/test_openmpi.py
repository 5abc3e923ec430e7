"""Open MPI's part of an MPIJob: which variables the launcher exports to every rank over
ssh (the env file), said the same by the model and the chart."""

from __future__ import annotations

from typing import Any

import pytest

from tests.chart.jobs import job_values, render_job
from trainstack.training_job import validate_values
from trainstack.training_job.frameworks.mpi.openmpi import (
    RANK_ENV_ANNOTATION,
    RANK_ENV_FILE,
    rank_env,
)

SECRET = {"valueFrom": {"secretKeyRef": {"name": "s", "key": "token"}}}
OPTIONAL = {"valueFrom": {"configMapKeyRef": {"name": "c", "key": "k", "optional": True}}}
POD_NAME = {"valueFrom": {"fieldRef": {"fieldPath": "metadata.name"}}}
CASES: dict[str, tuple[dict[str, Any], list[str]]] = {
    "workload 1 on aiacc": (
        job_values(
            "mpi",
            arenaSubmit=True,
            env={
                "PERSEUS_ALLREDUCE_DTYPE": "0",
                "OMPI_MCA_btl_vader_single_copy_mechanism": "none",
            },
        ),
        ["PERSEUS_ALLREDUCE_DTYPE", "gpus", "workers"],
    ),
    "references shared by every pod, not pod fields nor optional ones": (
        job_values("mpi", env={"TOKEN": SECRET, "MAYBE": OPTIONAL, "POD": POD_NAME, "A": ""}),
        ["A", "TOKEN"],
    ),
    "Intel MPI (Hydra propagates the environment)": (
        job_values("mpi", env={"X": "1"}, mpi={"implementation": "Intel"}),
        [],
    ),
    "nothing to export": (job_values("mpi"), []),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_model_and_the_chart_export_the_same_variables(case: str) -> None:
    values, names = CASES[case]
    assert rank_env(validate_values(values, "test")) == names
    launcher = render_job(values)["spec"]["mpiReplicaSpecs"]["Launcher"]["template"]
    annotations = launcher["metadata"].get("annotations", {})
    env = {e["name"]: e.get("value") for e in launcher["spec"]["containers"][0].get("env", [])}
    if not names:
        assert RANK_ENV_ANNOTATION not in annotations
        assert "OMPI_MCA_mca_base_envar_file_prefix" not in env
        return
    assert annotations[RANK_ENV_ANNOTATION] == "".join(f"-x {name}\n" for name in names)
    assert env["OMPI_MCA_mca_base_envar_file_prefix"] == RANK_ENV_FILE
