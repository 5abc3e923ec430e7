"""Kueue: job queueing (``trainstack:queueing``), installed from its official chart.

Facts and sources: kubernetes-sigs/kueue site/content/en/docs/installation
(``helm install kueue oci://registry.k8s.io/kueue/charts/kueue --version=<chart version>
--namespace kueue-system``; chart versions have no leading ``v``; Kubernetes 1.29+).
0.16.1: kubernetes-sigs/kueue#9112. The ``kueue.x-k8s.io/v1beta2`` API is served since
0.15 (#8018); v1beta1 stops being served in 0.20 (#13957, #14558). Its integrations for
the chart's kinds: ``kubeflow.org/mpijob`` (mpi-operator v2beta1), ``kubeflow.org/tfjob``
and ``kubeflow.org/pytorchjob`` (training-operator v1).

The chart's objects (kubernetes-sigs/kueue v0.16.1, commit
5d4944e6b782a95a0858b858c082f2a869f4012a): the Deployment ``<fullname>-controller-manager``
with its container ``manager`` (charts/kueue/templates/manager/manager.yaml L20, L61), the
ConfigMap ``<fullname>-manager-config`` holding ``controller_manager_config.yaml``
(templates/manager/manager-config.yaml L20, L25), both in the release's namespace;
``<fullname>`` is the release name when it contains ``kueue``, else ``<release>-kueue``
(templates/_helpers.tpl, ``kueue.fullname``). The released chart's image is
``registry.k8s.io/kueue/kueue:v<version>`` (hack/helm-chart-package.sh sets the repository
to ``registry.k8s.io/kueue`` + ``/kueue`` and the tag to the git tag for released versions).
"""

from __future__ import annotations

from trainstack.operators.spec import ChartInstall, Controller, OperatorFamily, OperatorRelease

KUEUE_CHART_REPO = "oci://registry.k8s.io/kueue/charts"
KUEUE_CONFIG_KEY = "controller_manager_config.yaml"
"""The key of Kueue's configuration in its manager's ConfigMap."""


def kueue_fullname(release_name: str) -> str:
    """The chart's ``kueue.fullname`` for a release (no name override set)."""
    return release_name if "kueue" in release_name else f"{release_name}-kueue"


KUEUE = OperatorFamily(
    key="kueue",
    title="Kueue",
    summary="job queueing: ClusterQueues, LocalQueues, ResourceFlavors (v1beta2)",
    releases={
        "0.16.1": OperatorRelease(
            family="kueue",
            version="0.16.1",
            install=ChartInstall(
                repo=KUEUE_CHART_REPO, name="kueue", version="0.16.1", namespace="kueue-system"
            ),
            serves=(),
            crds=(
                "resourceflavors.kueue.x-k8s.io",
                "clusterqueues.kueue.x-k8s.io",
                "localqueues.kueue.x-k8s.io",
                "workloads.kueue.x-k8s.io",
            ),
            schemas={
                (
                    "kueue.x-k8s.io/v1beta2",
                    "ResourceFlavor",
                ): "resourceflavor-v1beta2-kueue.json",
                ("kueue.x-k8s.io/v1beta2", "ClusterQueue"): "clusterqueue-v1beta2-kueue.json",
                ("kueue.x-k8s.io/v1beta2", "LocalQueue"): "localqueue-v1beta2-kueue.json",
            },
            source="kubernetes-sigs/kueue v0.16.1 (#9112), installation docs",
            controller=Controller(
                "kueue-system",
                "kueue-controller-manager",
                "manager",
                "registry.k8s.io/kueue/kueue:v0.16.1",
            ),
        ),
    },
)
