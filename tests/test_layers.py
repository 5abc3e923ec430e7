"""The layering the code relies on, read from every import of trainstack/, components/ and
the Pulumi program (``__main__.py``): module-level, function-local and ``TYPE_CHECKING``.

Layers, bottom to top (:data:`LAYERS`). An import points down the layers or stays inside
its own package; the kernel (``core/``) imports nothing else of trainstack, the console
only the kernel. Print the measurements with ``.venv/bin/python -m tests.test_layers``.
"""

from __future__ import annotations

import ast
import gc
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Literal

from tests.python_source import parse_python

REPO = Path(__file__).resolve().parents[1]

LAYERS: tuple[tuple[str, ...], ...] = (
    ("trainstack", "core"),
    ("console",),
    ("metrics",),
    ("training_job",),
    ("operators",),
    ("config", "chart"),
    ("experiments", "facts"),
    ("checks", "live", "components", "health"),
    ("cost",),
    ("deployment.py", "results"),
    ("conformance",),
    ("plan",),
    ("diff", "reference", "healthrun", "submit"),
    ("cli.py",),
    ("__main__.py", "program"),
)
"""Each package of trainstack (a loose module by its file name), ``components`` and the
Pulumi ``program``, from the bottom up; ``trainstack`` is the root package's
``__init__.py`` (its version)."""

MAX_LOOSE_MODULES = 3

Kind = Literal["module", "function", "type-checking"]


@dataclass(frozen=True)
class Import:
    """One import of a trainstack (or components) module, where it is written."""

    source: str
    target: str
    kind: Kind
    where: str
    """``trainstack/x.py:12``."""

    def __str__(self) -> str:
        return f"{self.where}: {self.source} imports {self.target} ({self.kind})"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(REPO).with_suffix("").parts)
    if parts == ["__main__"]:
        return "program"
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@cache
def _modules() -> dict[str, Path]:
    paths = [*REPO.glob("trainstack/**/*.py"), *REPO.glob("components/**/*.py")]
    return {_module_name(path): path for path in [*paths, REPO / "__main__.py"]}


def package(module: str) -> str:
    """The layer unit a module belongs to: ``core``, ``cli.py``, ``components``, ``program``."""
    parts = module.split(".")
    if parts[0] != "trainstack":
        return parts[0]
    if len(parts) == 1:
        return "trainstack"
    loose = _modules().get(".".join(parts[:2]))
    if loose is not None and loose.name != "__init__.py":
        return f"{parts[1]}.py"
    return parts[1]


def _walk(node: ast.AST, kind: Kind) -> Iterator[tuple[ast.Import | ast.ImportFrom, Kind]]:
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.Import | ast.ImportFrom):
            yield child, kind
        elif isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            yield from _walk(child, "function")
        elif isinstance(child, ast.If) and ast.unparse(child.test).endswith("TYPE_CHECKING"):
            for item in child.body:
                yield from _walk(ast.Module(body=[item], type_ignores=[]), "type-checking")
            for item in child.orelse:
                yield from _walk(ast.Module(body=[item], type_ignores=[]), kind)
        else:
            yield from _walk(child, kind)


def _targets(node: ast.Import | ast.ImportFrom, module: str, is_package: bool) -> list[str]:
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    base = node.module or ""
    if node.level:
        here = module.split(".") if is_package else module.split(".")[:-1]
        here = here[: len(here) - node.level + 1]
        base = ".".join([*here, *([base] if base else [])])
    # `from package import module` imports the module; `from module import name` the module.
    return [
        f"{base}.{alias.name}" if f"{base}.{alias.name}" in _modules() else base
        for alias in node.names
    ]


def _parsed() -> list[tuple[str, Path, ast.Module]]:
    """Every module scanned with its syntax tree."""
    return [(module, path, parse_python(path)) for module, path in _modules().items()]


@cache
def imports() -> tuple[Import, ...]:
    """Every import of a trainstack or components module, by every module scanned."""
    # Earlier tests leave garbage whose finalizers log a traceback (asyncio futures of
    # failed program runs); Python 3.11 formats tracebacks with ast.parse, and an
    # ast.parse that runs inside another (collected mid-way) corrupts the outer one's
    # recursion count: SystemError "AST constructor recursion depth mismatch". Collected
    # here first, they never run inside ours.
    gc.collect()
    found = []
    for module, path, tree in _parsed():
        for node, kind in _walk(tree, "module"):
            for target in _targets(node, module, path.name == "__init__.py"):
                if target.split(".")[0] in ("trainstack", "components"):
                    where = f"{path.relative_to(REPO)}:{node.lineno}"
                    found.append(Import(module, target, kind, where))
    return tuple(dict.fromkeys(found))  # `from x import a, b`: one import of x


def _between_packages(kinds: set[Kind]) -> list[Import]:
    return [
        item
        for item in imports()
        if item.kind in kinds and package(item.source) != package(item.target)
    ]


