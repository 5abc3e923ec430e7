"""ACK's ``ack-arena``: Arena's cluster side with its own forks of the Kubeflow operators.

Facts and sources:

- Install: the ACK component ``ack-arena`` (Alibaba Cloud documentation, "ack-arena",
  cloud-native AI suite > product overview, with its change log), installed by ACK:
  ``alicloud.cs.KubernetesAddon`` with an exact version. ACK only (ACK Pro clusters,
  Kubernetes 1.18 or later). Versions documented there: 0.13.1 (2025-01-13), 0.14.1
  (2025-02-24) and 0.14.2 (2025-03-10); 0.15.x is upstream Arena's chart
  (``arena-artifacts`` 0.15.3 in kubeflow/arena), not an ACK component version.
- It bundles, in namespace ``arena-system``, a tf-operator fork (AliyunContainerService/
  tf-operator), pytorch-operator (kubeflow/pytorch-operator) and an mpi-operator fork
  (MPIJob ``v1alpha1``), with their CRDs (kubeflow/arena arena-artifacts/crds/). The
  add-on documents no switch to leave one out: it owns ``mpijobs``, ``tfjobs`` and
  ``pytorchjobs`` whatever else the stack installs.
- Their APIs are older than upstream's: TFJob and PyTorchJob ``v1`` keep
  cleanPodPolicy, backoffLimit, activeDeadlineSeconds and ttlSecondsAfterFinished
  directly under ``spec`` (no ``runPolicy``, no ``suspend``: Kueue cannot hold them), and
  their pod templates have no ``seccompProfile``; PyTorchJob has no ``nprocPerNode``.
  ack-arena 0.14.1's change log: "fix PyTorchJob not supporting backoff limit".
  MPIJob ``v1alpha1`` (``gpus``, ``replicas``, one ``template``) is a different API from
  the v2beta1 MPIJob the chart renders.
"""

from __future__ import annotations

from trainstack.operators.spec import (
    AckAddonInstall,
    OperatorFamily,
    OperatorRelease,
    PodLabels,
    ServedApi,
)

_SPEC_LEVEL = frozenset(
    {
        "runPolicy.cleanPodPolicy",
        "runPolicy.activeDeadlineSeconds",
        "runPolicy.ttlSecondsAfterFinished",
    }
)
# kubeflow/common's labels, which both forks build on (not verified for these exact builds).
_LABELS = PodLabels(job="job-name", role="replica-type")


def _release(version: str, pytorch_backoff: bool) -> OperatorRelease:
    pytorch = _SPEC_LEVEL | ({"runPolicy.backoffLimit"} if pytorch_backoff else set())
    return OperatorRelease(
        family="arena",
        version=version,
        install=AckAddonInstall(name="ack-arena", version=version, namespace="arena-system"),
        serves=(
            ServedApi(
                crd="tfjobs.kubeflow.org",
                api_version="kubeflow.org/v1",
                kind="TFJob",
                dialect="arena",
                honours=_SPEC_LEVEL | {"runPolicy.backoffLimit", "tensorflow.successPolicy"},
                suspend=False,
                pod_labels=_LABELS,
            ),
            ServedApi(
                crd="pytorchjobs.kubeflow.org",
                api_version="kubeflow.org/v1",
                kind="PyTorchJob",
                dialect="arena",
                honours=frozenset(pytorch),
                suspend=False,
                pod_labels=_LABELS,
            ),
            ServedApi(
                crd="mpijobs.kubeflow.org",
                api_version="kubeflow.org/v1alpha1",
                kind="MPIJob",
                dialect=None,
                honours=frozenset(),
                suspend=False,
                pod_labels=PodLabels(job="mpi_job_name", role="mpi_role_type"),
            ),
        ),
        crds=("mpijobs.kubeflow.org", "tfjobs.kubeflow.org", "pytorchjobs.kubeflow.org"),
        schemas={
            ("kubeflow.org/v1", "TFJob"): "tfjob-v1-arena.json",
            ("kubeflow.org/v1", "PyTorchJob"): "pytorchjob-v1-arena.json",
            ("kubeflow.org/v1alpha1", "MPIJob"): "mpijob-v1alpha1-arena.json",
        },
        source=f"Alibaba Cloud documentation, ack-arena change log, {version}",
        unverified=(
            "the CRDs ack-arena installs are compared with kubeflow/arena's arena-artifacts "
            "CRDs (the add-on's own files are not public)",
            "the pod labels of the forked tf- and pytorch-operators (kubeflow/common's "
            "job-name and replica-type are assumed)",
        ),
    )


ACK_ARENA = OperatorFamily(
    key="arena",
    title="ACK ack-arena",
    summary="Arena's bundled tf-, pytorch- and mpi-operators (older APIs), ACK only",
    releases={
        "0.13.1": _release("0.13.1", pytorch_backoff=False),
        "0.14.1": _release("0.14.1", pytorch_backoff=True),
        "0.14.2": _release("0.14.2", pytorch_backoff=True),
    },
    ack_only=True,
)
