"""ACK's ``ack-arena``: Arena's cluster side with its own forks of the Kubeflow operators.

Facts and sources:

- Install: the ACK component ``ack-arena`` (Alibaba Cloud documentation, "ack-arena",
  cloud-native AI suite > product overview, with its change log), installed by ACK:
  ``alicloud.cs.KubernetesAddon`` with an exact version. ACK only (ACK Pro clusters,
  Kubernetes 1.18 or later). Versions documented there: 0.13.1 (2025-01-13), 0.14.1
  (2025-02-24) and 0.14.2 (2025-03-10), the dates of Arena's own releases v0.14.1 and
  v0.14.2 (kubeflow/arena CHANGELOG.md:153,162); 0.15.x is upstream Arena's chart
  (``arena-artifacts`` 0.15.3 in kubeflow/arena), not an ACK component version.
- It bundles, in namespace ``arena-system``, a tf-operator fork (AliyunContainerService/
  tf-operator), pytorch-operator (kubeflow/pytorch-operator) and an mpi-operator fork
  (AliyunContainerService/mpi-operator, MPIJob ``v1alpha1``; kubeflow/arena
  arena-artifacts/values.yaml: ``acs/mpi-operator:aliyun-03b5e76``, run with
  ``--kubectl-delivery-image``, arena-artifacts/charts/mpi-operator/templates/
  operator-dp.yaml), with their CRDs. At the Arena tags of these releases (v0.13.1 to
  v0.14.2) the CRDs are ``arena-artifacts/all_crds/v1/<operator>/kubeflow.org_*_v1.yaml``
  (``install.sh`` copies them to ``arena-artifacts/crds/`` at install time, v0.14.2
  install.sh:200-208); ``arena-artifacts/crds/`` itself exists only from v0.15.3
  (kubeflow/arena deef4785c29c3c0433133272cad24075fa9bb6d1). The MPIJob CRD is the same at
  v0.14.2 and v0.15.5. The add-on documents no switch to leave one operator out: it owns
  ``mpijobs``, ``tfjobs`` and ``pytorchjobs`` whatever else the stack installs.
- Their APIs are older than upstream's: TFJob and PyTorchJob ``v1`` keep
  cleanPodPolicy, backoffLimit, activeDeadlineSeconds and ttlSecondsAfterFinished
  directly under ``spec`` (no ``runPolicy``, no ``suspend``: Kueue cannot hold them), and
  their pod templates have no ``seccompProfile``; PyTorchJob has no ``nprocPerNode``.
  The PyTorchJob CRD has ``spec.backoffLimit`` from 0.13.1 on (v0.13.1
  all_crds/v1/pytorch-operator/kubeflow.org_pytorchjobs_v1.yaml:55) and the operator
  honours it (kubeflow/pytorch-operator 9bd2307fa2d12e46844c0fbabf717297edb82c3c,
  pkg/controller.v1/pytorch/controller.go:410-427); 0.14.1's change log entry "fix
  PyTorchJob not supporting backoff limit" is Arena's client chart (kubeflow/arena
  23e9731b52bd29b563a43f17ee44d4dd7cf066c9, PR #1272), not the operator.
- MPIJob ``v1alpha1`` (``spec.replicas``, ``gpus``, ``backoffLimit``, ``cleanPodPolicy``,
  ``mountsOnLauncher``, ``launcherResources``, one ``template``; the CRD above): the chart
  renders it with ``operatorApi: arena``; the launcher starts the ranks through ``kubectl
  exec``, the workers run ``sleep 365d`` (``trainstack.training_job.transports``).
- Pod labels: the mpi-operator fork's ``mpi_job_name``/``mpi_role_type``
  (AliyunContainerService/mpi-operator d40ff84155fbcd6f2cbf8e49714e00b963e8b059,
  pkg/controllers/mpi_job_controller.go:71-73, 901-905, 986-990); the tf-operator fork's
  ``tf-job-name``/``tf-replica-type`` (AliyunContainerService/tf-operator
  c36c43433bccfa740b1dec5e0e7cd4091d08fd27, pkg/controller.v1/tensorflow/controller.go:
  55-59, pod.go:178-183); pytorch-operator's ``pytorch-job-name``/``pytorch-replica-type``
  (kubeflow/pytorch-operator 9bd2307, pkg/controller.v1/pytorch/controller.go:55-58,
  pod.go:157-159). Each replica type is written lower case (``worker``, ``master``).
"""

from __future__ import annotations

