"""Write the generated chart files, and compare a chart directory with what they should be.

Hand-written files (the templates but ``_frameworks.tpl`` and ``_constants.tpl``,
helm-unittest suites, example values, .helmignore) live only in the repository's chart;
``--output-dir`` copies them next to freshly generated ones.
"""

from __future__ import annotations

import errno
import shutil
from collections.abc import Callable
from fnmatch import fnmatch
from pathlib import Path

from trainstack.chart.chart_yaml import chart_yaml_text
from trainstack.chart.constants import (
    CONSTANTS_TEMPLATE,
    FRAMEWORKS_TEMPLATE,
    GENERATED_FILES,
    HAND_WRITTEN_PATTERNS,
)
from trainstack.chart.constants_tpl import constants_tpl_text
from trainstack.chart.frameworks_tpl import frameworks_tpl_text
from trainstack.chart.readme import readme_text
from trainstack.chart.schema import schema_text
from trainstack.chart.values_yaml import values_text
from trainstack.core.errors import ChartDriftError, ChartError

_WRITERS: dict[str, Callable[[], str]] = {
    "Chart.yaml": chart_yaml_text,
    "README.md": readme_text,
    "values.schema.json": schema_text,
    "values.yaml": values_text,
    FRAMEWORKS_TEMPLATE: frameworks_tpl_text,
    CONSTANTS_TEMPLATE: constants_tpl_text,
}


def generated_files() -> dict[str, str]:
    """Relative path -> text of every generated file."""
    if sorted(_WRITERS) != sorted(GENERATED_FILES):
        raise ChartError(f"generator writes {sorted(_WRITERS)}, expected {GENERATED_FILES}")
    return {name: _WRITERS[name]() for name in GENERATED_FILES}


def chart_files(chart_dir: Path) -> list[str]:
    """Every file under ``chart_dir``, as sorted POSIX paths relative to it."""
    return sorted(p.relative_to(chart_dir).as_posix() for p in chart_dir.rglob("*") if p.is_file())


def is_hand_written(name: str) -> bool:
    """Whether ``name`` (relative to the chart) is one of the hand-written chart files."""
    return name not in GENERATED_FILES and any(
        fnmatch(name, pattern) for pattern in HAND_WRITTEN_PATTERNS
    )


def write_chart(output: Path, source: Path) -> list[Path]:
    """Write a complete chart to ``output``: hand-written files from ``source``, then the
    generated ones. Returns the generated files written."""
    if not (source / "templates").is_dir():
        raise ChartError(f"{source} has no templates/: it is not the repository's chart")
    try:
        _refuse_links(output)
        if output.resolve() != source.resolve():
            _copy_hand_written(source, output)
        written = []
        for name, text in generated_files().items():
            target = output / name
            target.parent.mkdir(parents=True, exist_ok=True)
            # newline="\n": byte-identical output on every platform
            with target.open("w", encoding="utf-8", newline="\n") as handle:
                handle.write(text)
            written.append(target)
    except OSError as error:
        code = errno.errorcode.get(error.errno or 0, "")
        reason = f"{error.strerror} ({code})" if error.strerror and code else str(error)
        where = "" if str(error.filename or output) == str(output) else f"{error.filename}: "
        raise ChartError(
            f"cannot write the chart to --output-dir {output}: {where}{reason}"
        ) from None
    return written


def _refuse_links(output: Path) -> None:
    """A symbolic link in the output would be written through: refused, never followed."""
    if output.is_symlink():
        raise ChartError(f"--output-dir {output} is a symbolic link; give a real directory")
    if output.is_dir():
        for path in sorted(output.rglob("*")):
            if path.is_symlink():
                raise ChartError(
                    f"{path} is a symbolic link: writing the chart would follow it; remove it"
                )
            if not (path.is_file() or path.is_dir()):  # a FIFO would block the write
                raise ChartError(
                    f"{path} is not a regular file or directory (a FIFO, device or socket): "
                    "remove it"
                )


def _copy_hand_written(source: Path, output: Path) -> None:
    if output.exists() and not output.is_dir():
        raise ChartError(f"--output-dir {output} exists and is not a directory")
    strangers = [
        name
        for name in (chart_files(output) if output.is_dir() else [])
        if not (is_hand_written(name) or name in GENERATED_FILES)
    ]
    if strangers:
        listed = ", ".join(strangers)
        raise ChartError(
            f"--output-dir {output} holds files that are not part of the chart ({listed}); "
            "choose an empty directory"
        )
    for name in chart_files(source):
        if is_hand_written(name):
            target = output / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source / name, target)


def drift(chart_dir: Path) -> list[str]:
    """What differs between ``chart_dir`` and the generator, one line per file."""
    if not chart_dir.is_dir():
        return [f"{chart_dir}: missing (the whole chart)"]
    present = set(chart_files(chart_dir))
    found: list[str] = []
    for name, text in generated_files().items():
        if name not in present:
            found.append(f"{name}: missing")
        elif (chart_dir / name).read_bytes() != text.encode("utf-8"):
            found.append(f"{name}: differs from the generator's output")
    for name in sorted(present):
        if name not in GENERATED_FILES and not is_hand_written(name):
            found.append(f"{name}: extra (neither generated nor a hand-written chart file)")
    return found


def check_chart(chart_dir: Path) -> None:
    """Raise :class:`ChartDriftError` naming every differing, missing or extra file."""
    problems = drift(chart_dir)
    if problems:
        raise ChartDriftError(chart_dir, problems)
