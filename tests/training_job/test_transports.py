"""Which transport an MPIJob's ranks take, in the chart's dialects and in the catalog."""

from __future__ import annotations

from tests.training_job.test_dialects import SERVED
from trainstack.training_job.frameworks import framework
from trainstack.training_job.transports import DIALECT_TRANSPORT, TRANSPORTS


def test_every_operator_serving_mpijobs_states_the_transport_of_its_dialect() -> None:
    mpi = framework("mpi")
    served = [api for api in SERVED if api.crd == mpi.crd and api.dialect is not None]
    assert {api.api_version for api in served} == {"kubeflow.org/v2beta1", "kubeflow.org/v1alpha1"}
    for api in served:
        assert api.dialect is not None
        assert api.transport == DIALECT_TRANSPORT[api.dialect], api


def test_only_mpijobs_have_a_transport() -> None:
    assert {api.kind for api in SERVED if api.transport is not None} == {"MPIJob"}


def test_each_transport_says_what_the_image_needs() -> None:
    assert set(DIALECT_TRANSPORT.values()) == set(TRANSPORTS)
    assert "sshd" in TRANSPORTS["ssh"].image_needs
    assert "ssh client" in TRANSPORTS["ssh"].image_needs
    assert "no sshd" in TRANSPORTS["kubectl-exec"].image_needs
