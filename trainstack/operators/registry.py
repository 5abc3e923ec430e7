"""The operator catalog: one family per stack key, one entry per release it knows.

Adding an operator (or a release of one) is one module with its facts and one line in
:data:`OPERATORS`, the explicit list (as Kueue's ``jobs.go`` lists its integrations); code
asks the catalog what an enabled operator installs, serves and honours instead of
branching on operator names. An unknown family or version is an error naming the known
ones.
"""

from __future__ import annotations

from collections.abc import Iterable

from trainstack.operators.ack_arena import ACK_ARENA
from trainstack.operators.compatibility import version_key
from trainstack.operators.kueue import KUEUE
from trainstack.operators.mpi_operator import MPI_OPERATOR
from trainstack.operators.spec import OperatorFamily, OperatorRelease
from trainstack.operators.trainer import TRAINER
from trainstack.operators.training_operator import TRAINING_OPERATOR

OPERATORS: tuple[OperatorFamily, ...] = (
    ACK_ARENA,
    KUEUE,
    MPI_OPERATOR,
    TRAINER,
    TRAINING_OPERATOR,
)
"""Every operator family the catalog knows, one entry each."""


def index(listed: Iterable[OperatorFamily]) -> dict[str, OperatorFamily]:
    """``listed`` by stack key (``mpiOperator``...); a key twice, or a release filed under
    another version or family, is an error naming it."""
    found: dict[str, OperatorFamily] = {}
    for family in listed:
        if family.key in found:
            raise ValueError(f"operator {family.key!r} is registered twice")
        for version, release in family.releases.items():
            if release.version != version or release.family != family.key:
                raise ValueError(f"{family.key} {version}: release registered under another name")
        found[family.key] = family
    return found


_FAMILIES = index(OPERATORS)


def families() -> tuple[OperatorFamily, ...]:
    """Every operator family, sorted by key."""
    return tuple(family for _, family in sorted(_FAMILIES.items()))


def family(key: str) -> OperatorFamily:
    """The family of ``key``; a KeyError names the known keys."""
    try:
        return _FAMILIES[key]
    except KeyError:
        raise KeyError(
            f"unknown operator {key!r} (known: {', '.join(sorted(_FAMILIES))})"
        ) from None


def release(key: str, version: str) -> OperatorRelease | None:
    """The catalog's release ``version`` of ``key``, if it has one."""
    return family(key).releases.get(version)


def known_versions(key: str) -> list[str]:
    """The versions the catalog has for ``key``, oldest first."""
    return sorted(family(key).releases, key=version_key)


def latest(key: str) -> OperatorRelease:
    """The newest release the catalog has for ``key``."""
    return family(key).releases[known_versions(key)[-1]]


def serving_families(crd: str, *, suspend: bool = False) -> list[OperatorRelease]:
    """The newest release of each family whose jobs of ``crd`` the chart can render.

    With ``suspend``, only those Kueue can hold (``runPolicy.suspend`` honoured). This is
    what a message offers as the fix when a stack's operator cannot serve a job.
    """
    found = []
    for candidate in families():
        newest = latest(candidate.key) if candidate.releases else None
        served = None if newest is None else newest.served(crd)
        if newest is not None and served is not None and served.dialect is not None:
            if served.suspend or not suspend:
                found.append(newest)
    return found
