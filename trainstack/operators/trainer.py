"""Kubeflow Trainer v2: TrainJob ``trainer.kubeflow.org/v1alpha1`` (``framework: trainjob``).

Facts and sources (kubeflow/trainer at tag v2.3.0, commit 658725bdae5c7e3a0854d93ac6ff492e109a22ab,
"Kubeflow Trainer Official Release v2.3.0"; release page
https://github.com/kubeflow/trainer/releases/tag/v2.3.0; #3859 prepared it):

- Install: the project's official chart ``oci://ghcr.io/kubeflow/charts/kubeflow-trainer``
  (.github/workflows/publish-helm-charts.yaml line 67; CHANGELOG-2.3 lines 5-10: ``helm
  install kubeflow-trainer oci://ghcr.io/kubeflow/charts/kubeflow-trainer --namespace
  kubeflow-system --create-namespace --version 2.3.0``). Kubernetes 1.31 or newer (chart
  README line 16 at v2.3.0). Chart versions have no leading ``v``. From 2.3 the CRDs are
  chart templates (#3655). The chart depends on JobSet (chart 0.12.0 from
  oci://registry.k8s.io/jobset/charts, ``jobset.install``; Chart.yaml), which a TrainJob
  runs as.
- Images and hooks: the manager image is ``ghcr.io/kubeflow/trainer/trainer-controller-manager``
  with the chart version as tag (values.yaml lines 41-47, templates/_helpers.tpl lines
  72-99). The runtimes are applied by a post-install/post-upgrade hook Job
  (templates/runtimes/installer-job.yaml, #3655) whose container runs
  ``docker.io/alpine:3.21`` (values.yaml ``runtimes.installer.image``, lines 204-212)
  and first runs ``apk add --no-cache kubectl`` (line 54): it needs Docker Hub and an
  Alpine package mirror from inside the cluster, and a failed hook rolls back the whole
  (atomic) release. The pre-delete cleanup hook does the same (cleanup-job.yaml lines
  30, 46, 53).
- Runtimes: the chart ships ClusterTrainingRuntimes since 2.2.0 (#3124), off by default
  (values.yaml ``runtimes.defaultEnabled: false``, line 193; each ``runtimes.<name>.enabled:
  false``, lines 225-231), switched on per runtime or all with ``runtimes.defaultEnabled``.
  The catalog turns on ``runtimes.torchDistributed`` (runtime ``torch-distributed``) and
  ``runtimes.deepspeedDistributed`` (``deepspeed-distributed``, an MPI runtime: OpenMPI,
  launcher + nodes; files/runtimes/ at v2.3.0); ``mlx-distributed`` is the other MPI
  runtime. The 2.2/2.3 release notes install them with ``--set runtimes.defaultEnabled=true``.
- API (charts/kubeflow-trainer/templates/crd/trainer.kubeflow.org_trainjobs.yaml at
  v2.3.0): ``runtimeRef``, ``trainer`` (image, command, args, env, numNodes,
  numProcPerNode, resourcesPerNode), ``runtimePatches`` (2.2+, replacing
  ``podTemplateOverrides``: #3309, CHANGELOG-2.2 line 48 "Breaking Changes"),
  ``suspend``, ``activeDeadlineSeconds``, ``managedBy``; no run policy beyond the
  deadline. Kueue holds a TrainJob through ``spec.suspend`` (its
  ``trainer.kubeflow.org/trainjob`` integration, kubernetes-sigs/kueue#6597) and, from
  Kueue 0.17.0, writes ``runtimePatches`` (kubernetes-sigs/kueue#10127): which Kueue
  releases work with which Trainer releases is data in ``compatibility.py``.
  (kubernetes-sigs/kueue#14886, a setup-time check of the TrainJob CRD, is an open pull
  request, not Kueue's behaviour.)
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

from trainstack.operators.failure import JOB_BACKOFF_LIMIT, FailureFacts
from trainstack.operators.spec import (
    ChartInstall,
    Controller,
    OperatorFamily,
    OperatorRelease,
    PodLabels,
    Pull,
    ServedApi,
)

TRAINER_CHART_REPO = "oci://ghcr.io/kubeflow/charts"
TRAINJOBS = "trainjobs.trainer.kubeflow.org"
RUNTIME_VALUES = {
    "runtimes": {"torchDistributed": {"enabled": True}, "deepspeedDistributed": {"enabled": True}}
}
"""The runtimes the catalog installs with the chart (``framework: trainjob`` defaults to
torch-distributed)."""

_TRAINJOB_FAILURE = FailureFacts(
    runs={"*": "job"},
    default_restart="OnFailure",
    backoff_default=JOB_BACKOFF_LIMIT,
    deadline="job",
    sources=(
        "the Trainer chart's runtimes set no restartPolicy, backoffLimit or failurePolicy "
        "(charts/kubeflow-trainer/files/runtimes/*.yaml at v2.3.0): JobSet v0.12.0 defaults "
        "the pods' restartPolicy to OnFailure (pkg/webhooks/jobset_webhook.go:124-127) and "
        "fails the JobSet at its first failed Job without a failurePolicy (pkg/controllers/"
        "failure_policy.go:52-61), deleting its active Jobs (jobset_controller.go:162-166); "
        "the TrainJob's activeDeadlineSeconds fails it (kubeflow/trainer v2.3.0 pkg/"
        "controller/trainjob_controller.go:156-190); the preflight runs in the trainer's "
        "container, so its restarts are counted while the pod is Running",
    ),
)

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
    failure=_TRAINJOB_FAILURE,
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
            source="kubeflow/trainer v2.3.0 (tag commit 658725bd; #3859), "
            "charts/kubeflow-trainer at v2.3.0",
            unverified=(
                "the chart's OCI digest (not readable offline; the chart was read at the "
                "v2.3.0 tag, not from the published archive)",
                "the JobSet pod labels of a 2.3.0 TrainJob (JobSet's documented labels)",
            ),
            published="https://github.com/kubeflow/trainer/releases/tag/v2.3.0",
            pulls=(
                Pull(
                    what="controller image",
                    reference="ghcr.io/kubeflow/trainer/trainer-controller-manager:v2.3.0",
                    mirror="values.image",
                    source="charts/kubeflow-trainer/values.yaml lines 41-47 at v2.3.0",
                ),
                Pull(
                    what="runtime installer hook (post-install Job; runs `apk add "
                    "--no-cache kubectl`, so it also needs an Alpine package mirror)",
                    reference="docker.io/alpine:3.21",
                    mirror="values.runtimes.installer.image",
                    source="charts/kubeflow-trainer/templates/runtimes/installer-job.yaml "
                    "lines 28, 47, 54 at v2.3.0",
                ),
                Pull(
                    what="JobSet controller image (the bundled jobset chart 0.12.0)",
                    reference="registry.k8s.io/jobset/jobset:v0.12.0",
                    mirror="values.jobset",
                    source="charts/kubeflow-trainer/Chart.yaml at v2.3.0 (dependency "
                    "jobset 0.12.0 from oci://registry.k8s.io/jobset/charts)",
                    verified=False,
                ),
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
