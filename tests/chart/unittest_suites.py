"""Run the chart's helm-unittest suites through helm-python-sdk when the plugin is absent.

A small subset of helm-unittest, enough for the suites in charts/training-job/tests/:
suite/test ``values``, ``set`` (dotted keys), ``release``, ``templates``/``template``,
and the assertions listed in ``ASSERTIONS``. An unknown key or assertion fails loudly,
so a suite never passes here by being half understood. Templating is Helm's own.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import helm_python
from ruamel.yaml import YAML

from trainstack.core.values import merged

_SEGMENT = re.compile(r'([^.\[\]]+)|\[(\d+)\]|\["([^"]+)"\]')
_EXECUTION_ERROR = re.compile(r"execution error at \([^)]*\): ", re.S)
_MISSING = object()
SUITE_KEYS = {"suite", "templates", "values", "set", "release", "tests"}
TEST_KEYS = {"it", "values", "set", "release", "template", "asserts"}


@dataclass
class Rendered:
    """What one test rendered: the documents of its templates, or Helm's error."""

    documents: dict[str, list[Any]]
    error: str | None


def load_suite(path: Path) -> dict[str, Any]:
    suite: dict[str, Any] = YAML(typ="safe").load(path.read_text(encoding="utf-8"))
    unknown = set(suite) - SUITE_KEYS
    assert not unknown, f"{path.name}: suite keys this runner does not know: {unknown}"
    return suite


def run_test(
    chart_dir: Path, suite_path: Path, suite: dict[str, Any], test: dict[str, Any]
) -> None:
    """Render one test job and check each of its assertions (AssertionError on failure)."""
    unknown = set(test) - TEST_KEYS
    assert not unknown, f"{test['it']}: test keys this runner does not know: {unknown}"
    values: dict[str, Any] = {}
    for source in (suite, test):
        for name in source.get("values", []):
            text = (suite_path.parent / name).read_text(encoding="utf-8")
            values = merged(values, YAML(typ="safe").load(text))
        for key, value in (source.get("set") or {}).items():
            values = merged(values, _nested(key, value))
    release = {**suite.get("release", {}), **test.get("release", {})}
    templates = [test["template"]] if "template" in test else suite["templates"]
    rendered = _render(chart_dir, values, release, templates)
    for index, assertion in enumerate(test["asserts"]):
        _check(rendered, assertion, f"{suite_path.name}: {test['it']}: asserts[{index}]")


def _nested(dotted: str, value: Any) -> dict[str, Any]:
    for key in reversed(dotted.split(".")):
        value = {key: value}
    return value


def _render(
    chart_dir: Path, values: dict[str, Any], release: dict[str, Any], templates: list[str]
) -> Rendered:
    chart = helm_python.Chart.load(chart_dir)
    try:
        manifests = chart.render(
            values, name=release.get("name", "release-name"), namespace=release.get("namespace")
        )
    except helm_python.HelmError as err:
        return Rendered({}, _EXECUTION_ERROR.sub("", str(err)).strip())
    wanted = {name if name.startswith("templates/") else f"templates/{name}" for name in templates}
    documents: dict[str, list[Any]] = {}
    for path, text in manifests.items():
        relative = path.split("/", 1)[1]
        if relative in wanted:
            parts = re.split(r"(?m)^---\s*$", text)
            documents[relative] = [YAML(typ="safe").load(part) for part in parts if part.strip()]
    return Rendered(documents, None)


def _get(document: Any, path: str) -> Any:
    node = document
    for name, index, quoted in _SEGMENT.findall(path):
        key: Any = int(index) if index else (quoted or name)
        try:
            node = node[key]
        except (KeyError, IndexError, TypeError):
            return _MISSING
    return node


def _check(rendered: Rendered, assertion: dict[str, Any], where: str) -> None:
    negate = bool(assertion.get("not", False))
    kinds = [key for key in assertion if key != "not"]
    assert len(kinds) == 1 and kinds[0] in ASSERTIONS, f"{where}: unsupported {kinds}"
    kind = kinds[0]
    spec = assertion[kind] or {}
    if kind in ("failedTemplate", "notFailedTemplate"):
        ok = _failed(rendered, spec) if kind == "failedTemplate" else rendered.error is None
        assert ok != negate, f"{where}: {kind} {spec}; error was: {rendered.error}"
        return
    assert rendered.error is None, f"{where}: rendering failed: {rendered.error}"
    documents = [doc for docs in rendered.documents.values() for doc in docs]
    if kind == "hasDocuments":
        assert (len(documents) == spec["count"]) != negate, f"{where}: {len(documents)} documents"
        return
    assert documents, f"{where}: no document rendered to assert on"
    for document in documents:
        ok, found = ASSERTIONS[kind](document, spec)
        assert ok != negate, f"{where}: {kind} {spec} failed; found {found!r}"


def _failed(rendered: Rendered, spec: dict[str, Any]) -> bool:
    if rendered.error is None:
        return False
    if "errorMessage" in spec:
        return rendered.error == spec["errorMessage"]
    if "errorPattern" in spec:
        return re.search(spec["errorPattern"], rendered.error) is not None
    return True


def _equal(doc: Any, spec: dict[str, Any]) -> tuple[bool, Any]:
    found = _get(doc, spec["path"])
    return found == spec["value"], found


def _contains(doc: Any, spec: dict[str, Any]) -> tuple[bool, Any]:
    found = _get(doc, spec["path"])
    return isinstance(found, list) and spec["content"] in found, found


def _length(doc: Any, spec: dict[str, Any]) -> tuple[bool, Any]:
    found = _get(doc, spec["path"])
    return isinstance(found, list) and len(found) == spec["count"], found


def _exists(doc: Any, spec: dict[str, Any]) -> tuple[bool, Any]:
    found = _get(doc, spec["path"])
    return found is not _MISSING, found


def _negated(check: Callable[[Any, dict[str, Any]], tuple[bool, Any]]) -> Any:
    def negated(doc: Any, spec: dict[str, Any]) -> tuple[bool, Any]:
        ok, found = check(doc, spec)
        return not ok, found

    return negated


ASSERTIONS: dict[str, Callable[[Any, dict[str, Any]], tuple[bool, Any]]] = {
    "equal": _equal,
    "notEqual": _negated(_equal),
    "contains": _contains,
    "notContains": _negated(_contains),
    "lengthEqual": _length,
    "exists": _exists,
    "notExists": _negated(_exists),
    "isKind": lambda doc, spec: (doc.get("kind") == spec["of"], doc.get("kind")),
    "isAPIVersion": lambda doc, spec: (doc.get("apiVersion") == spec["of"], doc.get("apiVersion")),
    "hasDocuments": _exists,  # handled before the per-document loop
    "failedTemplate": _exists,  # handled before the per-document loop
    "notFailedTemplate": _exists,  # handled before the per-document loop
}
