"""Kubeflow Trainer v2: TrainJob ``trainer.kubeflow.org/v1alpha1`` (``framework: trainjob``).

Facts and sources:

- Install: the project's official chart ``oci://ghcr.io/kubeflow/charts/kubeflow-trainer``
  (kubeflow.org "Kubeflow Trainer > Operator guides > Installation": ``helm install
  kubeflow-trainer oci://ghcr.io/kubeflow/charts/kubeflow-trainer --namespace
  kubeflow-system --create-namespace --version <X.Y.Z>``; Kubernetes 1.31+ there, 1.29+ in
  the chart's README). Chart versions have no leading ``v``. 2.3.0: kubeflow/trainer
  #3859 ("Prepare Release v2.3.0", the release of the reference CRDs, commit 658725b);
  from 2.3 the CRDs are chart templates (#3655). The chart depends on JobSet (chart
  0.12.0, ``jobset.install``), which a TrainJob runs as.
- Runtimes: the chart ships ClusterTrainingRuntimes since 2.2.0 (#3124), off by default
  ("Runtimes are disabled by default"; README), switched on per runtime with
  ``runtimes.<name>.enabled`` or all with ``runtimes.defaultEnabled``. The catalog turns on
  ``runtimes.torchDistributed`` (runtime ``torch-distributed``) and
  ``runtimes.deepspeedDistributed`` (``deepspeed-distributed``, an MPI runtime: OpenMPI,
  launcher + nodes); ``mlx-distributed`` is the other MPI runtime. The 2.2/2.3 release
  notes install them with ``--set runtimes.defaultEnabled=true``.
- API (trainer.kubeflow.org_trainjobs.yaml of v2.3.0): ``runtimeRef``, ``trainer``
  (image, command, args, env, numNodes, numProcPerNode, resourcesPerNode),
  ``runtimePatches`` (2.2+, replacing ``podTemplateOverrides``: #3309), ``suspend``,
  ``activeDeadlineSeconds``, ``managedBy``; no run policy beyond the deadline. Kueue
  holds a TrainJob through ``spec.suspend`` (its ``trainer.kubeflow.org/trainjob``
  integration, kubernetes-sigs/kueue#6597; Kueue needs runtimePatches, so Trainer 2.2+,
  kubernetes-sigs/kueue#14886).
- Controller: the Deployment ``<fullname>-controller-manager`` (charts/kubeflow-trainer/
  templates/manager/_helpers.tpl, ``trainer.manager.name``), container ``manager``
  (templates/manager/deployment.yaml), at v2.3.0 (commit
  658725bdae5c7e3a0854d93ac6ff492e109a22ab); the release trainstack installs is named after
  the chart, so ``<fullname>`` is ``kubeflow-trainer`` (templates/_helpers.tpl,
  ``trainer.fullname``). Image: ``ghcr.io/kubeflow/trainer/trainer-controller-manager``
  (values.yaml ``image.registry``, ``image.repository``) tagged ``v`` + the chart's version
  when ``image.tag`` is empty (templates/_helpers.tpl ``trainer.defaultImageTag``).
- Pods: JobSet's labels ``jobset.sigs.k8s.io/jobset-name`` (the TrainJob's name) and
  ``jobset.sigs.k8s.io/replicatedjob-name`` (``node``, ``launcher``).
"""

from __future__ import annotations

from trainstack.operators.spec import (
    ChartInstall,
    Controller,
    OperatorFamily,
    OperatorRelease,
    PodLabels,
    ServedApi,
)

TRAINER_CHART_REPO = "oci://ghcr.io/kubeflow/charts"
TRAINJOBS = "trainjobs.trainer.kubeflow.org"
RUNTIME_VALUES = {
    "runtimes": {"torchDistributed": {"enabled": True}, "deepspeedDistributed": {"enabled": True}}
}
"""The runtimes the catalog installs with the chart (``framework: trainjob`` defaults to
torch-distributed)."""

_TRAINJOB = ServedApi(
    crd=TRAINJOBS,
    api_version="trainer.kubeflow.org/v1alpha1",
    kind="TrainJob",
    dialect="kubeflow",
    honours=frozenset({"runPolicy.activeDeadlineSeconds", "security.seccompProfile"}),
    suspend=True,
    pod_labels=PodLabels(
        job="jobset.sigs.k8s.io/jobset-name", role="jobset.sigs.k8s.io/replicatedjob-name"
    ),
)

TRAINER = OperatorFamily(
    key="trainer",
    title="Kubeflow Trainer v2",
    summary="TrainJob trainer.kubeflow.org/v1alpha1 on ClusterTrainingRuntimes (JobSet)",
    releases={
        "2.3.0": OperatorRelease(
            family="trainer",
            version="2.3.0",
            install=ChartInstall(
                repo=TRAINER_CHART_REPO,
                name="kubeflow-trainer",
                version="2.3.0",
                namespace="kubeflow-system",
                values=RUNTIME_VALUES,
            ),
            serves=(_TRAINJOB,),
            crds=(
                TRAINJOBS,
                "trainingruntimes.trainer.kubeflow.org",
                "clustertrainingruntimes.trainer.kubeflow.org",
                "jobsets.jobset.x-k8s.io",
            ),
            schemas={
                ("trainer.kubeflow.org/v1alpha1", "TrainJob"): "trainjob-v1alpha1-trainer.json",
            },
            source="kubeflow/trainer v2.3.0 (#3859), charts/kubeflow-trainer, kubeflow.org "
            "Trainer installation guide",
            unverified=(
                "the runtimes the 2.3.0 chart archive ships and their values keys "
                "(read from the chart on the branch after 2.3.0 and the 2.2.0/2.3.0 "
                "release notes, not from the published archive)",
                "the chart's OCI digest (not readable offline)",
                "the JobSet pod labels of a 2.3.0 TrainJob (JobSet's documented labels)",
            ),
            controller=Controller(
                "kubeflow-system",
                "kubeflow-trainer-controller-manager",
                "manager",
                "ghcr.io/kubeflow/trainer/trainer-controller-manager:v2.3.0",
            ),
        ),
    },
)
