"""Kubeflow mpi-operator: MPIJob ``kubeflow.org/v2beta1`` (the chart's ``framework: mpi``).

Facts and sources:

- Install: the project's release manifest,
  ``https://raw.githubusercontent.com/kubeflow/mpi-operator/<tag>/deploy/v2beta1/mpi-operator.yaml``
  (README "Release Version", line 21 at release-0.8 b10758da: ``kubectl apply
  --server-side -f <that URL>``). It holds the Namespace ``mpi-operator``, the MPIJob CRD,
  RBAC and the Deployment ``mpi-operator`` (deploy/v2beta1/mpi-operator.yaml, header
  comment lines 1-8, Namespace lines 10-18). The project publishes no Helm chart. Its
  sha256 could not be read offline: the stack pins it (``manifestSha256``) and the program
  refuses a download that differs.
- Releases: v0.6.0 (https://github.com/kubeflow/mpi-operator/releases/tag/v0.6.0, tag
  commit c983759cfa87fd32ed5711804021ea47eb8d712c, 2024-10-16; #654, #665, #668; adds
  ``runPolicy.managedBy``, #650) and v0.8.2
  (https://github.com/kubeflow/mpi-operator/releases/tag/v0.8.2, released 2026-07-03:
  kubeflow/mpi-operator#820's closing comment; content = release-0.8
  b10758da23ce5d9b9efa6f42f7b050dc8605f5f5 "Prepare v0.8.2 (#826)").
- v0.8.1 was never released: RELEASE.md (master caa3c47f and release-0.8 b10758da, lines
  3-9): "This version was not out and the changes were shipped as the v0.8.2", and v0.8.2
  "is the same as v0.8.1" (PR #825 "Prepare v0.8.2"; #821 only prepared v0.8.1).
- Kueue and the launcher: from 0.8.0 the operator re-applies the launcher template's
  node selector, tolerations, labels and scheduling gates to the launcher Job when a
  suspended MPIJob is resumed (kubeflow/mpi-operator#772, c72caacf; "important for interop
  with Kueue"), and Kueue's docs require it: "The minimum required MPI Operator version is
  v0.8.0" (kubernetes-sigs/kueue site/content/en/docs/tasks/run/kubeflow/mpijobs.md
  lines 19-21, from Kueue v0.17.0). The rule is data: ``compatibility.py``.
- Image: built by .github/workflows/mpi-operator-docker-image-publish.yml on ``v*`` tags
  as ``mpioperator/mpi-operator:<version>`` (Makefile ``REGISTRY?=docker.io/mpioperator``);
  v0.6.0's manifest names ``mpioperator/mpi-operator:0.6.0`` (line 8655). What the v0.8.2
  tag's manifest names could not be read offline (release-0.8's says ``:0.8``, line 9204).
- API (pkg/apis/kubeflow/v2beta1/types.go): ``slotsPerWorker``, ``runLauncherAsWorker``,
  ``sshAuthMountPath``, ``launcherCreationPolicy``, ``mpiImplementation``
  (OpenMPI|Intel|MPICH), ``mpiReplicaSpecs`` (Launcher, Worker) and ``runPolicy``
  (cleanPodPolicy, ttlSecondsAfterFinished, activeDeadlineSeconds, backoffLimit,
  schedulingPolicy, suspend, managedBy): every setting the chart renders.
- Controller: Deployment ``mpi-operator`` in namespace ``mpi-operator``, container
  ``mpi-operator``, image ``mpioperator/mpi-operator:0.6.0`` at v0.6.0 (commit
  c983759cfa87fd32ed5711804021ea47eb8d712c, deploy/v2beta1/mpi-operator.yaml, the
  Deployment and its ``image:`` line 8655). 0.8.2's image is unverified (its tag is not in
  the stored snapshot); ``trainstack inspect`` reads the version from the image's tag then.
- Pod labels (pkg/apis/kubeflow/v2beta1/constants.go lines 42, 45; defaultLabels in
  pkg/controller/mpi_job_controller.go): ``training.kubeflow.org/job-name=<job>``,
  ``training.kubeflow.org/job-role=launcher|worker``.
"""

from __future__ import annotations

from trainstack.operators.failure import JOB_BACKOFF_LIMIT, FailureFacts
from trainstack.operators.spec import (
    Controller,
    ManifestInstall,
    OperatorFamily,
    OperatorRelease,
    PodLabels,
    Pull,
    ServedApi,
)
from trainstack.training_job.settings import ALL_SETTINGS

