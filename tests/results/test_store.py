"""Results files: atomic, never overwritten, validated when read."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.results.records import record
from trainstack.core.errors import ResultsFileError
from trainstack.results.store import (
    PendingRun,
    read_experiment_runs,
    read_record,
    record_json,
    write_runs,
)


def _pending(log: str, wanted: int | None = None) -> PendingRun:
    rec = record(
        "aiacc", "imagenet-tensorflow", 1, {"images_per_sec": (1344.0, "images/sec", True)}, log=log
    )
    return PendingRun(rec, log.encode(), wanted)


def _display(path: Path) -> str:
    return path.name


def test_runs_get_their_own_numbers_and_files(tmp_path: Path) -> None:
    written = write_runs(tmp_path, [_pending("one"), _pending("two", wanted=5)], _display)
    assert [w.record.run for w in written] == [1, 5]
    directory = tmp_path / "results" / "aiacc" / "imagenet-tensorflow"
    assert sorted(p.name for p in directory.iterdir()) == [
        "run-001.json",
        "run-001.log",
        "run-005.json",
        "run-005.log",
    ]
    assert (directory / "run-005.log").read_bytes() == b"two"
    assert json.loads((directory / "run-005.json").read_text())["log"]["file"] == "run-005.log"


def test_a_taken_run_number_gets_a_new_one_and_the_same_log_is_skipped(tmp_path: Path) -> None:
    write_runs(tmp_path, [_pending("one", wanted=1)], _display)
    again = write_runs(tmp_path, [_pending("one", wanted=1), _pending("other", wanted=1)], _display)
    assert again[0].path is None and again[0].note == "the same log is already recorded as run 1"
    assert again[1].record.run == 2
    assert "run 1 is already recorded with another log" in again[1].note
    directory = tmp_path / "results" / "aiacc" / "imagenet-tensorflow"
    assert (directory / "run-001.log").read_bytes() == b"one"  # untouched
    assert not [p for p in directory.iterdir() if p.name.startswith(".")]  # no temporary files


def test_same_record_same_bytes() -> None:
    first = record_json(_pending("log").record)
    assert first == record_json(_pending("log").record)
    assert first.endswith("}\n") and '  "baseValuesDigest"' in first


def test_set_values_are_written_only_when_a_run_had_some(tmp_path: Path) -> None:
    plain = json.loads(record_json(_pending("log").record))
    assert "overrides" not in plain  # a run without any: the bytes of before
    ran = record("aiacc", "x", 1, {}, log="l", overrides={"worker": {"gpus": 2}})
    written = json.loads(record_json(ran))
    assert written["overrides"] == {"worker": {"gpus": 2}}
    (stored,) = write_runs(tmp_path, [PendingRun(ran, b"l")], _display)
    assert stored.path is not None
    assert read_record(stored.path, _display).overrides == {"worker": {"gpus": 2}}


def test_invalid_json_names_the_file_and_where(tmp_path: Path) -> None:
    write_runs(tmp_path, [_pending("one")], _display)
    path = tmp_path / "results" / "aiacc" / "imagenet-tensorflow" / "run-001.json"
    path.write_text(path.read_text().replace('"run": 1,', '"run": 1'))
    with pytest.raises(
        ResultsFileError,
        match=r"invalid results file in run-001\.json: \(document\): found invalid JSON "
        r"\(Expecting ',' delimiter at line \d+ column \d+\); allowed: a results file",
    ):
        read_experiment_runs(path.parent, _display)


def test_a_bad_value_names_the_key(tmp_path: Path) -> None:
    write_runs(tmp_path, [_pending("one")], _display)
    path = tmp_path / "results" / "aiacc" / "imagenet-tensorflow" / "run-001.json"
    document = json.loads(path.read_text())
    document["metrics"]["images_per_sec"]["value"] = "fast"
    path.write_text(json.dumps(document))
    with pytest.raises(ResultsFileError, match=r"metrics\.images_per_sec\.value: found \"fast\""):
        read_record(path, _display)
    document["metrics"]["images_per_sec"]["value"] = 1.0
    document["run"] = 2
    path.write_text(json.dumps(document))
    with pytest.raises(ResultsFileError, match=r"run: found 2; allowed: 1, as in the file's path"):
        read_record(path, _display)


def test_a_job_annotated_run_0_is_never_written_as_run_000(tmp_path: Path) -> None:
    # `compare` refuses run-000.json (run: a number >= 1): collect must never write it.
    (written,) = write_runs(tmp_path, [_pending("zero", wanted=0)], _display)
    assert written.record.run == 1
    assert written.note == "the job's run number 0 is not >= 1; recorded as a new run"
    directory = tmp_path / "results" / "aiacc" / "imagenet-tensorflow"
    assert (directory / "run-001.json").exists() and not (directory / "run-000.json").exists()


def test_two_files_claiming_one_run_number_are_refused(tmp_path: Path) -> None:
    write_runs(tmp_path, [_pending("one")], _display)
    directory = tmp_path / "results" / "aiacc" / "imagenet-tensorflow"
    (directory / "run-0001.json").write_bytes((directory / "run-001.json").read_bytes())
    with pytest.raises(
        ResultsFileError,
        match=r"in run-001.json: run: found 1; allowed: a run "
        r"number of its own; run-0001.json has it",
    ):
        read_experiment_runs(directory, _display)


def test_a_kept_log_is_checked_against_its_record(tmp_path: Path) -> None:
    from trainstack.results.logcheck import log_problem

    write_runs(tmp_path, [_pending("the log as recorded")], _display)
    directory = tmp_path / "results" / "aiacc" / "imagenet-tensorflow"
    (run,) = read_experiment_runs(directory, _display)
    assert log_problem(run, _display) == ""
    log = directory / "run-001.log"
    log.write_text("the log as recorded, then edited")
    assert log_problem(run, _display).startswith("run-001.log has 32 bytes, its record 19")
    log.write_text("THE LOG AS RECORDED")  # same size, other bytes
    assert "run-001.log has sha256 " in log_problem(run, _display)
    log.unlink()
    assert log_problem(run, _display) == "run-001.log is missing: the log its run was read from"
    os.mkfifo(log)  # never opened: a FIFO would wait for a writer for ever
    assert log_problem(run, _display) == (
        "run-001.log is not a regular file (a link or a special file): not read"
    )
