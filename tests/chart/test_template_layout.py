"""The chart's templates stay navigable: helpers by area in small files, each documented and
namespaced; a framework's helpers in its kind template, but its info, generated into
_frameworks.tpl; a pod's volumes named in one file; validateValues' rules named after their
Python twins.

Each check reads a templates directory and returns its problems, naming the file and the
helper; the ``test_the_*_check_*`` tests break a copy of the templates to show that each
check can fail.
"""

from __future__ import annotations

import json
import re
import shutil
from inspect import getsource
from pathlib import Path

from tests.chart.jobs import CHART_DIR, job_values, render_kinds
from trainstack.chart.constants import FRAMEWORKS_TEMPLATE
from trainstack.chart.frameworks_tpl import ARENA_SUBMITS, HEADER
from trainstack.training_job import release_name_problems, violations

TEMPLATES = CHART_DIR / "templates"
MAX_HELPER_LINES = 200
VALIDATE_VALUES = "training-job.validateValues"
"""The chart's one un-namespaced helper: ``<chart>.validateValues``, as Bitnami names it."""

_DEFINE = re.compile(r'\{\{-?\s*define\s+"([^"]+)"\s*-?\}\}')
_COMMENT = re.compile(r"\{\{-?\s*/\*(.*?)\*/\s*-?\}\}", re.S)
_SHARED_NAME = re.compile(r"training-job\.([a-z][A-Za-z]*)\.[a-z][A-Za-z]*")
_KIND_TEMPLATE = re.compile(r'\{\{-?\s*if eq \.Values\.framework "([^"]+)"')
GENERATED = Path(FRAMEWORKS_TEMPLATE).name
"""The one generated template: each framework's training-job.<framework>.info."""


def _helper_files(templates: Path) -> list[Path]:
    return sorted(templates.glob("_*.tpl"))


def _defines(path: Path) -> list[tuple[str, str]]:
    """(name, the text between the previous define's end and this define) of each define."""
    text = path.read_text(encoding="utf-8")
    found = []
    start = 0
    for match in _DEFINE.finditer(text):
        found.append((match.group(1), text[start : match.start()]))
        start = match.end()
    return found


def _frameworks() -> list[str]:
    schema = json.loads((CHART_DIR / "values.schema.json").read_text(encoding="utf-8"))
    names: list[str] = schema["properties"]["framework"]["enum"]
    return names


def _generated_infos(templates: Path) -> set[str]:
    """The helpers the generated template may define: each framework's info and the list of
    the frameworks arena submit has; none when _frameworks.tpl is not the generator's (its
    header)."""
    path = templates / GENERATED
    if not (path.is_file() and path.read_text(encoding="utf-8").startswith(HEADER)):
        return set()
    return {f"training-job.{fw}.info" for fw in _frameworks()} | {ARENA_SUBMITS}


def _volume_names() -> list[str]:
    """The names of every volume a pod can have, as the chart renders them (index -> %d)."""
    values = job_values(
        "pytorch",
        datasets=[{"claimName": "data", "mountPath": "/data"}],
        results={"claimName": "out"},
        hostPaths=[{"path": "/mnt/cache", "mountPath": "/cache"}],
        codeSync={"mode": "git", "git": {"repository": "https://example.com/team/code.git"}},
    )
    pod = render_kinds(values)["PyTorchJob"]["spec"]["pytorchReplicaSpecs"]["Master"]
    names = {re.sub(r"-\d+$", "-%d", v["name"]) for v in pod["template"]["spec"]["volumes"]}
    return sorted(names)


def oversized_files(templates: Path) -> list[str]:
    problems = []
    for path in _helper_files(templates):
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > MAX_HELPER_LINES:
            problems.append(
                f"{path.name}: {lines} lines, over {MAX_HELPER_LINES}: split it by area"
            )
    return problems


def undocumented_helpers(templates: Path) -> list[str]:
    """Every define of every template has a doc comment right above it: ``<name>: ...``
    and a ``Usage:`` line that includes it."""
    problems = []
    for path in sorted(templates.glob("*")):
        for name, before in _defines(path):
            comments = list(_COMMENT.finditer(before))
            above = comments and not before[comments[-1].end() :].strip()
            doc = comments[-1].group(1).strip() if above else ""
            usage = [line for line in doc.splitlines() if line.startswith("Usage: ")]
            if not doc.startswith(f"{name}: "):
                problems.append(f"{path.name}: {name} has no doc comment starting '{name}: '")
            elif not any(f'"{name}"' in line for line in usage):
                problems.append(f"{path.name}: {name} has no 'Usage:' line that includes it")
    return problems


