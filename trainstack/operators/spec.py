"""What the catalog knows about an operator release: how it installs, what it serves and honours.

Every entry is a fact with its source (the upstream release, file or documentation page)
in the docstring of the module that registers it. A fact that could not be verified
offline is recorded as such (``verified=False`` with the reason), and the plan says so.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from trainstack.operators.failure import FailureFacts
from trainstack.training_job.dialects import Dialect
from trainstack.training_job.transports import Transport


@dataclass(frozen=True)
class ManifestInstall:
    """The project's release manifest (one YAML file of every object), applied as it is.

    The program downloads ``url`` at deploy time, refuses it unless its sha256 is the
    pinned one, and applies it with ``kubernetes.yaml.v2.ConfigGroup``.
    """

    url: str
    sha256: str | None
    """The manifest's digest when it could be verified; ``None``: the stack must pin one."""
    namespace: str
    """The namespace the manifest creates for the controller (it ships its own Namespace)."""
    kind: Literal["manifest"] = "manifest"

    def provenance(self) -> dict[str, str | None]:
        """Where the objects come from, for the plan."""
        return {"url": self.url, "sha256": self.sha256}


@dataclass(frozen=True)
class KustomizeInstall:
    """A kustomization in this repository over the project's official overlay at a pinned ref.

    Applied with ``kubernetes.kustomize.v2.Directory``; kustomize fetches the remote base
    (``remote``) at deploy time. The local directory holds only our patches.
    """

    directory: str
    """Our kustomization, relative to the project root."""
    remote: str
    """The upstream overlay it builds on, as kustomize addresses it (``...?ref=<tag>``)."""
    namespace: str
    kind: Literal["kustomize"] = "kustomize"

    def provenance(self) -> dict[str, str | None]:
        """Where the objects come from, for the plan."""
        return {"kustomization": self.directory, "base": self.remote}


@dataclass(frozen=True)
class ChartInstall:
    """The project's official Helm chart, installed as a ``helm.v3.Release``."""

    repo: str
    name: str
    version: str
    namespace: str
    values: dict[str, Any] = field(default_factory=dict)
    """Values the catalog sets (e.g. the Trainer's runtimes); the stack's ``values`` are
    merged over them."""
    kind: Literal["chart"] = "chart"

    def provenance(self) -> dict[str, str | None]:
        """Where the objects come from, for the plan."""
        return {"chart": f"{self.repo}/{self.name}", "chartVersion": self.version}


@dataclass(frozen=True)
class AckAddonInstall:
    """An ACK cluster add-on, installed by ACK (``alicloud.cs.KubernetesAddon``)."""

    name: str
    version: str
    namespace: str
    kind: Literal["ack-addon"] = "ack-addon"

    def provenance(self) -> dict[str, str | None]:
        """Where the objects come from, for the plan."""
        return {"addon": self.name, "addonVersion": self.version}


Install = ManifestInstall | KustomizeInstall | ChartInstall | AckAddonInstall


@dataclass(frozen=True)
class PodLabels:
    """The labels the operator puts on a job's pods (how status and logs find them)."""

    job: str
    """Label whose value is the job's name."""
    role: str
    """Label whose value is the pod's role, lower case (``launcher``, ``worker``, ``master``)."""

    def selector(self, job: str, role: str | None = None) -> dict[str, str]:
        """Labels selecting the pods of ``job`` (of one ``role`` when given)."""
        labels = {self.job: job}
        if role is not None:
            labels[self.role] = role
        return labels


@dataclass(frozen=True)
class ServedApi:
    """One job API an operator release serves, and which of the chart's settings it honours."""

    crd: str
    """CustomResourceDefinition name, e.g. ``tfjobs.kubeflow.org``."""
    api_version: str
    kind: str
    dialect: Dialect | None
    """How the chart must spell jobs for it; ``None``: the chart cannot render this API."""
    honours: frozenset[str]
    """The chart settings that reach the controller (dotted value keys of
    ``trainstack.training_job.settings``)."""
    suspend: bool
    """``runPolicy.suspend`` exists and is honoured: Kueue can hold the job."""
    pod_labels: PodLabels
    transport: Transport | None = None
    """How an MPIJob's launcher starts its ranks on the workers (``ssh``, ``kubectl-exec``:
    ``trainstack.training_job.transports``); ``None`` for the other kinds."""
    failure: FailureFacts | None = None
    """How it ends a job whose pod fails (``trainstack.operators.failure``); ``None``: not
    read from its source (the plan says so)."""


