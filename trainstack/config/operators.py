"""The training operators a stack installs: a catalog release each, pinned by version.

What an operator installs, serves and honours comes from the catalog
(``trainstack/operators/``), not from this file: the stack only picks releases (and, for
a release manifest, pins its digest or names a mirror). Two enabled operators that
install the same CRD are refused, with the switch to flip: two owners of one CRD fight
over its schema and their controllers race on the same jobs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any

from pydantic import Field, StringConstraints, model_validator

from trainstack.core.base_model import StrictModel, constraint
from trainstack.core.images import normalized
from trainstack.core.names import PLACEHOLDER_PATTERN, ChartRepo, PinnedVersion, RelativeDirectory
from trainstack.operators.registry import family as operator_family
from trainstack.operators.registry import known_versions
from trainstack.operators.registry import release as catalog_release
from trainstack.operators.spec import ManifestInstall, OperatorRelease, ServedApi

Sha256 = Annotated[str, StringConstraints(pattern=rf"^([0-9a-f]{{64}}|{PLACEHOLDER_PATTERN})$")]
HttpsUrl = Annotated[str, StringConstraints(pattern=r"^https://[^\s]+$", max_length=2048)]
ImageReference = Annotated[
    str, StringConstraints(pattern=r"^[a-z0-9][^\s@]*(@sha256:[0-9a-f]{64})?$", max_length=512)
]


class OperatorSettings(StrictModel):
    """One operator of the catalog, at one of the versions the catalog knows."""

    enabled: bool = Field(default=True, description="Install this operator.")
    version: PinnedVersion = Field(
        description="Exact release, one the catalog knows (`trainstack operators` lists "
        "them), e.g. `0.8.2`."
    )
    manifest_sha256: Sha256 | None = Field(
        default=None,
        description="Release-manifest installs: the sha256 of the manifest, checked at "
        "deploy time before anything is applied (`curl -fsSL <url> | sha256sum`). Required "
        "unless the catalog knows it.",
    )
    manifest_url: HttpsUrl | None = Field(
        default=None,
        description="Release-manifest installs: a mirror of the official manifest (e.g. an "
        "OSS bucket reachable from the cluster's region); its content must have the pinned "
        "digest. Unset: the project's own URL.",
    )
    images: dict[ImageReference, ImageReference] = Field(
        default_factory=dict,
        description="Release-manifest and kustomize installs: image mirrors, each image the "
        "release deploys (`trainstack operators` lists them; `docker.io/` may be left out) "
        "mapped to a copy in a registry the cluster reaches, e.g. `docker.io/mpioperator/"
        "mpi-operator:0.8.2: registry-vpc.cn-beijing.aliyuncs.com/team/mpi-operator:0.8.2`; "
        "the containers are rewritten before anything is applied.",
    )
    chart_repo: ChartRepo | None = Field(
        default=None,
        description="Helm chart installs: a mirror of the chart's repository holding the same "
        "chart and version (an `oci://` registry or an `https://` index, e.g. in the "
        "cluster's region). Unset: the project's own.",
    )
    kustomization: RelativeDirectory | None = Field(
        default=None,
        description="Kustomize installs: a kustomization of your own to apply instead of the "
        "catalog's, e.g. `./mirrors/training-operator`: a copy of "
        "`operators/<operator>/<version>/` whose `resources:` names a mirror of the upstream "
        "overlay (kustomize fetches it at deploy time).",
    )
    config: dict[str, Any] = Field(
        default_factory=dict,
        description="ACK add-on installs: the add-on's configuration (JSON, per add-on).",
    )
    values: dict[str, Any] = Field(
        default_factory=dict,
        description="Helm chart installs: values for the chart (its image keys point its "
        "images at a mirror; `trainstack plan` lists them).",
    )

    def _check_against(self, key: str) -> None:
        """Refuse versions and settings the catalog's release for ``key`` has no use for."""
        found = catalog_release(key, self.version)
        withdrawn = operator_family(key).withdrawn.get(self.version)
        if found is None and withdrawn is not None:
            raise constraint("version", self.version, withdrawn)
        if found is None:
            title = operator_family(key).title
            raise constraint(
                "version",
                self.version,
                f"a version the catalog knows for {title}: {', '.join(known_versions(key))}",
            )
        kind = found.install.kind
        misplaced = [
            (name, value, wanted)
            for name, value, wanted in (
                ("manifestSha256", self.manifest_sha256, ("manifest",)),
                ("manifestUrl", self.manifest_url, ("manifest",)),
                ("images", self.images, ("manifest", "kustomize")),
                ("chartRepo", self.chart_repo, ("chart",)),
                ("kustomization", self.kustomization, ("kustomize",)),
                ("config", self.config, ("ack-addon",)),
                ("values", self.values, ("chart",)),
            )
            if value and kind not in wanted
        ]
        for name, value, wanted in misplaced:
            raise constraint(
                name,
                value,
                f"nothing: {key} {self.version} installs from a {kind}, and {name} is for "
                f"{' and '.join(wanted)} installs",
            )
        install = found.install
        if not isinstance(install, ManifestInstall):
            return
        if install.sha256 is None and self.manifest_sha256 is None:
            raise constraint(
                "manifestSha256",
                None,
                f"the sha256 of {install.url} (`curl -fsSL <url> | sha256sum`, checked "
                "against the release), or a placeholder such as `<sha256 of the release "
                "manifest>` until you have it: the catalog could not verify it offline",
            )
        if install.sha256 and self.manifest_sha256 and self.manifest_sha256 != install.sha256:
            raise constraint(
                "manifestSha256",
                self.manifest_sha256,
                f"{install.sha256}, the digest of {install.url} (or leave it unset)",
            )

    def pinned_sha256(self, install: ManifestInstall) -> str | None:
        """The digest a downloaded manifest must have (the stack's, else the catalog's)."""
        return self.manifest_sha256 or install.sha256

    def mirrored(self, image: str) -> str:
        """``image`` as the cluster pulls it: its mirror in ``images``, else itself."""
        mirrors = {normalized(upstream): mirror for upstream, mirror in self.images.items()}
        return mirrors.get(normalized(image), image)


