"""Package facades: ``__all__`` names what the package offers, each imported on first use."""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
from pathlib import Path

import pytest

from tests.python_source import parse_python
from tests.stack_helpers import REPO
from trainstack.core.facades import lazy_names


def _lazy_facades() -> list[Path]:
    return sorted(
        init
        for init in (REPO / "trainstack").glob("*/__init__.py")
        if "lazy_names(" in init.read_text(encoding="utf-8")
    )


def _declared(init: Path) -> tuple[set[str], dict[str, set[str]], dict[str, set[str]]]:
    """``__all__``, the TYPE_CHECKING imports and the lazy table, each as written."""
    tree = parse_python(init)
    listed: set[str] = set()
    typed: dict[str, set[str]] = {}
    lazy: dict[str, set[str]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and ast.unparse(node.targets[0]) == "__all__":
            listed = set(ast.literal_eval(node.value))
        elif isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING":
            for item in node.body:
                assert isinstance(item, ast.ImportFrom) and item.module is not None
                module = item.module.rpartition(".")[2]
                typed.setdefault(module, set()).update(alias.name for alias in item.names)
        elif isinstance(node, ast.Call) and ast.unparse(node.func) == "lazy_names":
            lazy = {kw.arg: set(ast.literal_eval(kw.value)) for kw in node.keywords if kw.arg}
    return listed, typed, lazy


FACADES = _lazy_facades()


def test_the_six_packages_have_a_facade() -> None:
    assert [init.parent.name for init in FACADES] == [
        "chart",
        "diff",
        "experiments",
        "live",
        "operators",
        "plan",
    ]


@pytest.mark.parametrize("init", FACADES, ids=lambda init: init.parent.name)
def test_all_the_type_checking_imports_and_the_lazy_table_name_the_same(init: Path) -> None:
    listed, typed, lazy = _declared(init)
    assert typed == lazy
    assert listed == {name for names in lazy.values() for name in names}


@pytest.mark.parametrize("init", FACADES, ids=lambda init: init.parent.name)
def test_every_public_name_is_its_modules_own_and_no_module_shadows_it(init: Path) -> None:
    package = f"trainstack.{init.parent.name}"
    facade = importlib.import_module(package)
    _, _, lazy = _declared(init)
    submodules = {path.stem for path in init.parent.glob("*.py")}
    for module, names in lazy.items():
        home = importlib.import_module(f"{package}.{module}")
        for name in names:
            # A name that is also a module's would be that module once it is imported.
            assert name not in submodules, f"{package}.{name} is a module"
            assert getattr(facade, name) is getattr(home, name)


def test_an_unknown_name_is_an_error_naming_it() -> None:
    with pytest.raises(AttributeError, match="module 'trainstack.live' has no attribute 'Nope'"):
        importlib.import_module("trainstack.live").Nope  # noqa: B018
    with pytest.raises(AttributeError, match="'pkg' has no attribute 'x'"):
        lazy_names("pkg", mod=["y"])("x")


def test_a_package_loads_its_modules_only_when_a_name_is_used() -> None:
    code = (
        "import sys, trainstack.live, trainstack.diff;"
        "print(sorted(m for m in sys.modules if m.startswith(('trainstack.live.', "
        "'trainstack.diff.', 'lightkube'))))"
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
