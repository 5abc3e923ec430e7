"""The MPI launcher must see what its command reads (Arena's --mounts-on-launcher bug)."""

from __future__ import annotations

import pytest

from tests.experiment_helpers import Deployer, job
from trainstack.core.errors import PlanCheckError


def test_launcher_command_on_a_worker_only_dataset(deploy: Deployer) -> None:
    with pytest.raises(PlanCheckError) as caught:
        deploy(job(mpi={"mountsOnLauncher": False}))
    assert caught.value.failures == (
        "experiments/00-imagenet-tensorflow.yaml: experiment imagenet-tensorflow: "
        "job.mpi.mountsOnLauncher: the launcher uses /data, "
        "/data/tensorflow-imagenet/launch_arena.sh on dataset 'imagenet-data' "
        "(job.datasets[0], mounted at /data) but mountsOnLauncher is false, so the launcher "
        "does not see it; set mountsOnLauncher: true",
    )


def test_launcher_command_elsewhere_is_fine(deploy: Deployer) -> None:
    deployment = deploy(
        job(mpi={"mountsOnLauncher": False}, command="python /opt/train.py", workingDir="/opt")
    )
    assert deployment.experiments[0].job.mpi.mounts_on_launcher is False


def test_arenas_launcher_without_the_data_is_named(deploy: Deployer) -> None:
    """arena submit mpi without --mounts-on-launcher: the failure workload 1's users hit."""
    with pytest.raises(PlanCheckError) as caught:
        deploy(job(arenaSubmit=True))
    (failure,) = caught.value.failures
    assert failure.endswith(
        "but mountsOnLauncher is false (arena submit's default: arenaSubmit), so the launcher "
        "does not see it; set mountsOnLauncher: true"
    )
