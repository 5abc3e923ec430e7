"""The installers, built from minimal arguments: one resource per operator, under its parent."""

from __future__ import annotations

from typing import Any

import pulumi
from pulumi.output import Unknown

from components.installers import INSTALLERS, InstallContext, chart_location, mirror_transforms
from tests.components.minimal import ACK_CLUSTER, EXISTING_CLUSTER
from tests.components.mock_engine import Registered, build, provider
from trainstack.config.charts import ChartRef
from trainstack.config.operators import Operators


def _install(operators: dict[str, Any], cluster: Any = EXISTING_CLUSTER) -> Registered:
    """Each enabled operator installed (offline) under one parent, as TrainingOperators does."""
    enabled = Operators.model_validate(operators).enabled()

    def make() -> None:
        parent = pulumi.ComponentResource("test:index:Parent", "parent")
        context = InstallContext(cluster, provider(), "stacks/Pulumi.test.yaml", offline=True)
        for operator in enabled:
            kind = operator.release.install.kind
            INSTALLERS[kind](f"parent-{operator.key}", operator, context, parent)

    return build(make)[1]


def test_a_release_manifest_is_not_fetched_offline() -> None:
    registered = _install({"mpiOperator": {"version": "0.8.2", "manifestSha256": "ab" * 32}})
    group = registered.one("kubernetes:yaml/v2:ConfigGroup")
    assert group.name == "parent-mpiOperator"
    assert isinstance(group.inputs["yaml"], Unknown)  # downloaded and checked at deploy time
    assert group.parent == registered.one("test:index:Parent").urn
    assert group.provider.startswith(registered.named("cluster").urn)


def test_a_kustomize_overlay_is_the_projects_own_directory() -> None:
    registered = _install({"trainingOperator": {"version": "1.9.4"}})
    directory = registered.one("kubernetes:kustomize/v2:Directory")
    assert directory.inputs == {"directory": "./operators/training-operator/1.9.4"}


def test_a_chart_installs_the_catalog_values_under_the_stacks() -> None:
    registered = _install({"trainer": {"version": "2.3.0", "values": {"runtimes": {"x": {}}}}})
    release = registered.one("kubernetes:helm.sh/v3:Release")
    assert (release.name, release.inputs["name"], release.inputs["namespace"]) == (
        "parent-trainer",
        "kubeflow-trainer",
        "kubeflow-system",
    )
    assert (release.inputs["chart"], release.inputs["version"]) == (
        "oci://ghcr.io/kubeflow/charts/kubeflow-trainer",
        "2.3.0",
    )
    assert release.inputs["values"]["runtimes"] == {
        "torchDistributed": {"enabled": True},
        "deepspeedDistributed": {"enabled": True},
        "x": {},
    }
    assert (release.inputs["atomic"], release.inputs["createNamespace"]) == (True, True)


def test_an_ack_add_on_is_installed_by_ack_at_its_exact_version() -> None:
    registered = _install({"arena": {"version": "0.14.2"}}, cluster=ACK_CLUSTER)
    addon = registered.one("alicloud:cs/kubernetesAddon:KubernetesAddon")
    assert addon.inputs == {"clusterId": "c0123456789", "name": "ack-arena", "version": "0.14.2"}
    assert not addon.provider.startswith(registered.named("cluster").urn)


def test_a_chart_is_found_by_oci_reference_or_by_name_in_an_index() -> None:
    oci = ChartRef.model_validate(
        {"repo": "oci://ghcr.io/charts/", "name": "kueue", "version": "1.0.0"}
    )
    assert chart_location(oci) == ("oci://ghcr.io/charts/kueue", None)
    index = ChartRef.model_validate(
        {"repo": "https://charts.example.com", "name": "kueue", "version": "1.0.0"}
    )
    reference, repository = chart_location(index)
    assert reference == "kueue"
    assert repository is not None and repository.repo == "https://charts.example.com"