@dataclass(frozen=True)
class Pull:
    """Something the release fetches from the network when it is deployed, besides the
    install itself (an image the cluster's nodes pull, a package a hook installs)."""

    what: str
    """What it is, e.g. ``controller image``."""
    reference: str
    """What is fetched, as upstream publishes it (``docker.io/alpine:3.21``)."""
    mirror: str
    """The key, under the family's stack key, that points it at a mirror
    (``values.runtimes.installer.image``, ``images``)."""
    source: str
    """Where the fact comes from (file at a tag, release notes)."""
    verified: bool = True
    """False: inferred, not read from the release (the plan says so)."""
    flag: str | None = None
    """The controller's flag that sets it, for an image no object of the install names (the
    controller writes it into the pods it creates, e.g. ``--pytorch-init-container-image``):
    a mirror of it in the stack's ``images`` reaches the controller as ``FLAG=MIRROR``."""


@dataclass(frozen=True)
class Controller:
    """The Deployment that runs a release's controller, as its install creates it (what
    ``trainstack inspect`` looks for, and how it tells the installed release)."""

    namespace: str
    deployment: str
    container: str
    """The controller's container in the Deployment's pod template."""
    image: str | None
    """The image the release's install sets; ``None``: not verified offline."""


@dataclass(frozen=True)
class OperatorRelease:
    """One release of one operator, as the catalog knows it."""

    family: str
    """The stack key that selects it (``mpiOperator``...)."""
    version: str
    install: Install
    serves: tuple[ServedApi, ...]
    crds: tuple[str, ...]
    """Every CRD this install creates (served or not): two owners of one CRD conflict."""
    schemas: dict[tuple[str, str], str]
    """(apiVersion, kind) -> the file holding its schema in a CRD schema directory (the
    layout of the reference ``crds/`` directory that ``--crd-dir`` points at)."""
    source: str
    """Where the facts come from (release, file, documentation page)."""
    unverified: tuple[str, ...] = field(default=())
    """Facts that could not be verified offline; the plan lists them."""
    published: str | None = None
    """The release page (or tag) it is published as; ``None`` only for releases a cloud
    publishes in its own change log (ACK add-ons)."""
    pulls: tuple[Pull, ...] = field(default=())
    """What its deployment fetches besides the install itself (images, hook packages)."""
    controller: Controller | None = None
    """Its controller's Deployment; ``None``: unknown (an ACK add-on's own workloads)."""

    def controller_flags(self, mirrored: Callable[[str], str]) -> list[str]:
        """``FLAG=MIRROR`` for each pull set by a controller flag that ``mirrored`` (the
        stack's ``images``) points elsewhere, in catalog order."""
        flags = []
        for pull in self.pulls:
            mirror = mirrored(pull.reference)
            if pull.flag is not None and mirror != pull.reference:
                flags.append(f"{pull.flag}={mirror}")
        return flags

    def served(self, crd: str) -> ServedApi | None:
        """The API this release serves for ``crd``, if any."""
        return next((api for api in self.serves if api.crd == crd), None)


@dataclass(frozen=True)
class OperatorFamily:
    """An operator, all the releases the catalog has for it, and what it is."""

    key: str
    title: str
    summary: str
    releases: dict[str, OperatorRelease]
    ack_only: bool = False
    """Only installable on ACK (an ACK add-on)."""
    withdrawn: dict[str, str] = field(default_factory=dict)
    """Versions a stack may name that were never published (or were pulled), each with why
    and which release to use instead: refused with that text."""
    stack_key: str = ""
    """Where a stack configures it (``queueing`` for Kueue); empty: ``operators.<key>``."""

    @property
    def configured_at(self) -> str:
        """The stack key (under ``trainstack:``) that configures the family."""
        return self.stack_key or f"operators.{self.key}"