def unnamespaced_helpers(templates: Path) -> list[str]:
    """Shared helpers are training-job.<area>.<name>, and no area is a framework's (but the
    generated infos)."""
    problems = []
    frameworks = _frameworks()
    generated = _generated_infos(templates)
    for path in _helper_files(templates):
        for name, _ in _defines(path):
            match = _SHARED_NAME.fullmatch(name)
            if name == VALIDATE_VALUES or (path.name == GENERATED and name in generated):
                continue
            if match is None:
                problems.append(f"{path.name}: {name} is not named training-job.<area>.<name>")
            elif match.group(1) in frameworks:
                problems.append(
                    f"{path.name}: {name} belongs to framework {match.group(1)}: define it in "
                    "its kind template"
                )
    return problems


def misplaced_framework_helpers(templates: Path) -> list[str]:
    """Every framework has a kind template (not a helper file) that renders its object and
    defines its training-job.<framework>.* helpers, but its info: the generated
    _frameworks.tpl (known by its header) defines each framework's, and nothing else."""
    homes: dict[str, str] = {}
    defined: list[tuple[str, str]] = []
    for path in sorted(templates.glob("*")):
        if not path.name.startswith("_"):
            for fw in _KIND_TEMPLATE.findall(path.read_text(encoding="utf-8")):
                homes.setdefault(fw, path.name)
        defined += [(path.name, name) for name, _ in _defines(path)]
    frameworks = _frameworks()
    problems = [
        f"framework {fw}: no kind template renders it" for fw in frameworks if fw not in homes
    ]
    generated = _generated_infos(templates)
    if not generated:
        problems.append(f"{GENERATED}: missing or not generated: run `trainstack chart generate`")
    problems += [
        f"{GENERATED}: no {name}"
        for name in sorted(generated - {name for file, name in defined if file == GENERATED})
    ]
    for file_name, name in defined:
        area = name.split(".")[1]
        if file_name == GENERATED:
            if generated and name not in generated:
                problems.append(f"{file_name}: {name}: it holds only the generated infos")
        elif name.endswith(".info") and area in frameworks:
            problems.append(f"{file_name}: {name} is generated from the registry, into {GENERATED}")
        elif area in homes and file_name != homes[area]:
            problems.append(f"{file_name}: {name} belongs in {homes[area]}, its kind template")
    return problems


def repeated_volume_names(templates: Path, names: list[str]) -> list[str]:
    """Each volume name is written (as a template string or a YAML name) once, in
    _volumes.tpl."""
    problems = []
    for name in names:
        written = re.compile(rf'"{re.escape(name)}"|name:\s*{re.escape(name)}\b(?![-.%])')
        counts = {
            path.name: count
            for path in sorted(templates.glob("*"))
            if (count := len(written.findall(path.read_text(encoding="utf-8"))))
        }
        if counts != {"_volumes.tpl": 1}:
            where = ", ".join(f"{file} ({count}x)" for file, count in counts.items())
            problems.append(
                f"volume {name} is named in {where or 'no template'}: state it once, in "
                "_volumes.tpl's training-job.volumes.entries"
            )
    return problems


def rule_names(templates: Path) -> list[str]:
    """The rules validateValues includes, in order ("<framework>" for the framework's)."""
    text = (templates / "_validate.tpl").read_text(encoding="utf-8")
    body = text[text.index(f'define "{VALIDATE_VALUES}"') :].split("{{- end -}}")[0]
    found = re.findall(r'include (?:"training-job\.validate\.(\w+)"|\(printf "[^"]*%s)', body)
    return [name or "<framework>" for name in found]


def _camel(python_name: str) -> str:
    first, *rest = python_name.strip("_").split("_")
    return first + "".join(word.capitalize() for word in rest)


def python_rule_names() -> list[str]:
    """violations()'s rules in order, then naming.py's, as the chart names them."""
    calls = re.findall(r"\*(?:spec\.rules|(_\w+)_rules)\(", getsource(violations))
    names = [_camel(call) if call else "<framework>" for call in calls]
    return [*names, _camel(release_name_problems.__name__.removesuffix("_problems"))]


def test_no_helper_file_is_over_200_lines() -> None:
    assert oversized_files(TEMPLATES) == []


def test_every_helper_is_documented_with_its_usage() -> None:
    assert undocumented_helpers(TEMPLATES) == []


def test_shared_helpers_are_namespaced_by_area() -> None:
    assert unnamespaced_helpers(TEMPLATES) == []


def test_framework_helpers_live_in_their_kind_template() -> None:
    assert misplaced_framework_helpers(TEMPLATES) == []


def test_volume_names_are_written_in_one_helper_file() -> None:
    names = _volume_names()
    assert {"dshm", "code-sync", "dataset-%d", "results", "host-path-%d"} <= set(names)
    assert repeated_volume_names(TEMPLATES, names) == []


def test_validate_values_rules_are_named_after_their_python_twins() -> None:
    assert rule_names(TEMPLATES) == python_rule_names()


def _broken_copy(tmp_path: Path, file_name: str, old: str, new: str) -> Path:
    templates = tmp_path / "templates"
    shutil.copytree(TEMPLATES, templates)
    path = templates / file_name
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{file_name} no longer holds {old!r}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return templates


