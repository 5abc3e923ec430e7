"""The repository's scripts (``scripts/*.py``, not a package) imported as modules by tests."""

from __future__ import annotations

import importlib.util
import sys
from types import ModuleType

from tests.stack_helpers import REPO


def load_script(name: str) -> ModuleType:
    """``scripts/<name>.py`` as module ``name`` (registered, so dataclasses resolve)."""
    spec = importlib.util.spec_from_file_location(name, REPO / "scripts" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
