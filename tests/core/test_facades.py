"""Package ``__init__`` files are plain: a docstring, or imports and ``__all__`` naming each
name once; heavy libraries load inside the functions (the commands) that use them."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from tests.python_source import parse_python
from tests.stack_helpers import REPO

INITS = sorted((REPO / "trainstack").glob("*/**/__init__.py"))  # the root's holds its version


@pytest.mark.parametrize("init", INITS, ids=lambda init: str(init.parent.relative_to(REPO)))
def test_a_package_init_holds_only_imports_and_its_all(init: Path) -> None:
    """No module ``__getattr__``, no ``TYPE_CHECKING`` copy of the names: a package that
    re-exports imports each name once and lists it once in ``__all__``."""
    tree = parse_python(init)
    imported: set[str] = set()
    listed: set[str] | None = None
    for node in tree.body[1:] if ast.get_docstring(tree) else tree.body:
        if isinstance(node, ast.ImportFrom) and node.module != "__future__":
            imported.update(alias.asname or alias.name for alias in node.names)
        elif isinstance(node, ast.Assign) and ast.unparse(node.targets[0]) == "__all__":
            listed = set(ast.literal_eval(node.value))
        elif not (isinstance(node, ast.ImportFrom) and node.module == "__future__"):
            pytest.fail(f"{init.relative_to(REPO)}:{node.lineno}: {ast.unparse(node)[:60]}")
    assert listed == (imported or None), f"{init.relative_to(REPO)}: __all__ is not the imports"


def test_a_package_loads_its_modules_only_when_one_is_imported() -> None:
    code = (
        "import sys, trainstack.live, trainstack.diff, trainstack.plan, trainstack.operators;"
        "print(sorted(m for m in sys.modules if m.startswith(('trainstack.live.', "
        "'trainstack.diff.', 'trainstack.plan.', 'trainstack.operators.', 'lightkube'))))"
    )
    ran = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=True
    )
    assert ran.stdout.strip() == "[]"


def test_the_command_line_loads_no_engine_until_a_command_needs_it() -> None:
    """Every command imports the command line (all commands are registered there): the
    plan engine, Pulumi, Helm, the operator catalog, the stack models, the schema checker
    and SciPy load with the commands that use them, not with ``results compare`` or
    ``status``."""
    heavy = (
        "pulumi",
        "helm_python",
        "jsonschema",
        "scipy",
        "lightkube",
        "trainstack.plan.runner",
        "trainstack.operators.registry",
        "trainstack.config.stack",
        "trainstack.training_job.loader",
    )
    code = (
        "import sys, trainstack.cli;"
        f"print(sorted(m for m in sys.modules if m.split('.')[0] in {heavy!r} or m in {heavy!r}))"
    )
    ran = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=True
    )
    assert ran.stdout.strip() == "[]"
