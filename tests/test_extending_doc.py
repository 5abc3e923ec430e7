"""docs/extending.md against the code: every file it lists exists, each section names its
registries (defined in a source file the section lists), every entry of each registry has
the files the page says each one has, and each change stays within issues 24 and 39's budget of
hand-edited source files. Each check is also shown failing on a page broken on purpose."""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

import pytest

from components.clusters.registry import COMPONENTS
from tests.python_source import parse_python
from tests.stack_helpers import REPO
from trainstack.chart.constants import GENERATED_FILES
from trainstack.chart.paths import CHART_DIR
from trainstack.config.clusters.registry import KINDS
from trainstack.config.operators import Operators
from trainstack.operators.registry import OPERATORS
from trainstack.training_job.frameworks import FRAMEWORKS

DOC = REPO / "docs" / "extending.md"
GROUPS = ("Source", "Generated", "Only when", "Tests", "Docs")
PLACEHOLDER = re.compile(r"<[a-z]+>")
ITEM = re.compile(r"^(?:\d+\.|-) `([^`]+)`:")
GROUP = re.compile(r"^\*\*(" + "|".join(GROUPS) + r")\*\*")


@dataclass(frozen=True)
class Listed:
    """One file (or directory) a section lists, under its group."""

    group: str
    path: str


@dataclass(frozen=True)
class Axis:
    """What a section of the page is about: its registries, the placeholders of its
    entries (one mapping per entry of the registry) and its budget of source files."""

    title: str
    registries: tuple[str, ...]
    entries: Callable[[], list[dict[str, str]]]
    budget: int


def _operator_definitions() -> list[tuple[str, str]]:
    """(family key, module) for each ``NAME = OperatorFamily(key=...)`` at the top level
    of a module of trainstack/operators/ (imports do not count)."""
    found = []
    for path in sorted((REPO / "trainstack" / "operators").glob("*.py")):
        for node in parse_python(path).body:
            call = node.value if isinstance(node, ast.Assign | ast.AnnAssign) else None
            if isinstance(call, ast.Call) and getattr(call.func, "id", "") == "OperatorFamily":
                keys = [k.value for k in call.keywords if k.arg == "key"]
                found += [(str(k.value), path.stem) for k in keys if isinstance(k, ast.Constant)]
    return found


def _operators() -> list[dict[str, str]]:
    modules = dict(_operator_definitions())
    # A family no module defines fills in a name no file has: reported as missing.
    return [{"<module>": modules.get(family.key, f"?{family.key}")} for family in OPERATORS]


AXES = (
    Axis(
        "A framework",
        ("FRAMEWORKS",),
        lambda: [{"<name>": s.name, "<kind>": s.kind.lower()} for s in FRAMEWORKS],
        4,
    ),
    Axis("An operator", ("OPERATORS",), _operators, 3),
    Axis(
        "A cluster kind",
        ("KINDS", "COMPONENTS"),
        lambda: [{"<provider>": kind.provider} for kind in KINDS],
        4,
    ),
    Axis(
        "A cluster kind with its own storage",
        ("KINDS", "COMPONENTS", "DatasetSource", "DataStore"),
        lambda: [{"<provider>": k.provider} for k in KINDS if k.storage.source is not None],
        5,
    ),
)


def sections(text: str) -> dict[str, str]:
    """Level-2 heading -> the text below it."""
    parts = re.split(r"(?m)^## (.+)$", text)
    return dict(zip(parts[1::2], parts[2::2], strict=True))


def listed(body: str) -> list[Listed]:
    """The paths a section lists (the first code span of each list item), by group."""
    found, group = [], None
    for line in body.splitlines():
        if heading := GROUP.match(line):
            group = heading.group(1)
        elif (item := ITEM.match(line)) and group is not None:
            found.append(Listed(group, item.group(1)))
    return found


def _defines(path: Path, name: str) -> bool:
    """``path`` assigns ``name`` at its top level."""
    for node in parse_python(path).body:
        targets = node.targets if isinstance(node, ast.Assign) else [getattr(node, "target", None)]
        if any(isinstance(t, ast.Name) and t.id == name for t in targets):
            return True
    return False


def _exists(path: str) -> bool:
    return (REPO / path).exists()


def _fill(path: str, entry: dict[str, str]) -> str:
    """``path`` with each placeholder replaced by the entry's value."""
    for hole, value in entry.items():
        path = path.replace(hole, value)
    return path


