"""The framework registry: one entry per value of ``job.framework``, listed in FRAMEWORKS.

Adding a framework means its package (``frameworks/<name>/``, whose ``__init__.py`` holds
its ``SPEC``), one line here, its chart template and its tests; nothing else asks
``framework == ...``. An unknown
name is an error naming it and the known ones, never another framework's ``else``.
"""

from __future__ import annotations

from trainstack.training_job.frameworks import mpi, pytorch, tensorflow, trainjob
from trainstack.training_job.frameworks.spec import FrameworkSpec

FRAMEWORKS: tuple[FrameworkSpec, ...] = (mpi.SPEC, tensorflow.SPEC, pytorch.SPEC, trainjob.SPEC)
"""Every framework, in the order the chart's documentation lists them."""

_BY_NAME = {spec.name: spec for spec in FRAMEWORKS}


def framework(name: str) -> FrameworkSpec:
    """The spec of ``name``; a KeyError names the registered frameworks."""
    try:
        return _BY_NAME[name]
    except KeyError:
        known = ", ".join(sorted(_BY_NAME))
        raise KeyError(f"unknown framework {name!r} (registered: {known})") from None


def frameworks() -> tuple[FrameworkSpec, ...]:
    """Every registered framework, sorted by name (a stable order for rendered config)."""
    return tuple(spec for _, spec in sorted(_BY_NAME.items()))


def by_crd(crd: str) -> FrameworkSpec | None:
    """The framework whose job objects are ``crd`` (``tfjobs.kubeflow.org``), if any."""
    return next((spec for spec in FRAMEWORKS if spec.crd == crd), None)