MPIJOBS = "mpijobs.kubeflow.org"
_MANIFEST = (
    "https://raw.githubusercontent.com/kubeflow/mpi-operator/{tag}/deploy/v2beta1/mpi-operator.yaml"
)
_RELEASES = "https://github.com/kubeflow/mpi-operator/releases/tag/{tag}"

_MPIJOB = ServedApi(
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
    # Workers run sshd, the launcher's mpirun reaches them over ssh (transports.py).
    transport="ssh",
    failure=FailureFacts(
        runs={"launcher": "job", "*": "pods"},
        never_fails_job=False,
        launcher_waits="launcherCreationPolicy",
        deadline="launcher",
        backoff_default=JOB_BACKOFF_LIMIT,
        kept=frozenset({"Running", "None"}),
        kept_when_suspended=frozenset({"Running"}),
        sources=(
            "kubeflow/mpi-operator b10758da (release-0.8, v0.8.2) pkg/controller/"
            "mpi_job_controller.go: the launcher is a batch Job with the job's backoffLimit "
            "and activeDeadlineSeconds (L1554-1570), its pods' restartPolicy the launcher's "
            "(L1645, L1722-1727); a worker pod is created once, never replaced (L1017-1021), "
            "and only an evicted one fails the job (L1142-1163); the launcher is created "
            "with the workers, or once they are Ready with WaitForWorkersReady (L677-679), "
            "but a job created suspended (Kueue) gets its launcher at once, resumed with "
            "the workers (L665-686; kubeflow/mpi-operator#868); a finished job deletes its "
            "workers unless cleanPodPolicy is None (L621-632, L1765-1769), and Running keeps "
            "the failed ones, also when suspended (L726-731, L1078-1084)",
        ),
    ),
)

_SCHEMAS = {("kubeflow.org/v2beta1", "MPIJob"): "mpijob-v2beta1.json"}


def _release(
    version: str, source: str, *, image_verified: bool, unverified: tuple[str, ...] = ()
) -> OperatorRelease:
    tag = f"v{version}"
    manifest_image = f"mpioperator/mpi-operator:{version}"
    image = Pull(
        what="controller image (the manifest's Deployment mpi-operator)",
        reference=f"docker.io/mpioperator/mpi-operator:{version}",
        mirror="images",
        source=f"deploy/v2beta1/mpi-operator.yaml at {tag}; image publishing workflow",
        verified=image_verified,
    )
    return OperatorRelease(
        family="mpiOperator",
        version=version,
        install=ManifestInstall(
            url=_MANIFEST.format(tag=tag), sha256=None, namespace="mpi-operator"
        ),
        serves=(_MPIJOB,),
        crds=(MPIJOBS,),
        schemas=_SCHEMAS,
        source=source,
        unverified=(
            "the release manifest's sha256 (not readable offline: pin it in the stack)",
            *unverified,
        ),
        published=_RELEASES.format(tag=tag),
        pulls=(image,),
        controller=Controller(
            "mpi-operator",
            "mpi-operator",
            "mpi-operator",
            manifest_image if image_verified else None,
        ),
    )


MPI_OPERATOR = OperatorFamily(
    key="mpiOperator",
    title="Kubeflow mpi-operator",
    summary="MPIJob kubeflow.org/v2beta1 (Horovod/AIACC over MPI)",
    releases={
        "0.6.0": _release(
            "0.6.0",
            "kubeflow/mpi-operator v0.6.0 (tag commit c983759c; #654, #665); managedBy from #650",
            image_verified=True,
        ),
        "0.8.2": _release(
            "0.8.2",
            "kubeflow/mpi-operator v0.8.2 (#825, #826, release issue #820; the same "
            "changes as the never-released v0.8.1, RELEASE.md)",
            image_verified=False,
            unverified=(
                "the commit of tag v0.8.2 and the image tag its manifest names (the tag "
                "is not in the stored snapshot; mpioperator/mpi-operator:0.8.2 is what "
                "the image workflow publishes for it)",
            ),
        ),
    },
    withdrawn={
        "0.8.1": "a released version: 0.8.1 was never released (kubeflow/mpi-operator "
        'RELEASE.md: "This version was not out and the changes were shipped as the '
        'v0.8.2"); use 0.8.2',
    },
)
