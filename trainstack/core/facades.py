"""A package's public names, imported from their modules when first used.

A package's ``__init__.py`` lists its public names in ``__all__`` and imports them under
``TYPE_CHECKING`` (for mypy and editors); at run time its ``__getattr__`` is
:func:`lazy_names`, so that importing one module of the package (the CLI imports every
command's module) does not load all the others: lightkube, Helm or the plan engine are
loaded by the commands that use them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from importlib import import_module
from typing import Any


def lazy_names(package: str, **modules: Sequence[str]) -> Callable[[str], Any]:
    """The module ``__getattr__`` of ``package``: each name in ``modules[m]`` comes from
    ``package.m``, imported on first use."""
    homes = {name: f"{package}.{module}" for module, names in modules.items() for name in names}

    def __getattr__(name: str) -> Any:
        home = homes.get(name)
        if home is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(import_module(home), name)

    return __getattr__
