"""Kueue: job queueing (``trainstack:queueing``), installed from its official chart.

Facts and sources (kubernetes-sigs/kueue at each tag):

- Install: ``helm install kueue oci://registry.k8s.io/kueue/charts/kueue
  --version=<chart version> --namespace kueue-system --create-namespace``
  (site/content/en/docs/installation/_index.md line 70 at v0.16.1;
  site/content/en/docs/getting-started/installation.md line 73 at v0.18.6 and v0.19.2);
  chart versions have no leading ``v`` (site/hugo.toml ``chart_version = "0.19.2"``, line
  111 at v0.19.2); Kubernetes 1.29 or newer (line 36 at v0.16.1, line 39 at v0.19.2).
- Releases: https://github.com/kubernetes-sigs/kueue/releases/tag/v0.16.1 (tag commit
  5d4944e6b782a95a0858b858c082f2a869f4012a, "Prepare release v0.16.1 (#9105)",
  2026-02-11), v0.18.6 (4152c9bad956a361bb56b0f7994d492709835d96, 2026-08-20) and v0.19.2
  (8eab68778fc1b52affe165fdf5af29d1e9b4f3cb, 2026-08-20).
- Image: the release packaging (hack/helm-chart-package.sh lines 32-39 and 75 at v0.19.2)
  sets ``controllerManager.manager.image.repository`` to ``registry.k8s.io/kueue/kueue``
  and its tag to the release tag (values.yaml lines 47-51 at v0.19.2 hold the key).
- API: ``kueue.x-k8s.io/v1beta2`` is served from 0.15.0 (#7304, "Copy v1beta1 as
  v1beta2") and is the storage version from 0.16 (#8018); ``v1beta1`` is still served,
  deprecated, by every release through 0.19.2 (config/components/crd/bases at each tag).
  Its removal is planned, not released (#13957, an open proposal; #14558, merged on main
  after 0.19.2).
- Integrations for the chart's kinds: ``kubeflow.org/mpijob`` (mpi-operator v2beta1),
  ``kubeflow.org/tfjob`` and ``kubeflow.org/pytorchjob`` (training-operator v1),
  ``trainer.kubeflow.org/trainjob`` (#6597). 0.19.0 turns the training-operator v1
  integrations off by default and deprecates them (#12606; removal "tentatively v0.20",
  site/content/en/docs/tasks/run/kubeflow/pytorchjobs.md line 14 at v0.19.2): trainstack
  writes its own integration list, so they stay on.
- What it writes into a TrainJob: ``spec.podTemplateOverrides`` up to 0.16.x,
  ``spec.runtimePatches`` from 0.17.0 (#10127): see ``compatibility.py``.
"""

from __future__ import annotations

from trainstack.operators.spec import ChartInstall, OperatorFamily, OperatorRelease, Pull

KUEUE_CHART_REPO = "oci://registry.k8s.io/kueue/charts"
_RELEASES = "https://github.com/kubernetes-sigs/kueue/releases/tag/v{version}"
_SCHEMAS = {
    ("kueue.x-k8s.io/v1beta2", "ResourceFlavor"): "resourceflavor-v1beta2-kueue.json",
    ("kueue.x-k8s.io/v1beta2", "ClusterQueue"): "clusterqueue-v1beta2-kueue.json",
    ("kueue.x-k8s.io/v1beta2", "LocalQueue"): "localqueue-v1beta2-kueue.json",
}


def _release(version: str, commit: str) -> OperatorRelease:
    return OperatorRelease(
        family="kueue",
        version=version,
        install=ChartInstall(
            repo=KUEUE_CHART_REPO, name="kueue", version=version, namespace="kueue-system"
        ),
        serves=(),
        crds=(
            "resourceflavors.kueue.x-k8s.io",
            "clusterqueues.kueue.x-k8s.io",
            "localqueues.kueue.x-k8s.io",
            "workloads.kueue.x-k8s.io",
        ),
        schemas=_SCHEMAS,
        source=f"kubernetes-sigs/kueue v{version} (tag commit {commit[:8]}), installation docs",
        published=_RELEASES.format(version=version),
        pulls=(
            Pull(
                what="controller image",
                reference=f"registry.k8s.io/kueue/kueue:v{version}",
                mirror="values.controllerManager.manager.image",
                source=f"hack/helm-chart-package.sh at v{version}",
            ),
        ),
    )


KUEUE = OperatorFamily(
    key="kueue",
    title="Kueue",
    summary="job queueing: ClusterQueues, LocalQueues, ResourceFlavors (v1beta2)",
    releases={
        "0.16.1": _release("0.16.1", "5d4944e6b782a95a0858b858c082f2a869f4012a"),
        "0.18.6": _release("0.18.6", "4152c9bad956a361bb56b0f7994d492709835d96"),
        "0.19.2": _release("0.19.2", "8eab68778fc1b52affe165fdf5af29d1e9b4f3cb"),
    },
    stack_key="queueing",
)