from trainstack.operators.failure import JOB_BACKOFF_LIMIT, FailureFacts
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
        "runPolicy.backoffLimit",
        "runPolicy.activeDeadlineSeconds",
        "runPolicy.ttlSecondsAfterFinished",
    }
)
# MPIJob v1alpha1's spec: backoffLimit and cleanPodPolicy, no time limits (the CRD above).
_MPIJOB_V1ALPHA1 = frozenset({"runPolicy.cleanPodPolicy", "runPolicy.backoffLimit"})
_FORK = "AliyunContainerService/mpi-operator d40ff84, pkg/controllers/mpi_job_controller.go"
_MPI_FAILURE = FailureFacts(
    runs={"launcher": "job", "*": "statefulset"},
    launcher_waits="always",
    backoff_default=JOB_BACKOFF_LIMIT,
    kept=frozenset({"None"}),
    sources=(
        f"{_FORK}: the workers are a StatefulSet, restartPolicy Always (L914-917); the "
        "launcher, a batch Job of the template's restartPolicy Never, else OnFailure "
        "(L1092-1095), with the job's backoffLimit, 6 when unset (L954-958, L1136-1139), "
        "is created once every worker is Ready (L461-467); the job is done once the "
        "launcher succeeded or failed once (L425), and then its workers are scaled to 0 "
        "unless cleanPodPolicy is None (L531-540); no deadline (its CRD)",
    ),
)


def _older_operator(source: str) -> FailureFacts:
    """The older tf- and pytorch-operators: they count the restarts of Pending pods too,
    with a backoffLimit only."""
    return FailureFacts(
        runs={"*": "pods"},
        pending_restarts_counted=True,
        deadline="job",
        kept=frozenset({"Running", "None"}),
        sources=(source,),
    )


_TF_FAILURE = _older_operator(
    "AliyunContainerService/tf-operator c36c434, pkg/controller.v1/tensorflow/: backoffLimit "
    "counts the restarts of Pending and Running pods, none without a limit (controller.go:"
    "398-411, 555-591), activeDeadlineSeconds fails the job (controller.go:418-425, "
    "594-604), a replica failed with restartPolicy Never fails it (status.go:134-155); "
    "Running keeps failed pods, None every pod (job.go:172-186)"
)
_PYTORCH_FAILURE = _older_operator(
    "kubeflow/pytorch-operator 9bd2307, pkg/controller.v1/pytorch/: backoffLimit counts the "
    "restarts of Pending and Running pods, none without a limit (controller.go:412-425, "
    "528-561), activeDeadlineSeconds fails the job (controller.go:432-434, 567-577), a "
    "replica failed with restartPolicy Never fails it (status.go:126-146); Running keeps "
    "failed pods, None every pod (job.go:156-174)"
)


def _release(version: str) -> OperatorRelease:
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
                honours=_SPEC_LEVEL | {"tensorflow.successPolicy"},
                suspend=False,
                pod_labels=PodLabels(job="tf-job-name", role="tf-replica-type"),
                failure=_TF_FAILURE,
            ),
            ServedApi(
                crd="pytorchjobs.kubeflow.org",
                api_version="kubeflow.org/v1",
                kind="PyTorchJob",
                dialect="arena",
                honours=_SPEC_LEVEL,
                suspend=False,
                pod_labels=PodLabels(job="pytorch-job-name", role="pytorch-replica-type"),
                failure=_PYTORCH_FAILURE,
            ),
            ServedApi(
                crd="mpijobs.kubeflow.org",
                api_version="kubeflow.org/v1alpha1",
                kind="MPIJob",
                dialect="arena",
                honours=_MPIJOB_V1ALPHA1,
                suspend=False,
                pod_labels=PodLabels(job="mpi_job_name", role="mpi_role_type"),
                transport="kubectl-exec",
                failure=_MPI_FAILURE,
            ),
        ),
        crds=("mpijobs.kubeflow.org", "tfjobs.kubeflow.org", "pytorchjobs.kubeflow.org"),
        schemas={
            ("kubeflow.org/v1", "TFJob"): "tfjob-v1-arena.json",
            ("kubeflow.org/v1", "PyTorchJob"): "pytorchjob-v1-arena.json",
            ("kubeflow.org/v1alpha1", "MPIJob"): "mpijob-v1alpha1-arena.json",
        },
        source=f"Alibaba Cloud documentation, ack-arena change log, {version}; kubeflow/arena "
        "arena-artifacts at the matching tag",
        unverified=(
            "the CRDs ack-arena installs are compared with kubeflow/arena's arena-artifacts "
            "CRDs (the add-on's own files are not public)",
            "the operator builds ack-arena runs (acs/mpi-operator:aliyun-03b5e76, the "
            "tf- and pytorch-operator images) are not in the forks' public branches; their "
            "pod labels and kubectl-exec transport are read from those branches",
        ),
    )


ACK_ARENA = OperatorFamily(
    key="arena",
    title="ACK ack-arena",
    summary="Arena's bundled tf-, pytorch- and mpi-operators (older APIs; MPIJob v1alpha1 "
    "over kubectl exec), ACK only",
    releases={version: _release(version) for version in ("0.13.1", "0.14.1", "0.14.2")},
    ack_only=True,
)