def package_cycles(kinds: set[Kind]) -> list[list[Import]]:
    """The imports of each circle of packages (strongly connected), ``kinds`` only."""
    edges: dict[str, set[str]] = {}
    for item in _between_packages(kinds):
        edges.setdefault(package(item.source), set()).add(package(item.target))
    components = _strongly_connected(edges)
    return [
        [
            item
            for item in _between_packages(kinds)
            if package(item.source) in members and package(item.target) in members
        ]
        for members in components
    ]


def module_cycles(kinds: set[Kind]) -> list[set[str]]:
    """The circles of modules (strongly connected), ``kinds`` of import only."""
    edges: dict[str, set[str]] = {}
    for item in imports():
        if item.kind in kinds and item.source != item.target:
            edges.setdefault(item.source, set()).add(item.target)
    return _strongly_connected(edges)


def _strongly_connected(edges: dict[str, set[str]]) -> list[set[str]]:
    """Tarjan's algorithm; only the components of more than one node."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[set[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in sorted(edges.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            members = set()
            while True:
                member = stack.pop()
                members.add(member)
                if member == node:
                    break
            if len(members) > 1:
                found.append(members)

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def layer(name: str) -> int:
    """The floor of a package (0: the kernel)."""
    return next(floor for floor, names in enumerate(LAYERS) if name in names)


def upward() -> list[Import]:
    """Imports of another package that is not on a lower floor (all kinds of import)."""
    return [
        item
        for item in _between_packages({"module", "function", "type-checking"})
        if layer(package(item.target)) >= layer(package(item.source))
    ]


def loose_modules() -> list[str]:
    """The modules at the top of trainstack/ (not its ``__init__.py``)."""
    return sorted(path.name for path in (REPO / "trainstack").glob("*.py"))[1:]


def _listed(found: list[Import]) -> str:
    return "\n".join(f"  {item}" for item in found)


def test_every_package_has_a_layer() -> None:
    packages = {package(module) for module in _modules()}
    placed = {name for names in LAYERS for name in names}
    assert packages <= placed, f"not in LAYERS: {sorted(packages - placed)}"


def test_the_kernel_imports_nothing_else_of_trainstack() -> None:
    found = [
        item
        for item in imports()
        if package(item.source) == "core" and package(item.target) != "core"
    ]
    assert not found, f"core/ must import only core/:\n{_listed(found)}"


def test_the_console_imports_only_the_kernel() -> None:
    found = [
        item
        for item in imports()
        if package(item.source) == "console" and package(item.target) not in ("core", "console")
    ]
    assert not found, f"console/ must import only core/ and console/:\n{_listed(found)}"


def test_no_packages_import_each_other_at_module_level() -> None:
    cycles = package_cycles({"module"})
    shown = "\n".join(_listed(cycle) for cycle in cycles)
    assert not cycles, f"packages importing each other at module level:\n{shown}"


def test_imports_point_down_the_layers() -> None:
    found = upward()
    assert not found, f"imports up (or across) the layers of LAYERS:\n{_listed(found)}"


def test_the_only_circle_of_modules_is_the_job_models_type_checking_loop() -> None:
    """The job model types its frameworks' rules against ``TrainingJob`` (``TYPE_CHECKING``),
    which imports their settings: that loop stays inside training_job/, and goes away
    without the ``TYPE_CHECKING`` imports."""
    assert module_cycles({"module", "function"}) == []
    outside = [
        sorted(members)
        for members in module_cycles({"module", "function", "type-checking"})
        if {package(member) for member in members} != {"training_job"}
    ]
    assert outside == []


def test_at_most_three_loose_modules_at_the_top_of_trainstack() -> None:
    loose = loose_modules()
    assert len(loose) <= MAX_LOOSE_MODULES, (
        f"{len(loose)} loose modules in trainstack/ (at most {MAX_LOOSE_MODULES}): "
        f"{', '.join(loose)}; put the others in the package of their users"
    )


def measurements() -> list[str]:
    """What the tests above measure, for a review."""
    upward_imports = upward()
    pairs = sorted({(package(i.source), package(i.target)) for i in upward_imports})
    circles = package_cycles({"module", "function", "type-checking"})
    return [
        f"loose modules: {len(loose_modules())} ({', '.join(loose_modules())})",
        f"package cycles at module level: {len(package_cycles({'module'}))}",
        f"package circles counting every import: {len(circles)} "
        + "; ".join(
            "{" + ", ".join(sorted({package(i.source) for i in circle})) + "}" for circle in circles
        ),
        "circles of modules counting every import: "
        + "; ".join(
            f"{len(members)} modules in {', '.join(sorted({package(m) for m in members}))}"
            for members in module_cycles({"module", "function", "type-checking"})
        ),
        f"imports up the layers: {len(upward_imports)} in {len(pairs)} package pairs "
        + ", ".join(f"{a} -> {b}" for a, b in pairs),
        *(f"  {item}" for item in upward_imports),
    ]


if __name__ == "__main__":
    print("\n".join(measurements()))
