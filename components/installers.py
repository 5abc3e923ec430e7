"""How each kind of catalog install becomes Pulumi resources (children of the caller).

One function per install kind, chosen through ``INSTALLERS`` by the release's
``install.kind``; each creates exactly one resource. Not components of their own: an
operator is one resource, and the parent component (``TrainingOperators``) already
groups them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import pulumi
import pulumi_kubernetes as k8s
from pulumi.output import UNKNOWN

from components.clusters.registry import install_addon
from trainstack.config.charts import ChartRef
from trainstack.config.clusters.registry import Cluster
from trainstack.config.operators import EnabledOperator, OperatorSettings
from trainstack.core.images import with_images
from trainstack.core.values import merged
from trainstack.operators.fetch import fetch_manifest
from trainstack.operators.spec import (
    AckAddonInstall,
    ChartInstall,
    Controller,
    KustomizeInstall,
    ManifestInstall,
    OperatorRelease,
)


@dataclass(frozen=True)
class InstallContext:
    """What every installer needs: the cluster, its provider, where the stack is, the mode."""

    cluster: Cluster
    kubernetes: k8s.Provider
    source: str
    """The stack file (named by errors)."""
    offline: bool
    """The offline plan: nothing is downloaded; fetched content stays unknown."""


DEPLOYMENT = "kubernetes:apps/v1:Deployment"

Installer = Callable[[str, EnabledOperator, InstallContext, pulumi.Resource], pulumi.Output[Any]]
"""Creates the operator's resource; returns an output known once the operator is installed."""


def install_manifest(
    name: str, operator: EnabledOperator, context: InstallContext, parent: pulumi.Resource
) -> pulumi.Output[Any]:
    """The release manifest, downloaded and checked against its pinned sha256, applied whole."""
    install = operator.release.install
    assert isinstance(install, ManifestInstall)
    url = operator.settings.manifest_url or install.url
    sha256 = operator.settings.pinned_sha256(install)
    text: pulumi.Input[str]
    if context.offline:
        # Fetched at deploy time: the plan records url + version + digest instead.
        text = pulumi.Output.from_input(UNKNOWN)  # type: ignore[arg-type]
    else:
        assert sha256 is not None  # the stack model requires a pin; placeholders never deploy
        text = fetch_manifest(
            url,
            sha256,
            source=context.source,
            key=f"trainstack:operators.{operator.key}.manifestSha256",
        )
    group = k8s.yaml.v2.ConfigGroup(
        name,
        yaml=text,
        opts=pulumi.ResourceOptions(
            parent=parent,
            provider=context.kubernetes,
            transforms=mirror_transforms(operator.settings, operator.release),
        ),
    )
    return group.resources


def install_kustomize(
    name: str, operator: EnabledOperator, context: InstallContext, parent: pulumi.Resource
) -> pulumi.Output[Any]:
    """Our kustomization over the project's overlay (kustomize fetches the pinned base)."""
    install = operator.release.install
    assert isinstance(install, KustomizeInstall)
    directory = k8s.kustomize.v2.Directory(
        name,
        directory=operator.settings.kustomization or install.directory,
        opts=pulumi.ResourceOptions(
            parent=parent,
            provider=context.kubernetes,
            transforms=mirror_transforms(operator.settings, operator.release),
        ),
    )
    return directory.resources


def install_chart(
    name: str, operator: EnabledOperator, context: InstallContext, parent: pulumi.Resource
) -> pulumi.Output[Any]:
    """The project's chart at the pinned version, with the catalog's values under the stack's."""
    install = operator.release.install
    assert isinstance(install, ChartInstall)
    repo = operator.settings.chart_repo or install.repo
    release = helm_release(
        name,
        chart=ChartRef.model_validate(
            {"repo": repo, "name": install.name, "version": install.version}
        ),
        namespace=install.namespace,
        values=merged(install.values, operator.settings.values),
        release_name=install.name,
        opts=pulumi.ResourceOptions(parent=parent, provider=context.kubernetes),
    )
    return release.status


def install_ack_addon(
    name: str, operator: EnabledOperator, context: InstallContext, parent: pulumi.Resource
) -> pulumi.Output[Any]:
    """An ACK add-on at the pinned version, installed by the cluster's cloud."""
    install = operator.release.install
    assert isinstance(install, AckAddonInstall)
    addon = install_addon(
        name,
        context.cluster,
        addon=install.name,
        version=install.version,
        config=operator.settings.config,
        opts=pulumi.ResourceOptions(parent=parent),
    )
    return addon.id


def mirror_transforms(
    settings: OperatorSettings, release: OperatorRelease | None = None
) -> list[pulumi.ResourceTransform]:
    """The stack's image mirrors (``images``) applied to every object the install creates
    (the children of a ConfigGroup or a kustomize Directory), and to the flags of the
    release's controller that set images no object names; none without mirrors."""
    if not settings.images:
        return []
    flags = [] if release is None else release.controller_flags(settings.mirrored)
    controller = None if release is None else release.controller

    def mirror(args: pulumi.ResourceTransformArgs) -> pulumi.ResourceTransformResult | None:
        props = with_images(dict(args.props), settings.mirrored)
        if flags and controller is not None and args.type_ == DEPLOYMENT:
            props = with_controller_args(props, controller, flags)
        return pulumi.ResourceTransformResult(props=props, opts=args.opts)

    return [mirror]


def with_controller_args(
    props: dict[str, Any], controller: Controller, flags: list[str]
) -> dict[str, Any]:
    """``props`` (a Deployment) with ``flags`` after the args of the controller's container,
    when it is the controller's Deployment; else unchanged."""
    metadata = props.get("metadata") or {}
    if (metadata.get("name"), metadata.get("namespace")) != (
        controller.deployment,
        controller.namespace,
    ):
        return props
    template = (props.get("spec") or {}).get("template") or {}
    pod = template.get("spec") or {}
    containers = [
        {**c, "args": [*(c.get("args") or []), *flags]}
        if isinstance(c, dict) and c.get("name") == controller.container
        else c
        for c in pod.get("containers") or []
    ]
    spec = {**props["spec"], "template": {**template, "spec": {**pod, "containers": containers}}}
    return {**props, "spec": spec}


INSTALLERS: dict[str, Installer] = {
    "manifest": install_manifest,
    "kustomize": install_kustomize,
    "chart": install_chart,
    "ack-addon": install_ack_addon,
}


def helm_release(
    resource_name: str,
    *,
    chart: ChartRef,
    namespace: str,
    values: Mapping[str, Any],
    release_name: str,
    opts: pulumi.ResourceOptions,
) -> k8s.helm.v3.Release:
    """A ``helm.v3.Release`` of a remote chart, with a fixed release name and namespace."""
    reference, repository = chart_location(chart)
    return k8s.helm.v3.Release(
        resource_name,
        name=release_name,
        chart=reference,
        version=chart.version,
        repository_opts=repository,
        namespace=namespace,
        create_namespace=True,
        values=dict(values),
        # Roll back a failed upgrade instead of leaving a half-applied operator.
        atomic=True,
        opts=opts,
    )


def chart_location(chart: ChartRef) -> tuple[str, k8s.helm.v3.RepositoryOptsArgs | None]:
    """Helm's two addressing schemes: an OCI reference, or a name in an index repository."""
    if chart.repo.startswith("oci://"):
        return f"{chart.repo.rstrip('/')}/{chart.name}", None
    return chart.name, k8s.helm.v3.RepositoryOptsArgs(repo=chart.repo)
