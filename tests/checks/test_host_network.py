"""Host networking for MPI needs an SSH port other than the node's own 22."""

from __future__ import annotations

import pytest

from tests.experiment_helpers import Deployer, job
from trainstack.core.errors import ExperimentError


def test_host_network_mpi_on_port_22(deploy: Deployer) -> None:
    with pytest.raises(ExperimentError) as caught:
        deploy(job(network={"hostNetwork": True}))
    assert str(caught.value).startswith(
        "invalid experiment in experiments/00-imagenet-tensorflow.yaml: job.mpi.sshPort: found 22;"
    )
    (problem,) = caught.value.problems
    assert problem.path == "job.mpi.sshPort" and problem.found == "22"


def test_host_network_mpi_on_another_port(deploy: Deployer) -> None:
    (experiment,) = deploy(job(network={"hostNetwork": True}, mpi={"sshPort": 2222})).experiments
    assert experiment.job.mpi.ssh_port == 2222
