"""No shared code tests a framework's name: what varies by framework is data on its spec
(its package, trainstack/training_job/frameworks/<name>/), which the chart reads from the
generated training-job.<framework>.info. A new framework then never falls into another's
``else``.

Python: every module of trainstack/ but a framework's own package. Templates: every chart
template but the framework's own (``<kind>.yaml``, ``<kind>-*.yaml``) and the generated
_frameworks.tpl. Each checker is also shown failing on a snippet with a comparison.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from tests.python_source import parse_python
from tests.stack_helpers import REPO
from trainstack.chart.constants import FRAMEWORKS_TEMPLATE
from trainstack.chart.paths import CHART_DIR
from trainstack.training_job.frameworks import FRAMEWORKS

NAMES = frozenset(spec.name for spec in FRAMEWORKS)
ROLE_KEYS = frozenset(
    role.values_key for spec in FRAMEWORKS for role in spec.roles if "." in role.values_key
)
"""The values keys of the roles a single framework has (``mpi.launcher``, ``tensorflow.ps``)."""
FRAMEWORKS_DIR = REPO / "trainstack" / "training_job" / "frameworks"
TEMPLATES = REPO / CHART_DIR / "templates"


def _framework_valued(node: ast.expr) -> bool:
    """``node`` reads a framework's name: ``framework``, ``job.framework``..."""
    name = node.id if isinstance(node, ast.Name) else getattr(node, "attr", "")
    return "framework" in name.lower()


def _strings(node: ast.expr) -> list[str]:
    """The text constants ``node`` is or holds (a tuple, list or set of them)."""
    items = node.elts if isinstance(node, ast.Tuple | ast.List | ast.Set) else [node]
    return [i.value for i in items if isinstance(i, ast.Constant) and isinstance(i.value, str)]


def _literal_types(tree: ast.AST) -> set[int]:
    """The ids of the nodes inside ``Literal[...]``: a type lists names, it compares none."""
    return {
        id(inner)
        for node in ast.walk(tree)
        if isinstance(node, ast.Subscript) and getattr(node.value, "id", "") == "Literal"
        for inner in ast.walk(node.slice)
    }


def python_problems(source: str, where: str) -> list[str]:
    """Each comparison, membership test, ``case``, collection or mapping key of framework
    names in ``source`` (and each comparison of a framework-valued name with text)."""
    tree = ast.parse(source)
    types = _literal_types(tree)
    found = []
    for node in ast.walk(tree):
        named: list[str] = []
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            named = [text for operand in operands for text in _strings(operand)]
            if not any(_framework_valued(operand) for operand in operands):
                named = [text for text in named if text in NAMES]
        elif isinstance(node, ast.MatchValue):
            named = [text for text in _strings(node.value) if text in NAMES]
        elif isinstance(node, ast.Tuple | ast.List | ast.Set) and id(node) not in types:
            named = [text for text in _strings(node) if text in NAMES]
        elif isinstance(node, ast.Dict):
            named = [text for key in node.keys if key for text in _strings(key) if text in NAMES]
        if named:
            line = getattr(node, "lineno", 0)
            found.append(f"{where}:{line}: {ast.unparse(node)}")
    return found


_COMMENT = re.compile(r"\{\{-?\s*/\*.*?\*/\s*-?\}\}", re.S)
_ACTION = re.compile(r"\{\{.*?\}\}", re.S)
_ARGUMENT = r'("(?:[^"\\]|\\.)*"|[$.\w]+)'
_COMPARISON = re.compile(rf"\b(?:eq|ne)\s+{_ARGUMENT}\s+{_ARGUMENT}")
_MEMBERSHIP = re.compile(r"\bhas\s+[$.\w]*\.framework\b")
_TEXT = re.compile(r'"((?:[^"\\]|\\.)*)"')


def template_problems(text: str, where: str) -> list[str]:
    """Each comparison of ``.framework`` with text, membership test of it, and text that is
    a framework's name or one of its own roles' keys, in the actions of a template."""
    found = []
    for action in _ACTION.findall(_COMMENT.sub("", text)):
        compared = [
            match.group(0)
            for match in _COMPARISON.finditer(action)
            if {".framework", '"'} <= {_kind(match.group(1)), _kind(match.group(2))}
        ]
        named = [f'"{t}"' for t in _TEXT.findall(action) if t in NAMES or t in ROLE_KEYS]
        found += [f"{where}: {part}" for part in compared + _MEMBERSHIP.findall(action) + named]
    return found


