"""Kubeflow training-operator v1: TFJob and PyTorchJob ``kubeflow.org/v1``.

Facts and sources:

- Install: the project's kustomize overlay, as its documentation says
  (kubeflow.org/docs/components/training/installation: ``kubectl apply --server-side -k
  "github.com/kubeflow/training-operator.git/manifests/overlays/standalone?ref=v1.8.1"``;
  namespace ``kubeflow``). The project publishes no Helm chart. The repository was renamed
  kubeflow/trainer; its v1 releases keep the same overlay (release-1.9 branch, #2737).
- Beside mpi-operator: training-operator also serves MPIJob ``v1`` and its overlay
  installs a ``mpijobs.kubeflow.org`` CRD with v1 only, which cannot coexist with
  mpi-operator's v2beta1 CRD ("You can not install both MPIJob v1 and v2beta1 crds",
  kubeflow/trainer#1930). Upstream's way to run both: drop ``kubeflow.org_mpijobs.yaml``
  from the overlay and start the controller with every ``--enable-scheme`` except mpijob
  (kubeflow/trainer#1777, #1972, #2090 by the maintainers; kubernetes-sigs/kueue
  hack/multikueue-e2e-test.sh does exactly that). ``--enable-scheme`` is repeatable and
  case-insensitive; unset means every scheme (cmd/training-operator.v1/main.go). The
  trainstack overlay in ``operators/training-operator/<version>/`` does both, always: the
  chart renders MPIJob v2beta1 only, and MPIJob v1 is deprecated upstream (#1906).
- Releases: v1.8.1 (kubeflow/trainer#2258; the version the installation page pins) and
  v1.9.4 (kubeflow/trainer#3947, #3949). JAXJob is new in 1.9.
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
- Pod labels (pkg/controller.v1/common GenLabels and pod creation):
  ``training.kubeflow.org/job-name=<job>``,
  ``training.kubeflow.org/replica-type=<replica type, lower case>``.
"""

from __future__ import annotations

from trainstack.operators.spec import (
    Controller,
    KustomizeInstall,
    OperatorFamily,
    OperatorRelease,
    PodLabels,
    ServedApi,
)
from trainstack.training_job.settings import ALL_SETTINGS

TFJOBS = "tfjobs.kubeflow.org"
PYTORCHJOBS = "pytorchjobs.kubeflow.org"
_LABELS = PodLabels(job="training.kubeflow.org/job-name", role="training.kubeflow.org/replica-type")


def _served(crd: str, kind: str) -> ServedApi:
    return ServedApi(
        crd=crd,
        api_version="kubeflow.org/v1",
        kind=kind,
        dialect="kubeflow",
        honours=ALL_SETTINGS,
        suspend=True,
        pod_labels=_LABELS,
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
            (),
            "kubeflow/trainer v1.8.1 (#2258)",
            "kubeflow/training-operator:v1-04f9f13",
        ),
        "1.9.4": _release(
            "1.9.4",
            "trainer",
            ("jaxjobs.kubeflow.org",),
            "kubeflow/trainer v1.9.4 (#3947, #3949), release-1.9 branch",
            "ghcr.io/kubeflow/training-v1/training-operator:v1-93c5489",
        ),
    },
)