def problems(text: str, axes: Iterable[Axis] = AXES) -> list[str]:
    """What the page ``text`` says that the code does not hold."""
    found: list[str] = []
    by_title = sections(text)
    for axis in axes:
        if axis.title not in by_title:
            found.append(f"no section '## {axis.title}'")
            continue
        body, files = by_title[axis.title], listed(by_title[axis.title])
        source = [f.path for f in files if f.group == "Source"]
        if not files:
            found.append(f"{axis.title}: lists no file")
        if len(source) > axis.budget:
            found.append(f"{axis.title}: {len(source)} source files, more than {axis.budget}")
        for registry in axis.registries:
            if f"`{registry}`" not in body:
                found.append(f"{axis.title}: does not name its registry {registry}")
            elif not any(
                not PLACEHOLDER.search(path) and _exists(path) and _defines(REPO / path, registry)
                for path in source
            ):
                found.append(f"{axis.title}: no source file it lists defines {registry}")
        entries = axis.entries()
        for file in files:
            holes = set(PLACEHOLDER.findall(file.path))
            if not holes:
                if not _exists(file.path):
                    found.append(f"{axis.title}: {file.path} does not exist")
            elif file.group == "Only when":
                before = file.path[: PLACEHOLDER.search(file.path).start()]  # type: ignore[union-attr]
                prefix = before[: before.rfind("/") + 1]  # the directory it goes in
                if not _exists(prefix):
                    found.append(f"{axis.title}: {prefix} (of {file.path}) does not exist")
            elif not holes <= set(entries[0]):
                unknown = ", ".join(sorted(holes - set(entries[0])))
                found.append(f"{axis.title}: {file.path}: {unknown} is no placeholder of it")
            else:
                for entry in entries:
                    filled = _fill(file.path, entry)
                    if not _exists(filled):
                        found.append(f"{axis.title}: {filled} (each entry's {file.path}) missing")
    return found


def test_the_page_holds_against_the_code() -> None:
    assert problems(DOC.read_text(encoding="utf-8")) == []


def test_each_section_lists_every_group_and_the_linked_pages_point_here() -> None:
    for axis in AXES:
        body = sections(DOC.read_text(encoding="utf-8"))[axis.title]
        assert [g for g in GROUPS if f"**{g}**" in body] == list(GROUPS), axis.title
    # One source for what adding a framework touches: the chart docs link here.
    assert "extending.md" in (REPO / "docs" / "training-job.md").read_text(encoding="utf-8")
    assert "docs/extending.md" in (REPO / "README.md").read_text(encoding="utf-8")


def test_a_framework_generates_exactly_what_the_chart_generator_writes() -> None:
    files = listed(sections(DOC.read_text(encoding="utf-8"))["A framework"])
    generated = [f.path for f in files if f.group == "Generated"]
    assert sorted(generated) == sorted(f"{CHART_DIR}/{name}" for name in GENERATED_FILES)


def test_each_operator_is_defined_in_a_module_of_its_own_and_listed() -> None:
    definitions = _operator_definitions()
    assert sorted(key for key, _ in definitions) == sorted(family.key for family in OPERATORS)
    assert len({module for _, module in definitions}) == len(definitions)


def test_every_operator_but_kueue_has_its_stack_key() -> None:
    # Kueue is installed by trainstack:queueing, as the page says.
    text = sections(DOC.read_text(encoding="utf-8"))["An operator"]
    assert "`trainstack:queueing`" in text
    keys = {field.alias or name for name, field in Operators.model_fields.items()}
    assert keys == {family.key for family in OPERATORS} - {"kueue"}


def test_the_clusters_two_tables_list_the_same_kinds() -> None:
    assert [entry.kind for entry in COMPONENTS] == list(KINDS)


def spec_keywords(path: Path) -> set[str]:
    """The keywords of the ``SPEC = FrameworkSpec(...)`` call at the top level of ``path``."""
    for node in parse_python(path).body:
        if (
            isinstance(node, ast.Assign)
            and [getattr(t, "id", "") for t in node.targets] == ["SPEC"]
            and isinstance(node.value, ast.Call)
        ):
            return {keyword.arg for keyword in node.value.keywords if keyword.arg}
    return set()


def test_a_frameworks_defaults_and_arena_support_are_in_its_first_source_file() -> None:
    """The 4 files hold for a framework with its own defaults and Arena support: both are
    keywords of its SPEC, in the package file the page lists first (the shared code that
    reads them tests no name: tests/test_framework_names.py)."""
    files = listed(sections(DOC.read_text(encoding="utf-8"))["A framework"])
    first = next(f.path for f in files if f.group == "Source")
    assert first == "trainstack/training_job/frameworks/<name>/__init__.py"
    for spec in FRAMEWORKS:
        keywords = spec_keywords(REPO / _fill(first, {"<name>": spec.name}))
        assert {"run_defaults", "arena"} <= keywords, spec.name


