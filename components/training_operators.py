"""TrainingOperators: each enabled operator of the catalog, installed from what its
project publishes (release manifest, kustomize overlay, chart or ACK add-on)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pulumi

from components.installers import INSTALLERS, InstallContext
from trainstack.config.operators import EnabledOperator, Operators
from trainstack.operators.spec import ChartInstall, KustomizeInstall, ManifestInstall


@dataclass(frozen=True)
class TrainingOperatorsArgs:
    """Which operators to install, and where (the cluster, its provider, the stack file)."""

    operators: Operators
    context: InstallContext


class TrainingOperators(pulumi.ComponentResource):
    """The enabled operators, one resource each.

    The component's inputs record, per operator, the catalog release and where it comes
    from (URL + digest, overlay + ref, chart + version, add-on + version), so the plan
    shows exactly what will be fetched at deploy time. Anything that creates jobs depends
    on this component, and a component completes only when all its children have, so the
    CRDs exist before the first job is submitted.
    """

    installed: pulumi.Output[list[str]]
    ready: pulumi.Output[bool]
    """Known once every operator is installed (its resources created): what waits for it
    waits for the CRDs."""

    def __init__(
        self, name: str, args: TrainingOperatorsArgs, opts: pulumi.ResourceOptions | None = None
    ) -> None:
        enabled = args.operators.enabled()
        super().__init__(
            "trainstack:operators:TrainingOperators",
            name,
            {operator.key: provenance(operator) for operator in enabled},
            opts,
        )
        done = [
            INSTALLERS[operator.release.install.kind](
                f"{name}-{operator.key}", operator, args.context, self
            )
            for operator in enabled
        ]
        self.installed = pulumi.Output.from_input(
            [f"{operator.key} {operator.release.version}" for operator in enabled]
        )
        self.ready = pulumi.Output.all(*done).apply(lambda _: True)
        self.register_outputs({"installed": self.installed, "ready": self.ready})


def provenance(operator: EnabledOperator) -> dict[str, Any]:
    """What is installed and from where, for the plan and the review."""
    install = operator.release.install
    record: dict[str, Any] = {
        "version": operator.release.version,
        "install": install.kind,
        "namespace": install.namespace,
        **install.provenance(),
    }
    settings = operator.settings
    if isinstance(install, ManifestInstall):  # the stack may pin the digest or a mirror
        record["url"] = settings.manifest_url or install.url
        record["sha256"] = settings.pinned_sha256(install)
    if isinstance(install, ChartInstall) and settings.chart_repo:
        record["chart"] = f"{settings.chart_repo}/{install.name}"
    if isinstance(install, KustomizeInstall) and settings.kustomization:
        record["kustomization"] = settings.kustomization
    if settings.images:
        record["images"] = dict(sorted(settings.images.items()))
    return record
