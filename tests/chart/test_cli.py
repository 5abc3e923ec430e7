"""``trainstack chart ...`` end to end: exit status, output, and one-line errors."""

from __future__ import annotations

import shutil
import sys
import tarfile
from pathlib import Path

import pytest

from tests.chart.jobs import CHART_DIR
from tests.stack_helpers import REPO
from trainstack import cli

Monkeypatch = pytest.MonkeyPatch
Capsys = pytest.CaptureFixture[str]


def run(monkeypatch: Monkeypatch, capsys: Capsys, *args: str) -> tuple[int, str, str]:
    """Run the CLI in-process from the project root; return (status, stdout, stderr)."""
    monkeypatch.chdir(REPO)
    monkeypatch.setattr(sys, "argv", ["trainstack", *args])
    try:
        cli.main()
        status = 0
    except SystemExit as done:
        status = int(done.code or 0)
    out, err = capsys.readouterr()
    return status, out, err


def test_generate_writes_a_complete_chart_to_output(
    monkeypatch: Monkeypatch, capsys: Capsys, tmp_path: Path
) -> None:
    status, out, _ = run(monkeypatch, capsys, "chart", "generate", "--output-dir", str(tmp_path))

    assert status == 0
    assert f"wrote 6 generated files to {tmp_path}" in out
    assert (tmp_path / "templates" / "mpijob.yaml").is_file()
    for name in ("values.yaml", "templates/_frameworks.tpl", "templates/_constants.tpl"):
        assert (tmp_path / name).read_bytes() == (CHART_DIR / name).read_bytes(), name


def test_check_passes_on_the_committed_chart(monkeypatch: Monkeypatch, capsys: Capsys) -> None:
    status, out, _ = run(monkeypatch, capsys, "chart", "check")

    assert status == 0
    assert "is up to date with the model" in out


def test_check_fails_naming_the_files(
    monkeypatch: Monkeypatch, capsys: Capsys, tmp_path: Path
) -> None:
    copy = tmp_path / "training-job"
    shutil.copytree(CHART_DIR, copy)
    (copy / "values.schema.json").write_text("{}\n", encoding="utf-8")

    status, _, err = run(monkeypatch, capsys, "chart", "check", "--chart-dir", str(copy))

    assert status == 2
    assert err.startswith("error: ")
    assert "values.schema.json: differs from the generator's output" in err
    assert "run `trainstack chart generate`" in err
    assert "Traceback" not in err


def test_render_prints_the_manifests(monkeypatch: Monkeypatch, capsys: Capsys) -> None:
    values = CHART_DIR / "ci" / "mpi-values.yaml"
    status, out, _ = run(
        monkeypatch,
        capsys,
        "chart",
        "render",
        str(values),
        "--name",
        "imagenet",
        "--namespace",
        "v",
    )

    assert status == 0
    assert out.startswith("---\n# Source: training-job/templates/mpijob.yaml\n")
    assert "kind: MPIJob" in out
    assert 'name: "imagenet"' in out
    assert "NOTES" not in out


def test_render_reports_invalid_values_in_one_message(
    monkeypatch: Monkeypatch, capsys: Capsys, tmp_path: Path
) -> None:
    values = tmp_path / "bad.yaml"
    values.write_text("framework: mpi\nimage: {name: x}\ncommand: c\nworker: {replicas: 0}\n")

    status, out, err = run(monkeypatch, capsys, "chart", "render", str(values))

    assert (status, out) == (2, "")
    assert err == (
        # Line 4 of the file: worker: {replicas: 0}.
        f"error: invalid chart values in {values}:4: worker.replicas: found 0; "
        "allowed: at least 1 with framework mpi\n"
    )


def test_render_of_an_experiment_file_points_to_stack(
    monkeypatch: Monkeypatch, capsys: Capsys
) -> None:
    status, out, err = run(
        monkeypatch, capsys, "chart", "render", "experiments/imagenet-tensorflow.yaml"
    )

    assert (status, out) == (2, "")
    (line,) = err.splitlines()
    assert "job: found an experiment file" in line
    assert "`trainstack chart render --stack STACK experiments/imagenet-tensorflow.yaml`" in line


def test_render_names_the_release_after_the_file(
    monkeypatch: Monkeypatch, capsys: Capsys, tmp_path: Path
) -> None:
    values = tmp_path / "ResNet_50.yaml"
    values.write_text("framework: pytorch\nimage: {name: x}\ncommand: c\n")

    status, out, _ = run(monkeypatch, capsys, "chart", "render", str(values))

    assert status == 0
    assert 'name: "resnet-50"' in out


def test_package_writes_an_archive(
    monkeypatch: Monkeypatch, capsys: Capsys, tmp_path: Path
) -> None:
    status, out, _ = run(monkeypatch, capsys, "chart", "package", "--output-dir", str(tmp_path))

    archive = tmp_path / "training-job-0.1.0.tgz"
    assert status == 0
    assert f"packaged {archive}" in out
    with tarfile.open(archive) as opened:
        names = opened.getnames()
    assert "training-job/values.schema.json" in names
    assert "training-job/templates/_pod.tpl" in names
    assert not any(name.startswith("training-job/tests/") for name in names)
