"""Render the training-job chart with Helm's own engine (helm-python-sdk), offline.

``render_training_job`` is the library entry point of the plan engine: values are
validated by the model (the same rules as values.schema.json and validateValues, which
the tests hold in agreement), then Helm renders the templates. The chart is loaded once
per process; the plan path loads it without values.schema.json because Helm compiles
that schema on every render (about 20 ms, three times the render itself) and the model
has already checked the values. ``trainstack chart render`` keeps Helm's check.
"""

from __future__ import annotations

import functools
import io
import re
import tarfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import helm_python

from trainstack.chart.constants import CHART_NAME
from trainstack.chart.paths import repo_chart_dir
from trainstack.core.errors import ChartError, ValuesError
from trainstack.training_job import release_name_problems, validate_values

NOTES = "NOTES.txt"
_DOCUMENT_SEPARATOR = re.compile(r"(?m)^---\s*$")
_SCHEMA_FILE = "values.schema.json"


@functools.lru_cache(maxsize=8)
def load_chart(chart_dir: Path, *, with_schema: bool = True) -> helm_python.Chart:
    """The chart at ``chart_dir``, loaded once per process (charts are immutable)."""
    try:
        if with_schema:
            return helm_python.Chart.load(chart_dir)
        return helm_python.Chart.load_archive(_archive_without_schema(chart_dir))
    except (helm_python.HelmError, OSError) as err:
        raise ChartError(f"cannot load the chart at {chart_dir}: {err}") from err


def _archive_without_schema(chart_dir: Path) -> bytes:
    """The chart as an in-memory .tgz, minus values.schema.json."""
    if not (chart_dir / "Chart.yaml").is_file():
        raise ChartError(
            f"{chart_dir} is not a chart: no Chart.yaml; run `trainstack chart generate`"
        )
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        for path in sorted(chart_dir.rglob("*")):
            relative = path.relative_to(chart_dir).as_posix()
            if path.is_file() and relative != _SCHEMA_FILE and not relative.startswith("tests/"):
                archive.add(path, arcname=f"{CHART_NAME}/{relative}")
    return buffer.getvalue()


def render_manifests(
    values: Mapping[str, Any],
    *,
    release: str,
    namespace: str,
    chart_dir: Path | None = None,
    schema_check: bool = True,
) -> dict[str, str]:
    """Template path -> rendered text, NOTES and empty templates left out, sorted by path.

    Helm's schema check and the chart's validateValues run here; their messages are
    passed on unchanged in a :class:`ChartError`.
    """
    chart = load_chart((chart_dir or repo_chart_dir()).resolve(), with_schema=schema_check)
    try:
        rendered = chart.render(dict(values), name=release, namespace=namespace)
    except helm_python.HelmValuesError as err:
        raise ChartError(f"Helm rejected the values of release {release}: {err}") from err
    except helm_python.HelmError as err:
        raise ChartError(f"Helm could not render release {release}: {err}") from err
    return {
        path: text
        for path, text in sorted(rendered.items())
        if not path.endswith(NOTES) and text.strip()
    }


def parse_manifests(manifests: Mapping[str, str]) -> list[dict[str, Any]]:
    """The objects of rendered manifests, in template order then document order.

    Parsed by Helm's own YAML reader (the one kubectl and the API server share), so a
    value means here what it will mean in the cluster.
    """
    objects: list[dict[str, Any]] = []
    for path, text in manifests.items():
        for document in _DOCUMENT_SEPARATOR.split(text):
            if not document.strip():
                continue
            try:
                parsed = helm_python.values_from_yaml(document)
            except helm_python.HelmError as err:
                raise ChartError(f"{path} rendered invalid YAML: {err}") from err
            if parsed:
                objects.append(parsed)
    return objects


def render_training_job(
    values: Mapping[str, Any],
    *,
    release: str,
    namespace: str,
    chart_dir: Path | None = None,
) -> list[dict[str, Any]]:
    """The Kubernetes objects of one training job, as dicts, in a deterministic order.

    Raises :class:`ValuesError` (invalid values or release name, every problem listed)
    or :class:`ChartError` (the chart cannot be loaded or rendered).
    """
    source = f"the values of release {release!r}"
    job = validate_values(values, source)
    problems = release_name_problems(release, job)
    if problems:
        raise ValuesError(source, problems)
    manifests = render_manifests(
        job.chart_values(),
        release=release,
        namespace=namespace,
        chart_dir=chart_dir,
        schema_check=False,
    )
    objects = parse_manifests(manifests)
    if not objects:
        raise ChartError(f"the chart rendered no object for release {release}")
    return objects