@dataclass(frozen=True)
class EnabledOperator:
    """An enabled operator of a stack: its stack key, settings and catalog release."""

    key: str
    settings: OperatorSettings
    release: OperatorRelease

    @property
    def label(self) -> str:
        """``operators.<key> (<title> <version>)`` for messages."""
        return f"operators.{self.key} ({operator_family(self.key).title} {self.release.version})"


class Operators(StrictModel):
    """The operators that run training jobs (releases of the catalog)."""

    mpi_operator: OperatorSettings | None = Field(
        default=None,
        description="Kubeflow mpi-operator: serves MPIJob `kubeflow.org/v2beta1` (the chart's "
        "`framework: mpi`; ranks over ssh: the image needs sshd). Installed from its release "
        "manifest (digest pinned).",
    )
    training_operator: OperatorSettings | None = Field(
        default=None,
        description="Kubeflow training-operator v1: serves TFJob and PyTorchJob "
        "`kubeflow.org/v1`. Installed from its kustomize overlay with its own MPIJob v1 "
        "switched off, so that it runs beside mpiOperator.",
    )
    trainer: OperatorSettings | None = Field(
        default=None,
        description="Kubeflow Trainer v2: serves TrainJob `trainer.kubeflow.org/v1alpha1` (the "
        "chart's `framework: trainjob`). Installed from its official chart "
        "`oci://ghcr.io/kubeflow/charts/kubeflow-trainer` with the torch-distributed and "
        "deepspeed-distributed runtimes (`values` adds to the chart's values).",
    )
    arena: OperatorSettings | None = Field(
        default=None,
        description="ACK's `ack-arena` add-on (ACK only): Arena's bundled tf-, pytorch- and "
        "mpi-operators, with older APIs (run policy under `spec`, no `suspend`, no "
        "`seccompProfile`; MPIJob `kubeflow.org/v1alpha1`, ranks through `kubectl exec`). "
        "It owns mpijobs, tfjobs and pytorchjobs.",
    )

    @model_validator(mode="after")
    def _known_releases(self) -> Operators:
        for key, settings in self._configured():
            try:
                settings._check_against(key)
            except Exception as error:  # re-raised at the operator's own key
                raise _nested(key, error) from None
        return self

    @model_validator(mode="after")
    def _one_owner_per_crd(self) -> Operators:
        enabled = self.enabled()
        for position, second in enumerate(enabled):
            for first in enabled[:position]:
                shared = sorted(set(first.release.crds) & set(second.release.crds))
                if shared:
                    raise constraint(
                        f"{second.key}.enabled",
                        True,
                        f"false while operators.{first.key} is enabled: both install "
                        f"{', '.join(shared)} and no coexistence is documented for "
                        f"{second.label}; {_one_owner_fix(first.key, second.key)}",
                    )
        return self

    def _configured(self) -> list[tuple[str, OperatorSettings]]:
        return [
            (field.alias or name, value)
            for name, field in type(self).model_fields.items()
            if isinstance(value := getattr(self, name), OperatorSettings)
        ]

    def enabled(self) -> list[EnabledOperator]:
        """The enabled operators with their catalog releases, in declaration order."""
        found = []
        for key, settings in self._configured():
            release = catalog_release(key, settings.version)
            if settings.enabled and release is not None:
                found.append(EnabledOperator(key, settings, release))
        return found

    def serving(self, crd: str) -> tuple[EnabledOperator, ServedApi] | None:
        """The enabled operator that serves ``crd`` and the API it serves, if any."""
        for operator in self.enabled():
            served = operator.release.served(crd)
            if served is not None:
                return operator, served
        return None


def _nested(key: str, error: Exception) -> Exception:
    """``error`` raised by a field's own check, moved to ``<key>.<field>``."""
    context = getattr(error, "context", None)
    if isinstance(context, dict) and "field" in context:
        return constraint(f"{key}.{context['field']}", context["found"], context["allowed"])
    return error


def _one_owner_fix(first: str, second: str) -> str:
    if "arena" in (first, second):
        other = second if first == "arena" else first
        return (
            "ack-arena's operators cannot be switched off: serve the jobs with "
            f"operators.{other} alone (set operators.arena.enabled: false), or with arena alone"
        )
    return f"enable operators.{first} or operators.{second}, not both"