def test_the_size_check_names_the_file(tmp_path: Path) -> None:
    templates = _broken_copy(tmp_path, "_labels.tpl", "{{/*\n", "{{/*\n" + "more\n" * 200)

    assert oversized_files(templates) == ["_labels.tpl: 244 lines, over 200: split it by area"]


def test_the_documentation_check_names_a_helper_without_a_doc(tmp_path: Path) -> None:
    templates = _broken_copy(tmp_path, "_labels.tpl", "training-job.names.chart: ", "")

    assert undocumented_helpers(templates) == [
        "_labels.tpl: training-job.names.chart has no doc comment starting "
        "'training-job.names.chart: '"
    ]


def test_the_documentation_check_names_a_helper_without_its_usage(tmp_path: Path) -> None:
    templates = _broken_copy(
        tmp_path, "_job.tpl", 'Usage: {{ include "training-job.pods.total"', "{{"
    )

    assert undocumented_helpers(templates) == [
        "_job.tpl: training-job.pods.total has no 'Usage:' line that includes it"
    ]


def test_the_namespace_check_names_the_helper(tmp_path: Path) -> None:
    templates = _broken_copy(
        tmp_path, "_job.tpl", 'define "training-job.pods.total"', 'define "podsTotal"'
    )

    assert unnamespaced_helpers(templates) == [
        "_job.tpl: podsTotal is not named training-job.<area>.<name>"
    ]


def test_the_framework_check_names_a_helper_outside_its_template(tmp_path: Path) -> None:
    helper = '{{- define "training-job.mpi.hosts" -}}{{- end -}}\n'
    templates = _broken_copy(tmp_path, "_job.tpl", "{{/*", f"{helper}{{{{/*")

    assert unnamespaced_helpers(templates) == [
        "_job.tpl: training-job.mpi.hosts belongs to framework mpi: define it in its kind template"
    ]
    assert misplaced_framework_helpers(templates) == [
        "_job.tpl: training-job.mpi.hosts belongs in mpijob.yaml, its kind template"
    ]


def test_the_generated_template_is_the_generators() -> None:
    text = (TEMPLATES / GENERATED).read_text(encoding="utf-8")

    assert text.startswith(HEADER)
    assert [name for name, _ in _defines(TEMPLATES / GENERATED)] == [
        *(f"training-job.{fw}.info" for fw in _frameworks()),
        ARENA_SUBMITS,
    ]


def test_the_framework_check_names_an_info_written_by_hand(tmp_path: Path) -> None:
    helper = '{{- define "training-job.mpi.info" -}}{{- end -}}\n'
    lead = "{{- /*\ntraining-job.mpi.lead: "
    templates = _broken_copy(tmp_path, "mpijob.yaml", lead, f"{helper}{lead}")

    assert misplaced_framework_helpers(templates) == [
        "mpijob.yaml: training-job.mpi.info is generated from the registry, into _frameworks.tpl"
    ]


def test_the_framework_checks_tell_a_hand_written_frameworks_tpl(tmp_path: Path) -> None:
    templates = _broken_copy(tmp_path, GENERATED, "Generated by", "Written by")

    assert unnamespaced_helpers(templates) == [
        f"_frameworks.tpl: training-job.{fw}.info belongs to framework {fw}: define it in its "
        "kind template"
        for fw in _frameworks()
    ]
    assert misplaced_framework_helpers(templates) == [
        "_frameworks.tpl: missing or not generated: run `trainstack chart generate`"
    ]


def test_the_framework_check_names_an_info_the_generated_template_lacks(tmp_path: Path) -> None:
    templates = _broken_copy(
        tmp_path, GENERATED, 'define "training-job.pytorch.info"', 'define "training-job.x.y"'
    )

    assert misplaced_framework_helpers(templates) == [
        "_frameworks.tpl: no training-job.pytorch.info",
        "_frameworks.tpl: training-job.x.y: it holds only the generated infos",
    ]


def test_the_volume_check_names_a_second_file(tmp_path: Path) -> None:
    templates = _broken_copy(
        tmp_path, "_codesync.tpl", "- name: {{ $volume.name }}", "- name: code-sync"
    )

    assert repeated_volume_names(templates, ["code-sync", "dshm"]) == [
        "volume code-sync is named in _codesync.tpl (1x), _volumes.tpl (1x): state it once, "
        "in _volumes.tpl's training-job.volumes.entries"
    ]


def test_the_rule_names_check_sees_a_dropped_rule(tmp_path: Path) -> None:
    templates = _broken_copy(
        tmp_path, "_validate.tpl", '(include "training-job.validate.gang" .)', ""
    )

    assert (
        rule_names(templates)
        == [name for name in python_rule_names() if name != "gang"]
        != python_rule_names()
    )
