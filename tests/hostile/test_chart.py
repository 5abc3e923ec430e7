"""``trainstack chart`` on hostile values files and paths: one error line, exit 2."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.hostile.corpus import Case, check_refused, nothing, write
from tests.project_copy import copy_project
from tests.stack_helpers import REPO

VALUES = (REPO / "charts/training-job/ci/mpi-values.yaml").read_text()
RENDER = ("chart", "render", "values.yaml", "--name", "imagenet")


def _values(old: str, new: str) -> str:
    assert old in VALUES
    return VALUES.replace(old, new, 1)


def _link_in_output(root: Path) -> None:
    (root / "elsewhere").mkdir()
    (root / "elsewhere" / "values.yaml").symlink_to(root / "Pulumi.yaml")


def _fifo_in_output(root: Path) -> None:
    (root / "elsewhere").mkdir()
    os.mkfifo(root / "elsewhere" / "values.yaml")


CHART_CASES = [
    Case(
        "alias-bomb",
        write(
            "values.yaml",
            "l0: &l0 [x, x, x, x, x, x, x, x, x, x]\n"
            + "".join(
                f"l{n}: &l{n} [" + ", ".join([f"*l{n - 1}"] * 10) + "]\n" for n in range(1, 9)
            ),
        ),
        ("values.yaml", "aliases expanded"),
        args=RENDER,
        isolate=True,
    ),
    Case(
        "deep-nesting",
        write("values.yaml", "a: " + "{a: " * 100_000 + "1" + "}" * 100_000 + "\n"),
        ("values.yaml", "nested more than 64 deep"),
        args=RENDER,
        isolate=True,
    ),
    Case(
        "endless-device",
        nothing,
        ("/dev/zero", "found a directory, device or pipe"),
        args=("chart", "render", "/dev/zero"),
    ),
    Case(
        "non-utf8",
        write("values.yaml", VALUES.encode() + b"# \xff\n"),
        ("values.yaml", "found the byte 0xff"),
        args=RENDER,
    ),
    Case(
        "a-list",
        write("values.yaml", "- framework: mpi\n"),
        ("values.yaml", "found a list; allowed: a mapping"),
        args=RENDER,
    ),
    Case(
        "binary-tag",
        write("values.yaml", _values("command: sh", "command: !!binary c2g= #")),
        ("values.yaml", "command (line", "the tag !!binary"),
        args=RENDER,
    ),
    Case(
        "replicas-2-to-the-70",
        write("values.yaml", _values("replicas: 4", f"replicas: {2**70}")),
        ("values.yaml", "worker.replicas: found 1.18"),
        args=RENDER,
    ),
    Case(
        "octal-as-helm-reads-it",
        write("values.yaml", _values("replicas: 4", "replicas: 0177777")),
        ("values.yaml", "worker.replicas: found 65535; allowed: a number <= 10000"),
        args=RENDER,
    ),
    Case(
        "release-name-as-a-path",
        write("values.yaml", VALUES),
        ("with --name ../x", "release name"),
        args=("chart", "render", "values.yaml", "--name", "../x"),
    ),
    Case(
        "namespace-with-a-space",
        write("values.yaml", VALUES),
        ('--namespace: found "a b"', "a DNS label"),
        args=("chart", "render", "values.yaml", "--namespace", "a b"),
    ),
    Case(
        "generate-into-a-file",
        write("chart.txt", "notes"),
        ("--output-dir", "chart.txt exists and is not a directory"),
        args=("chart", "generate", "--output-dir", "chart.txt"),
    ),
    Case(
        "generate-over-other-files",
        write("elsewhere/thesis.tex", "years of work"),
        ("elsewhere holds files that are not part of the chart (thesis.tex)",),
        args=("chart", "generate", "--output-dir", "elsewhere"),
    ),
    Case(
        "generate-through-a-symlink",
        _link_in_output,
        ("elsewhere/values.yaml is a symbolic link: writing the chart would follow it",),
        args=("chart", "generate", "--output-dir", "elsewhere"),
    ),
    Case(
        "generate-below-a-file",
        write("chart.txt", "notes"),
        ("cannot write the chart to --output-dir chart.txt/chart", "Not a directory (ENOTDIR)"),
        args=("chart", "generate", "--output-dir", "chart.txt/chart"),
    ),
    Case(
        "generate-where-nothing-can-be-made",  # /proc takes no new directories, even as root
        nothing,
        ("cannot write the chart to --output-dir /proc/trainstack-chart", "(ENOENT)"),
        args=("chart", "generate", "--output-dir", "/proc/trainstack-chart"),
    ),
    Case(
        "generate-onto-a-fifo",  # opening it to write would wait for a reader for ever
        _fifo_in_output,
        ("elsewhere/values.yaml is not a regular file or directory (a FIFO",),
        args=("chart", "generate", "--output-dir", "elsewhere"),
        isolate=True,
    ),
    Case(
        "package-into-a-file",
        write("dist.txt", "notes"),
        ("--output-dir", "dist.txt is a file, not a directory"),
        args=("chart", "package", "--output-dir", "dist.txt"),
    ),
]


@pytest.mark.parametrize("case", CHART_CASES, ids=str)
def test_hostile_chart_input_is_refused_and_changes_nothing(case: Case, tmp_path: Path) -> None:
    check_refused(case, copy_project(tmp_path / "project"), tmp_path)