def _kind(argument: str) -> str:
    if argument.startswith('"'):
        return '"'
    return ".framework" if argument.endswith(".framework") else ""


def shared_modules() -> list[Path]:
    """Every module of trainstack/ but the frameworks' own packages."""
    owned = [path for path in FRAMEWORKS_DIR.iterdir() if path.is_dir() and path.name in NAMES]
    return [
        path
        for path in sorted((REPO / "trainstack").rglob("*.py"))
        if not any(path.is_relative_to(package) for package in owned)
    ]


def shared_templates() -> list[Path]:
    """Every template but each framework's kind templates and the generated table."""
    kinds = {spec.kind.lower() for spec in FRAMEWORKS}
    generated = REPO / CHART_DIR / FRAMEWORKS_TEMPLATE
    return [
        path
        for path in sorted(TEMPLATES.iterdir())
        if path.is_file()
        and path != generated
        and not any(path.name == f"{k}.yaml" or path.name.startswith(f"{k}-") for k in kinds)
    ]


def test_no_shared_module_tests_a_framework_name() -> None:
    found = [
        problem
        for path in shared_modules()
        for problem in python_problems(
            path.read_text(encoding="utf-8"), str(path.relative_to(REPO))
        )
    ]
    assert found == [], "ask the framework's spec instead:\n" + "\n".join(found)
    # the files read are the ones meant: trees parse, and the shared ones are there
    assert all(parse_python(path) for path in shared_modules())
    assert REPO / "trainstack" / "training_job" / "defaults.py" in shared_modules()


def test_no_shared_template_tests_a_framework_name() -> None:
    templates = shared_templates()
    found = [
        problem
        for path in templates
        for problem in template_problems(path.read_text(encoding="utf-8"), path.name)
    ]
    assert found == [], "read the framework's info instead:\n" + "\n".join(found)
    names = {path.name for path in templates}
    assert {"_defaults.tpl", "_arena.tpl", "_validate_api.tpl", "NOTES.txt"} <= names
    assert not names & {"mpijob.yaml", "mpijob-v1alpha1.yaml", "_frameworks.tpl"}


# The checkers must be able to fail, or a clean tree proves nothing.


@pytest.mark.parametrize(
    "snippet",
    [
        'if job.framework == "mpi":\n    pass\n',
        'arena_mpi = job.arena_submit and job.framework != "tensorflow"\n',
        'if framework in ("jax", "xgboost"):\n    pass\n',
        'if "pytorch" == name:\n    pass\n',
        'SUBMITS = ("mpi", "tensorflow", "pytorch")\n',
        'BY_NAME = {"trainjob": 1}\n',
        'match job.framework:\n    case "mpi":\n        pass\n',
    ],
)
def test_the_python_checker_finds_a_name_comparison(snippet: str) -> None:
    assert python_problems(snippet, "x.py") != []


@pytest.mark.parametrize(
    "snippet",
    [
        'Framework = Literal["mpi", "tensorflow", "pytorch", "trainjob"]\n',
        'spec = framework("mpi")\n',
        'if job.operator_api == "arena":\n    pass\n',
    ],
)
def test_the_python_checker_lets_lookups_and_types_be(snippet: str) -> None:
    assert python_problems(snippet, "x.py") == []


@pytest.mark.parametrize(
    "snippet",
    [
        '{{- if and (eq $v.framework "mpi") (eq .role "worker") -}}',
        '{{- else if ne "jax" .Values.framework -}}',
        "{{- if has $v.framework $submits -}}",
        '{{- $submits := list "mpi" "tensorflow" "pytorch" -}}',
        '{{- if and (ne $key "tensorflow.ps") (ne $key "mpi.launcher") -}}',
    ],
)
def test_the_template_checker_finds_a_name_comparison(snippet: str) -> None:
    assert template_problems(snippet, "_x.tpl") != []


def test_the_template_checker_reads_actions_not_comments() -> None:
    text = '{{/* as framework "mpi" did: eq .framework "mpi" */}}\nframework: mpi\n'
    assert template_problems(text, "_x.tpl") == []
    assert template_problems('{{ eq $v.operatorApi "arena" }}', "_x.tpl") == []