def test_mirrors_point_each_install_elsewhere() -> None:
    registered = _install(
        {
            "trainer": {"version": "2.3.0", "chartRepo": "oci://acr.example.com/charts"},
            "trainingOperator": {
                "version": "1.9.4",
                "kustomization": "./mirrors/training-operator",
            },
        }
    )
    release = registered.one("kubernetes:helm.sh/v3:Release")
    assert release.inputs["chart"] == "oci://acr.example.com/charts/kubeflow-trainer"
    directory = registered.one("kubernetes:kustomize/v2:Directory")
    assert directory.inputs == {"directory": "./mirrors/training-operator"}


def test_image_mirrors_rewrite_the_objects_an_install_creates() -> None:
    mirror = "registry-vpc.cn-beijing.aliyuncs.com/team/mpi-operator:0.8.2"
    settings = (
        Operators.model_validate(
            {
                "mpiOperator": {
                    "version": "0.8.2",
                    "manifestSha256": "ab" * 32,
                    "images": {"mpioperator/mpi-operator:0.8.2": mirror},
                }
            }
        )
        .enabled()[0]
        .settings
    )
    (transform,) = mirror_transforms(settings)
    props = {
        "spec": {
            "template": {
                "spec": {
                    "containers": [
                        {
                            "name": "mpi-operator",
                            "image": "docker.io/mpioperator/mpi-operator:0.8.2",
                        }
                    ]
                }
            }
        }
    }
    args = pulumi.ResourceTransformArgs(
        True, "kubernetes:apps/v1:Deployment", "mpi-operator", props, pulumi.ResourceOptions()
    )
    result = transform(args)
    assert result is not None
    assert result.props["spec"]["template"]["spec"]["containers"][0]["image"] == mirror
    assert (
        mirror_transforms(
            Operators.model_validate({"trainingOperator": {"version": "1.9.4"}})
            .enabled()[0]
            .settings
        )
        == []
    )


def _deployment(name: str, namespace: str, container: str) -> dict[str, Any]:
    return {
        "metadata": {"name": name, "namespace": namespace},
        "spec": {
            "template": {
                "spec": {
                    "containers": [
                        {
                            "name": container,
                            "image": "ghcr.io/kubeflow/training-v1/training-operator:v1-93c5489",
                            "command": ["/manager"],
                            "args": ["--enable-scheme=tfjob"],
                        }
                    ]
                }
            }
        },
    }


def test_a_mirror_of_an_image_the_controller_adds_is_passed_as_its_flag() -> None:
    """training-operator writes alpine:3.10 into PyTorch workers from a flag's default: no
    object of the install names it, so rewriting containers cannot mirror it."""
    mirror = "registry-vpc.cn-beijing.aliyuncs.com/team/alpine:3.10"
    (operator,) = Operators.model_validate(
        {"trainingOperator": {"version": "1.9.4", "images": {"alpine:3.10": mirror}}}
    ).enabled()
    (transform,) = mirror_transforms(operator.settings, operator.release)

    def transformed(kind: str, props: dict[str, Any]) -> dict[str, Any]:
        args = pulumi.ResourceTransformArgs(True, kind, "x", props, pulumi.ResourceOptions())
        result = transform(args)
        assert result is not None
        return dict(result.props)

    deployment = "kubernetes:apps/v1:Deployment"
    controller = transformed(
        deployment, _deployment("training-operator", "kubeflow", "training-operator")
    )
    (container,) = controller["spec"]["template"]["spec"]["containers"]
    assert container["args"] == [
        "--enable-scheme=tfjob",
        f"--pytorch-init-container-image={mirror}",
    ]
    # another Deployment, or the controller's in another namespace, keeps its args
    for name, namespace in (("webhook", "kubeflow"), ("training-operator", "other")):
        other = transformed(deployment, _deployment(name, namespace, "training-operator"))
        assert other["spec"]["template"]["spec"]["containers"][0]["args"] == [
            "--enable-scheme=tfjob"
        ]
    # without a mirror of it, the flag keeps its default
    (plain,) = Operators.model_validate(
        {
            "trainingOperator": {
                "version": "1.9.4",
                "images": {"ghcr.io/kubeflow/training-v1/training-operator:v1-93c5489": mirror},
            }
        }
    ).enabled()
    assert plain.release.controller_flags(plain.settings.mirrored) == []
