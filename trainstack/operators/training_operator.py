"""Kubeflow training-operator v1: TFJob and PyTorchJob ``kubeflow.org/v1``.

Facts and sources (kubeflow/trainer, the renamed repository, at tags v1.8.1 =
0f8735faade3651dfe44e45c6fbc30fa9152641d and v1.9.4 = 4445c12aa62e4345b0c2c6ac9b215a70eca46ed7):

- Install: the project's kustomize overlay, as its documentation says
  (kubeflow.org/docs/components/training/installation: ``kubectl apply --server-side -k
  "github.com/kubeflow/training-operator.git/manifests/overlays/standalone?ref=v1.8.1"``;
  manifests/overlays/standalone/kustomization.yaml: namespace ``kubeflow``). The project
  publishes no Helm chart. Its v1 releases keep the same overlay (release-1.9 branch, #2737).
- CRDs (manifests/base/crds/kustomization.yaml): at v1.8.1 tfjobs, mxjobs, pytorchjobs,
  xgboostjobs, mpijobs, paddlejobs; at v1.9.4 tfjobs, pytorchjobs, xgboostjobs, mpijobs,
  paddlejobs, jaxjobs (MXJob removed in 1.9, JAXJob new).
- Webhooks (manifests/base/webhook/manifests.yaml): one validating path per kind, all
  ``failurePolicy: Fail`` (v1.8.1: ``/validate-kubeflow-org-v1-mxjob`` line 13, paddlejob,
  pytorchjob, tfjob, xgboostjob; none for mpijob). A path is served only for an enabled
  scheme (cmd/training-operator.v1/main.go lines 196-219 at v1.8.1: each enabled scheme
  sets up its reconciler, then its webhook), so every kind whose CRD stays must be an
  enabled scheme, or its create/update/delete is refused by an unserved webhook.
- Beside mpi-operator: the overlay installs a ``mpijobs.kubeflow.org`` CRD with v1 only,
  which cannot coexist with mpi-operator's v2beta1 CRD ("You can not install both MPIJob
  v1 and v2beta1 crds", kubeflow/trainer#1930), and the controller serves MPIJob v1 unless
  told otherwise ("two launchers", #1777). Upstream's way to run both: drop
  ``kubeflow.org_mpijobs.yaml`` from the overlay and start the controller with every
  ``--enable-scheme`` except mpijob (#1777, #1972, #2090 by the maintainers; Kueue's e2e
  set-up does exactly that: kubernetes-sigs/kueue v0.16.1 hack/e2e-common.sh lines
  293-296 with test/e2e/config/multikueue/patch_crds.yaml and patch_deployment.yaml).
  ``--enable-scheme`` is repeatable; unset means every scheme (main.go lines 89-90,
  196-197); it is case-insensitive (pkg/controller.v1/register_controller.go lines
  64-73). The trainstack overlay in ``operators/training-operator/<version>/`` does both,
  always: the chart renders MPIJob v2beta1 only, and MPIJob v1 is deprecated upstream
  (#1906). Which families own which CRDs is data (``crds``), checked for every stack.
- Releases: v1.8.1 (https://github.com/kubeflow/trainer/releases/tag/v1.8.1, #2258; the
  version the installation page pins) and v1.9.4
  (https://github.com/kubeflow/trainer/releases/tag/v1.9.4, #3947, #3949).
- Images: ``kubeflow/training-operator:v1-04f9f13`` at v1.8.1 and
  ``ghcr.io/kubeflow/training-v1/training-operator:v1-93c5489`` at v1.9.4 (the standalone
  overlay's ``images: newTag``; Deployment ``training-operator``).
- API (pkg/apis/kubeflow.org/v1): ``runPolicy`` with cleanPodPolicy,
  ttlSecondsAfterFinished, activeDeadlineSeconds, backoffLimit, schedulingPolicy and
  ``suspend`` (kubeflow/trainer#1859, since 1.7); TFJob ``successPolicy``; PyTorchJob
  spec-level ``nprocPerNode`` and ``elasticPolicy``: every setting the chart renders.
- Controller: Deployment ``training-operator`` (manifests/base/deployment.yaml) in the
  overlay's namespace ``kubeflow``, container ``training-operator``; the overlay sets its
  image (manifests/overlays/standalone/kustomization.yaml ``images``):
  ``kubeflow/training-operator:v1-04f9f13`` at v1.8.1 (commit
  0f8735faade3651dfe44e45c6fbc30fa9152641d), ``ghcr.io/kubeflow/training-v1/
  training-operator:v1-93c5489`` at v1.9.4 (commit 4445c12aa62e4345b0c2c6ac9b215a70eca46ed7).
  trainstack's overlays leave the image alone.
- PyTorch workers' init container: the controller adds ``init-pytorch`` (a loop of
  ``nslookup`` of the master) to every worker of a PyTorchJob that has a Master
  (pkg/controller.v1/pytorch/initcontainer.go lines 35-46 and 105-135 at v1.8.1 and
  v1.9.4), in the image of its flag ``--pytorch-init-container-image`` whose default is
  ``alpine:3.10`` (cmd/training-operator.v1/main.go line 98 at v1.8.1, lines 104-105 at
  v1.9.4; pkg/config/config.go line 28 at both). No object of the install names that
  image, so a mirror of it in the stack's ``images`` is passed as that flag.
- Pod labels (pkg/controller.v1/common GenLabels and pod creation):
  ``training.kubeflow.org/job-name=<job>``,
  ``training.kubeflow.org/replica-type=<replica type, lower case>``.
"""

