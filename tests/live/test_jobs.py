"""A job object read from the cluster: how many pods it starts, in each API."""

from __future__ import annotations

from trainstack.live.jobs import live_job
from trainstack.training_job.frameworks import framework


def test_the_pods_of_an_mpijob_in_either_api() -> None:
    mpi = framework("mpi")
    v2beta1 = {
        "spec": {"mpiReplicaSpecs": {"Launcher": {"replicas": 1}, "Worker": {"replicas": 4}}}
    }
    # ack-arena's v1alpha1: spec.replicas workers from one template, and one launcher
    v1alpha1 = {"spec": {"replicas": 4, "template": {"spec": {"containers": []}}}}
    assert live_job(mpi, v2beta1).pods_expected == 5
    assert live_job(mpi, v1alpha1).pods_expected == 5
    assert live_job(mpi, {"spec": {}}).pods_expected == 0
