"""The generated files: committed, deterministic, and checked for drift."""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from tests.chart.jobs import CHART_DIR, job_values, render_job
from trainstack.chart.constants import FRAMEWORKS_TEMPLATE, GENERATED_FILES
from trainstack.chart.frameworks_tpl import info_facts
from trainstack.chart.generate import chart_files, check_chart, drift, is_hand_written, write_chart
from trainstack.chart.render import load_chart
from trainstack.core.errors import ChartDriftError, ChartError
from trainstack.training_job.frameworks import FRAMEWORKS


def test_the_committed_chart_is_what_the_generator_writes() -> None:
    # the drift check of CI: fails when the model changed and the chart was not regenerated
    assert drift(CHART_DIR) == []


def test_two_runs_write_byte_identical_charts(tmp_path: Path) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    write_chart(first, CHART_DIR)
    write_chart(second, CHART_DIR)

    names = chart_files(first)
    assert names == chart_files(second)
    assert set(GENERATED_FILES) <= set(names)
    for name in names:
        assert (first / name).read_bytes() == (second / name).read_bytes(), name


def test_output_is_a_complete_chart_that_renders(tmp_path: Path) -> None:
    output = tmp_path / "chart"
    write_chart(output, CHART_DIR)

    assert set(chart_files(output)) == set(chart_files(CHART_DIR))
    check_chart(output)
    job = render_job(job_values("pytorch"), chart_dir=output)
    assert job["kind"] == "PyTorchJob"


@pytest.fixture()
def copy(tmp_path: Path) -> Path:
    target = tmp_path / "training-job"
    shutil.copytree(CHART_DIR, target)
    load_chart.cache_clear()
    return target


def test_drift_names_changed_missing_and_extra_files(copy: Path) -> None:
    (copy / "values.yaml").write_text("framework: mpi\n", encoding="utf-8")
    (copy / "README.md").unlink()
    (copy / "values.schema.json.orig").write_text("{}", encoding="utf-8")

    with pytest.raises(ChartDriftError, match="these files differ") as raised:
        check_chart(copy)
    assert list(raised.value.files) == [
        "README.md: missing",
        "values.yaml: differs from the generator's output",
        "values.schema.json.orig: extra (neither generated nor a hand-written chart file)",
    ]


def test_a_hand_edited_frameworks_template_is_drift(copy: Path) -> None:
    template = copy / FRAMEWORKS_TEMPLATE
    text = template.read_text(encoding="utf-8")
    template.write_text(text.replace('"plural" "mpijobs"', '"plural" "mpijob"'), encoding="utf-8")

    assert not is_hand_written(FRAMEWORKS_TEMPLATE)
    assert drift(copy) == [f"{FRAMEWORKS_TEMPLATE}: differs from the generator's output"]


def test_hand_written_files_are_not_drift(copy: Path) -> None:
    (copy / "ci" / "extra-values.yaml").write_text("framework: mpi\n", encoding="utf-8")
    (copy / "templates" / "configmap.yaml").write_text("", encoding="utf-8")

    assert drift(copy) == []


def test_output_refuses_a_directory_with_unrelated_files(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("mine", encoding="utf-8")

    with pytest.raises(
        ChartError, match=r"holds files that are not part of the chart \(notes\.txt\)"
    ):
        write_chart(tmp_path, CHART_DIR)
    assert (tmp_path / "notes.txt").read_text(encoding="utf-8") == "mine"


def test_generating_needs_the_hand_written_templates(tmp_path: Path) -> None:
    with pytest.raises(ChartError, match="has no templates/"):
        write_chart(tmp_path / "out", tmp_path)


def test_a_framework_setting_without_its_entry_in_settings_py_is_refused() -> None:
    spec = replace(FRAMEWORKS[0], settings=FRAMEWORKS[0].settings | {"mpi.hostfile"})

    with pytest.raises(ChartError, match="framework mpi lists settings .*: mpi.hostfile$"):
        info_facts(spec)


def test_arena_settings_naming_a_role_the_framework_lacks_are_refused() -> None:
    spec = next(spec for spec in FRAMEWORKS if spec.name == "tensorflow")
    assert spec.arena is not None
    broken = replace(spec, arena=replace(spec.arena, hides_gpus=("parameter-server",)))

    with pytest.raises(
        ChartError,
        match=r"framework tensorflow: arena.hides_gpus names no role of it: parameter-server "
        r"\(roles: chief, worker, ps, evaluator\)$",
    ):
        info_facts(broken)