from __future__ import annotations

from trainstack.operators.failure import FailureFacts
from trainstack.operators.spec import (
    Controller,
    KustomizeInstall,
    OperatorFamily,
    OperatorRelease,
    PodLabels,
    Pull,
    ServedApi,
)
from trainstack.training_job.settings import ALL_SETTINGS

TFJOBS = "tfjobs.kubeflow.org"
PYTORCHJOBS = "pytorchjobs.kubeflow.org"
_LABELS = PodLabels(job="training.kubeflow.org/job-name", role="training.kubeflow.org/replica-type")


_FAILURE = FailureFacts(
    runs={"*": "pods"},
    deadline="job",
    kept=frozenset({"Running", "None"}),
    sources=(
        "kubeflow/trainer v1.9.4 (4445c12a): backoffLimit counts the restarts of Running "
        "pods only, none without a limit (pkg/core/job.go:95-133); activeDeadlineSeconds "
        "from the job's start fails it (pkg/core/job.go:82-91, pkg/controller.v1/common/"
        "job.go:211-213); a replica failed with restartPolicy Never fails the job (pkg/"
        "controller.v1/tensorflow/tfjob_controller.go:485-515, pytorch/pytorchjob_"
        "controller.go:428-442), OnFailure and retryable ExitCode pods are deleted and "
        "made again (pkg/controller.v1/common/pod.go:339-366, an exit code of a container "
        "that never ran is 0xbeef: retryable); a finished job keeps failed pods with "
        "cleanPodPolicy Running or None, a suspended one keeps none (pkg/controller.v1/"
        "common/job.go:41-66, 167-170)",
    ),
)


def _served(crd: str, kind: str) -> ServedApi:
    return ServedApi(
        crd=crd,
        api_version="kubeflow.org/v1",
        kind=kind,
        dialect="kubeflow",
        honours=ALL_SETTINGS,
        suspend=True,
        pod_labels=_LABELS,
        failure=_FAILURE,
    )


def _release(
    version: str, repository: str, extra_crds: tuple[str, ...], source: str, image: str
) -> OperatorRelease:
    return OperatorRelease(
        family="trainingOperator",
        version=version,
        install=KustomizeInstall(
            directory=f"./operators/training-operator/{version}",
            remote=f"https://github.com/kubeflow/{repository}//manifests/overlays/standalone"
            f"?ref=v{version}",
            namespace="kubeflow",
        ),
        serves=(_served(TFJOBS, "TFJob"), _served(PYTORCHJOBS, "PyTorchJob")),
        crds=(
            TFJOBS,
            PYTORCHJOBS,
            "xgboostjobs.kubeflow.org",
            "paddlejobs.kubeflow.org",
            *extra_crds,
        ),
        schemas={
            ("kubeflow.org/v1", "TFJob"): "tfjob-v1.json",
            ("kubeflow.org/v1", "PyTorchJob"): "pytorchjob-v1.json",
        },
        source=source,
        unverified=(f"the commit of tag v{version} (kustomize fetches the overlay by tag)",),
        published=f"https://github.com/kubeflow/trainer/releases/tag/v{version}",
        pulls=(
            Pull(
                what="controller image (Deployment training-operator)",
                reference=image,
                mirror="images",
                source=f"manifests/overlays/standalone/kustomization.yaml at v{version}",
            ),
            Pull(
                what="init container init-pytorch of PyTorchJob workers (added by the "
                "controller; its flag --pytorch-init-container-image)",
                reference="docker.io/alpine:3.10",
                mirror="images",
                source=f"pkg/config/config.go line 28 and pkg/controller.v1/pytorch/"
                f"initcontainer.go lines 35-46, 105-135 at v{version}",
                flag="--pytorch-init-container-image",
            ),
        ),
        controller=Controller("kubeflow", "training-operator", "training-operator", image),
    )


TRAINING_OPERATOR = OperatorFamily(
    key="trainingOperator",
    title="Kubeflow training-operator v1",
    summary="TFJob and PyTorchJob kubeflow.org/v1 (its MPIJob v1 switched off)",
    releases={
        "1.8.1": _release(
            "1.8.1",
            "training-operator",
            ("mxjobs.kubeflow.org",),
            "kubeflow/trainer v1.8.1 (tag commit 0f8735fa; #2258)",
            "docker.io/kubeflow/training-operator:v1-04f9f13",
        ),
        "1.9.4": _release(
            "1.9.4",
            "trainer",
            ("jaxjobs.kubeflow.org",),
            "kubeflow/trainer v1.9.4 (tag commit 4445c12a; #3947, #3949), release-1.9 branch",
            "ghcr.io/kubeflow/training-v1/training-operator:v1-93c5489",
        ),
    },
)
