"""Kubeflow mpi-operator: MPIJob ``kubeflow.org/v2beta1`` (the chart's ``framework: mpi``).

Facts and sources:

- Install: the project's release manifest,
  ``https://raw.githubusercontent.com/kubeflow/mpi-operator/<tag>/deploy/v2beta1/mpi-operator.yaml``
  (README, "Release Version": ``kubectl apply --server-side -f <that URL>``). It holds the
  Namespace ``mpi-operator``, the MPIJob CRD, RBAC and the Deployment ``mpi-operator``
  (deploy/v2beta1/mpi-operator.yaml, header comment and objects). The project publishes no
  Helm chart. Its sha256 could not be read offline: the stack pins it
  (``manifestSha256``) and the program refuses a download that differs.
- Releases: v0.6.0 (2024-10-16; kubeflow/mpi-operator#654, #665, #668; adds
  ``runPolicy.managedBy``, #650) and v0.8.1 (kubeflow/mpi-operator#821; README "Release
  Version" at the time). Kueue requires v0.8.0 or later for queued MPIJobs: older releases
  do not pass Kueue's scheduling directives to the launcher's Job and pods
  (kubernetes-sigs/kueue#9330, fixing #3400).
- API (pkg/apis/kubeflow/v2beta1/types.go): ``slotsPerWorker``, ``runLauncherAsWorker``,
  ``sshAuthMountPath``, ``launcherCreationPolicy``, ``mpiImplementation``
  (OpenMPI|Intel|MPICH), ``mpiReplicaSpecs`` (Launcher, Worker) and ``runPolicy``
  (cleanPodPolicy, ttlSecondsAfterFinished, activeDeadlineSeconds, backoffLimit,
  schedulingPolicy, suspend, managedBy): every setting the chart renders.
- Pod labels (pkg/apis/kubeflow/v2beta1/constants.go, defaultLabels in
  pkg/controller/mpi_job_controller.go; README selects the launcher with them):
  ``training.kubeflow.org/job-name=<job>``, ``training.kubeflow.org/job-role=launcher|worker``.
"""

from __future__ import annotations

from trainstack.operators.spec import (
    ManifestInstall,
    OperatorFamily,
    OperatorRelease,
    PodLabels,
    ServedApi,
)
from trainstack.training_job.settings import ALL_SETTINGS

MPIJOBS = "mpijobs.kubeflow.org"
_MANIFEST = (
    "https://raw.githubusercontent.com/kubeflow/mpi-operator/{tag}/deploy/v2beta1/mpi-operator.yaml"
)


def _mpijob(queue_caveat: str | None = None) -> ServedApi:
    return ServedApi(
        crd=MPIJOBS,
        api_version="kubeflow.org/v2beta1",
        kind="MPIJob",
        dialect="kubeflow",
        # No successPolicy or nprocPerNode in an MPIJob: the chart never renders them for MPI.
        honours=ALL_SETTINGS,
        suspend=True,
        pod_labels=PodLabels(
            job="training.kubeflow.org/job-name", role="training.kubeflow.org/job-role"
        ),
        queue_caveat=queue_caveat,
        # Workers run sshd, the launcher's mpirun reaches them over ssh (transports.py).
        transport="ssh",
    )


_SCHEMAS = {("kubeflow.org/v2beta1", "MPIJob"): "mpijob-v2beta1.json"}


def _release(version: str, source: str, served: ServedApi) -> OperatorRelease:
    return OperatorRelease(
        family="mpiOperator",
        version=version,
        install=ManifestInstall(
            url=_MANIFEST.format(tag=f"v{version}"), sha256=None, namespace="mpi-operator"
        ),
        serves=(served,),
        crds=(MPIJOBS,),
        schemas=_SCHEMAS,
        source=source,
        unverified=("the release manifest's sha256 (not readable offline: pin it in the stack)",),
    )


MPI_OPERATOR = OperatorFamily(
    key="mpiOperator",
    title="Kubeflow mpi-operator",
    summary="MPIJob kubeflow.org/v2beta1 (Horovod/AIACC over MPI)",
    releases={
        "0.6.0": _release(
            "0.6.0",
            "kubeflow/mpi-operator v0.6.0 (#654, #665); managedBy from #650",
            _mpijob(
                "mpi-operator before 0.8.0 does not pass the node selectors and "
                "annotations Kueue assigns at admission to the launcher's Job and pod "
                "(kubernetes-sigs/kueue#9330): the launcher may land outside the "
                "admitted flavor; use mpiOperator 0.8.1"
            ),
        ),
        "0.8.1": _release("0.8.1", "kubeflow/mpi-operator v0.8.1 (#821)", _mpijob()),
    },
)
