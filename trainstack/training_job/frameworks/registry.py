"""The framework registry: one entry per value of ``job.framework``.

Adding a framework means one module registering its :class:`FrameworkSpec`, its chart
template and its tests; nothing else asks ``framework == ...``. An unknown name is an
error naming it and the known ones, never another framework's ``else``.
"""

from __future__ import annotations

from trainstack.training_job.frameworks.spec import FrameworkSpec

_REGISTRY: dict[str, FrameworkSpec] = {}


def register(spec: FrameworkSpec) -> FrameworkSpec:
    """Add ``spec``; a second entry of the same name is a programming error."""
    if spec.name in _REGISTRY:
        raise ValueError(f"framework {spec.name!r} is registered twice")
    _REGISTRY[spec.name] = spec
    return spec


def framework(name: str) -> FrameworkSpec:
    """The spec of ``name``; a KeyError names the registered frameworks."""
    try:
        return _REGISTRY[name]
    except KeyError:
        known = ", ".join(sorted(_REGISTRY))
        raise KeyError(f"unknown framework {name!r} (registered: {known})") from None


def frameworks() -> tuple[FrameworkSpec, ...]:
    """Every registered framework, sorted by name (a stable order for rendered config)."""
    return tuple(spec for _, spec in sorted(_REGISTRY.items()))


def by_crd(crd: str) -> FrameworkSpec | None:
    """The framework whose job objects are ``crd`` (``tfjobs.kubeflow.org``), if any."""
    return next((spec for spec in _REGISTRY.values() if spec.crd == crd), None)
