"""Which releases of two families work together: data, checked for every stack.

A :class:`Requirement` says: while ``family`` is at a version in ``versions`` and ``needs``
is installed too (and, when ``queued`` names a CRD, Kueue queues jobs of that kind), then
``needs`` must be at a version in ``needs_versions``. The stack model refuses a pair that
breaks one, naming both keys and the releases of the catalog that work
(``trainstack.config.compatibility``). Which family owns which CRD is data of each release
(``OperatorRelease.crds``): two enabled families that install one CRD are refused too
(``trainstack.config.operators``); :data:`COEXISTENCE` records how the catalog's pairs
that share a kind avoid that.
"""

from __future__ import annotations

from dataclasses import dataclass

from trainstack.operators.mpi_operator import MPIJOBS
from trainstack.operators.trainer import TRAINJOBS


def version_key(version: str) -> tuple[int, ...]:
    """``"0.8.2"`` -> ``(0, 8, 2)`` (exact catalog versions only)."""
    return tuple(int(part) for part in version.lstrip("v").split("-")[0].split("."))


@dataclass(frozen=True)
class Versions:
    """A range of versions: at least ``at_least`` and below ``below`` (each optional)."""

    at_least: str | None = None
    below: str | None = None

    def __contains__(self, version: object) -> bool:
        if not isinstance(version, str):
            return False
        key = version_key(version)
        if self.at_least is not None and key < version_key(self.at_least):
            return False
        return self.below is None or key < version_key(self.below)

    def __str__(self) -> str:
        parts = [
            f">= {self.at_least}" if self.at_least else "",
            f"< {self.below}" if self.below else "",
        ]
        return ", ".join(part for part in parts if part) or "any version"


ANY = Versions()


@dataclass(frozen=True)
class Requirement:
    """While ``family`` is in ``versions`` (and ``needs`` is installed), ``needs`` must be
    in ``needs_versions``."""

    family: str
    versions: Versions
    needs: str
    needs_versions: Versions
    queued: str | None
    """A CRD: the rule holds only while Kueue queues jobs of that kind (its integration
    is on and an installed operator serves the kind with ``suspend``); ``None``: always."""
    reason: str
    """Why, with its sources."""


REQUIREMENTS: tuple[Requirement, ...] = (
    # Trainer 2.2 replaced TrainJob spec.podTemplateOverrides with spec.runtimePatches
    # (kubeflow/trainer#3309, 38d8243c; CHANGELOG-2.2 line 48, "Breaking Changes"); Kueue
    # writes runtimePatches from v0.17.0 (kubernetes-sigs/kueue#10127, 78361be7;
    # CHANGELOG-0.17 line 324) and podTemplateOverrides up to v0.16.x
    # (pkg/controller/jobs/trainjob/trainjob_controller.go lines 261-300 at v0.16.1). The
    # maintainers' answer to the mismatch: "You should either upgrade Trainer to v2.2.0 or
    # downgrade Kueue to v0.16.9" (kubernetes-sigs/kueue#11931).
    Requirement(
        family="trainer",
        versions=Versions(at_least="2.2.0"),
        needs="kueue",
        needs_versions=Versions(at_least="0.17.0"),
        queued=TRAINJOBS,
        reason="Trainer 2.2 and later read a TrainJob's spec.runtimePatches, which "
        "replaced spec.podTemplateOverrides (kubeflow/trainer#3309), and Kueue writes "
        "runtimePatches only from 0.17.0 (kubernetes-sigs/kueue#10127, #11931): an older "
        "Kueue's node selectors, tolerations and labels never reach the TrainJob's pods",
    ),
    Requirement(
        family="trainer",
        versions=Versions(below="2.2.0"),
        needs="kueue",
        needs_versions=Versions(below="0.17.0"),
        queued=TRAINJOBS,
        reason="Trainer before 2.2 has no spec.runtimePatches, which Kueue 0.17.0 and "
        "later write into every TrainJob it admits (kubernetes-sigs/kueue#10127; #11931: "
        '"kueue runtime patch not found")',
    ),
    # mpi-operator re-applies the launcher template's scheduling directives (node
    # selector, tolerations, labels, scheduling gates Kueue injects) to the launcher Job on
    # resume only from v0.8.0 (kubeflow/mpi-operator#772, c72caacf); Kueue documents the
    # minimum (site/content/en/docs/tasks/run/kubeflow/mpijobs.md lines 19-21, from v0.17.0:
    # "The minimum required MPI Operator version is v0.8.0").
    Requirement(
        family="kueue",
        versions=ANY,
        needs="mpiOperator",
        needs_versions=Versions(at_least="0.8.0"),
        queued=MPIJOBS,
        reason="before 0.8.0 mpi-operator does not pass the node selector, tolerations "
        "and scheduling gates Kueue assigns at admission to the launcher's Job "
        "(kubeflow/mpi-operator#772); Kueue's MPIJob guide requires v0.8.0 or later",
    ),
)
"""Every version rule between two families."""


@dataclass(frozen=True)
class Coexistence:
    """Two families that both know a job kind, and how the catalog lets them run together."""

    first: str
    second: str
    how: str


COEXISTENCE: tuple[Coexistence, ...] = (
    Coexistence(
        first="trainingOperator",
        second="mpiOperator",
        how="both know MPIJob (v1 and v2beta1), but a cluster holds one mpijobs.kubeflow.org "
        "CRD (kubeflow/trainer#1930): the catalog's training-operator overlays drop their "
        "mpijobs CRD and enable every scheme but mpijob (#1777), so mpi-operator owns it",
    ),
    Coexistence(
        first="arena",
        second="mpiOperator",
        how="never: ack-arena installs mpijobs.kubeflow.org (v1alpha1) and documents no "
        "switch to leave it out",
    ),
    Coexistence(
        first="arena",
        second="trainingOperator",
        how="never: ack-arena installs tfjobs and pytorchjobs.kubeflow.org with its own "
        "operators and documents no switch to leave them out",
    ),
)
"""Pairs that share a kind; whether they install the same CRD is read from ``crds``."""
