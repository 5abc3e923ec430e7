"""Kueue: job queueing (``trainstack:queueing``), installed from its official chart.

Facts and sources: kubernetes-sigs/kueue site/content/en/docs/installation
(``helm install kueue oci://registry.k8s.io/kueue/charts/kueue --version=<chart version>
--namespace kueue-system``; chart versions have no leading ``v``; Kubernetes 1.29+).
0.16.1: kubernetes-sigs/kueue#9112. The ``kueue.x-k8s.io/v1beta2`` API is served since
0.15 (#8018); v1beta1 stops being served in 0.20 (#13957, #14558). Its integrations for
the chart's kinds: ``kubeflow.org/mpijob`` (mpi-operator v2beta1), ``kubeflow.org/tfjob``
and ``kubeflow.org/pytorchjob`` (training-operator v1).
"""

from __future__ import annotations

from trainstack.operators.spec import ChartInstall, OperatorFamily, OperatorRelease

KUEUE_CHART_REPO = "oci://registry.k8s.io/kueue/charts"

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
        ),
    },
)
