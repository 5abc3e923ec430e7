"""Package ``__init__`` files are plain: no lazy facade, each public name written once;
heavy libraries load inside the functions (the commands) that use them."""

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
def test_a_package_init_is_plain(init: Path) -> None:
    """No module ``__getattr__`` (names resolved lazily, hidden from static readers), and
    ``__all__``, where there is one, lists each name once, bound by a plain import or a
    definition of the module itself (not only under ``TYPE_CHECKING``)."""
    tree = parse_python(init)
    where = init.relative_to(REPO)
    bound: set[str] = set()
    listed: list[str] = []
    lazy = [
        node.lineno
        for node in ast.walk(tree)
        if (isinstance(node, ast.FunctionDef) and node.name == "__getattr__")
        or (isinstance(node, ast.Name) and node.id == "__getattr__")
    ]
    assert not lazy, f"{where}:{lazy[0]}: a lazy facade (a module __getattr__)"
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.ClassDef):
            bound.add(node.name)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            bound.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names = {ast.unparse(target) for target in targets}
            if "__all__" in names and node.value is not None:
                listed = list(ast.literal_eval(node.value))
            bound.update(names)
    assert len(listed) == len(set(listed)), f"{where}: __all__ names a name twice"
    unbound = sorted(set(listed) - bound)
    assert not unbound, f"{where}: __all__ lists {unbound}, which the module does not bind"


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


def test_the_program_loads_no_kubernetes_client_offline() -> None:
    """The program imports the cluster gate at every plan, offline: the Kubernetes client
    (lightkube, httpx2) loads only when a cluster is read (about 0.1 s of a plan's start)."""
    imported = _modules_after("trainstack.conformance.cluster_gate")
    assert not [m for m in imported if m.split(".")[0] in ("lightkube", "httpx2")]
    assert not [m for m in imported if m.startswith("trainstack.live.")]


def _modules_after(module: str) -> list[str]:
    """Every module a fresh interpreter has loaded once it imported ``module``."""
    code = f"import sys, {module}; print('\\n'.join(sorted(sys.modules)))"
    ran = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=True
    )
    assert module in ran.stdout.splitlines()  # the import itself happened
    return ran.stdout.splitlines()
