"""Training operators (mpi-operator, Kubeflow training-operator, Arena) as Helm releases.

Several of these charts install the same CustomResourceDefinitions; two owners of one
CRD fight over its schema and controllers race on the same jobs, so the configuration
refuses that and says which switch to flip.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import Field, model_validator

from trainstack.base_model import StrictModel, constraint
from trainstack.config.charts import HelmRelease

MPIJOBS = "mpijobs.kubeflow.org"
TFJOBS = "tfjobs.kubeflow.org"
PYTORCHJOBS = "pytorchjobs.kubeflow.org"

# CRDs each operator serves, with the API version its controller reconciles.
_MPI_OPERATOR_CRDS = {MPIJOBS: "kubeflow.org/v2beta1"}
_TRAINING_OPERATOR_CRDS = {
    TFJOBS: "kubeflow.org/v1",
    PYTORCHJOBS: "kubeflow.org/v1",
    MPIJOBS: "kubeflow.org/v1",
    "xgboostjobs.kubeflow.org": "kubeflow.org/v1",
    "paddlejobs.kubeflow.org": "kubeflow.org/v1",
    "jaxjobs.kubeflow.org": "kubeflow.org/v1",
}
# arena-artifacts bundles operators as sub-charts, each behind `<alias>.enabled` (default on).
_ARENA_SUBCHART_CRDS = {
    "mpi": (MPIJOBS, "kubeflow.org/v1alpha1"),
    "tf": (TFJOBS, "kubeflow.org/v1"),
    "pytorch": (PYTORCHJOBS, "kubeflow.org/v1"),
}


def _subchart_enabled(values: Mapping[str, Any], alias: str) -> bool:
    section = values.get(alias)
    if isinstance(section, Mapping) and section.get("enabled") is False:
        return False
    return True


class Operators(StrictModel):
    """The operators that run training jobs; each is an optional Helm release."""

    mpi_operator: HelmRelease | None = Field(
        default=None,
        description="Kubeflow mpi-operator (serves MPIJob `kubeflow.org/v2beta1`, which the "
        "training-job chart renders for `framework: mpi`).",
    )
    training_operator: HelmRelease | None = Field(
        default=None,
        description="Kubeflow training-operator v1 (serves TFJob and PyTorchJob `v1`, and its "
        "own MPIJob `v1`).",
    )
    arena: HelmRelease | None = Field(
        default=None,
        description="Arena's cluster side (`arena-artifacts` / `ack-arena`): bundles "
        "tf-operator, pytorch-operator and a forked mpi-operator as sub-charts, each switched "
        "by `values.<tf|pytorch|mpi>.enabled`.",
    )

    def served_crds(self) -> dict[str, tuple[str, str]]:
        """CRD name -> (operator key, API version served), for the enabled operators."""
        served: dict[str, tuple[str, str]] = {}
        for key, crds in self._enabled_crds():
            for crd, version in crds.items():
                served.setdefault(crd, (key, version))
        return served

    def _enabled_crds(self) -> list[tuple[str, dict[str, str]]]:
        owners: list[tuple[str, dict[str, str]]] = []
        if self.mpi_operator is not None and self.mpi_operator.enabled:
            owners.append(("mpiOperator", dict(_MPI_OPERATOR_CRDS)))
        if self.training_operator is not None and self.training_operator.enabled:
            owners.append(("trainingOperator", dict(_TRAINING_OPERATOR_CRDS)))
        if self.arena is not None and self.arena.enabled:
            owners.append(
                (
                    "arena",
                    {
                        crd: version
                        for alias, (crd, version) in _ARENA_SUBCHART_CRDS.items()
                        if _subchart_enabled(self.arena.values, alias)
                    },
                )
            )
        return owners

    @model_validator(mode="after")
    def _one_owner_per_crd(self) -> Operators:
        owners = self._enabled_crds()
        for position, (second, crds) in enumerate(owners):
            for first, earlier in owners[:position]:
                shared = sorted(set(crds) & set(earlier))
                if shared:
                    raise self._conflict(shared, first, second)
        return self

    def _conflict(self, crds: list[str], first: str, second: str) -> Exception:
        """The error for two enabled operators that both install ``crds``."""
        both = f"both install {', '.join(crds)}"
        if second == "arena":
            assert self.arena is not None
            aliases = [a for a, (crd, _) in _ARENA_SUBCHART_CRDS.items() if crd in crds]
            switches = " and ".join(f"values.{alias}.enabled: false" for alias in aliases)
            section = self.arena.values.get(aliases[0])
            found = (
                section.get("enabled", "unset (chart default: true)")
                if isinstance(section, Mapping)
                else "unset (chart default: true)"
            )
            return constraint(
                f"arena.values.{aliases[0]}.enabled",
                found,
                f"{switches} on arena while {first} is enabled: {both}",
            )
        return constraint(
            f"{second}.enabled",
            True,
            f"false while {first} is enabled: {both}; enable only one "
            "(the training-job chart's MPIJob v2beta1 needs mpiOperator)",
        )