def test_the_spec_check_fails_without_the_spec(tmp_path: Path) -> None:
    module = tmp_path / "jax.py"
    module.write_text("SPEC = FrameworkSpec(name='jax', run_defaults=None)\n", encoding="utf-8")
    assert spec_keywords(module) == {"name", "run_defaults"}
    module.write_text("spec = make()\n", encoding="utf-8")
    assert spec_keywords(module) == set()


# The checks must be able to fail, or a clean page proves nothing.

PAGE = DOC.read_text(encoding="utf-8")
FRAMEWORK_MODULE = "`trainstack/training_job/frameworks/<name>/__init__.py`"


def _fake_framework() -> list[dict[str, str]]:
    return [*AXES[0].entries(), {"<name>": "jax", "<kind>": "jaxjob"}]


@pytest.mark.parametrize(
    ("broken", "axes", "expected"),
    [
        (
            PAGE.replace("`pyproject.toml`:", "`pyproject.tom`:"),
            AXES,
            "A cluster kind: pyproject.tom does not exist",
        ),
        (
            PAGE.replace("`OPERATORS`", "the list"),
            AXES,
            "An operator: does not name its registry OPERATORS",
        ),
        (
            PAGE.replace("`COMPONENTS`", "`KINDS`"),
            AXES,
            "A cluster kind: does not name its registry COMPONENTS",
        ),
        (
            PAGE.replace(
                "2. `trainstack/training_job/frameworks/registry.py`:",
                "2. `trainstack/training_job/frameworks/spec.py`:",
            ),
            AXES,
            "A framework: no source file it lists defines FRAMEWORKS",
        ),
        (
            PAGE,
            (Axis("A framework", ("FRAMEWORKS",), _fake_framework, 4), *AXES[1:]),
            "A framework: trainstack/training_job/frameworks/jax/__init__.py "
            f"(each entry's {FRAMEWORK_MODULE.strip('`')}) missing",
        ),
        (
            PAGE.replace(
                "- `tests/chart/bad_values.py`:",
                "- `tests/training_job/frameworks/test_<name>.py`: each one's.\n"
                "- `tests/chart/bad_values.py`:",
            ),
            AXES,
            "A framework: tests/training_job/frameworks/test_mpi.py "
            "(each entry's tests/training_job/frameworks/test_<name>.py) missing",
        ),
        (
            PAGE.replace(
                "4. `components/clusters/registry.py`:",
                "4. `components/clusters/registry.py`: its entry.\n5. `components/team.py`:",
            ),
            AXES,
            "A cluster kind: 5 source files, more than 4",
        ),
        (
            PAGE.replace(
                "5. `components/clusters/registry.py`: its `ClusterComponents` entry, naming",
                "5. `components/dataset_volume.py`: its volumes.\n"
                "6. `components/clusters/registry.py`: its `ClusterComponents` entry, naming",
            ),
            AXES,
            "A cluster kind with its own storage: 6 source files, more than 5",
        ),
        (
            PAGE.replace("`DatasetSource`", "the sources' union"),
            AXES,
            "A cluster kind with its own storage: does not name its registry DatasetSource",
        ),
        (
            PAGE.replace("`stacks/Pulumi.<stack>.yaml`:", "`stack/Pulumi.<stack>.yaml`:"),
            AXES,
            "A cluster kind: stack/ (of stack/Pulumi.<stack>.yaml) does not exist",
        ),
        (
            PAGE.replace("`tests/chart/test_render_<name>.py`:", "`tests/chart/test_<nam>.py`:"),
            AXES,
            "A framework: tests/chart/test_<nam>.py: <nam> is no placeholder of it",
        ),
        (
            PAGE.replace("## An operator", "## Operators"),
            AXES,
            "no section '## An operator'",
        ),
    ],
    ids=[
        "missing file",
        "registry unnamed",
        "second registry unnamed",
        "registry in no listed file",
        "entry without its module",
        "file an entry lacks",
        "over budget",
        "storage over budget",
        "storage registry unnamed",
        "missing directory of an optional file",
        "unknown placeholder",
        "missing section",
    ],
)
def test_a_page_that_says_what_the_code_does_not_hold_fails(
    broken: str, axes: tuple[Axis, ...], expected: str
) -> None:
    assert broken != PAGE or axes != AXES
    assert expected in problems(broken, axes)
