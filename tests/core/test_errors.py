"""Errors print one self-contained line per problem."""

from __future__ import annotations

from pathlib import Path

from trainstack.core.errors import (
    ConfigError,
    DiffError,
    EnvironmentVariableError,
    InvalidExperimentsError,
    PlanCheckError,
    Problem,
)


def test_each_problem_of_a_file_is_its_own_line() -> None:
    error = ConfigError(
        "stacks/Pulumi.x.yaml",
        [Problem("trainstack:a", "1", "text"), Problem("trainstack:b", "2", "text")],
    )
    assert error.lines() == [
        "invalid stack configuration in stacks/Pulumi.x.yaml: trainstack:a: found 1; allowed: text",
        "invalid stack configuration in stacks/Pulumi.x.yaml: trainstack:b: found 2; allowed: text",
    ]


def test_each_failed_check_is_its_own_line() -> None:
    error = PlanCheckError(["e.yaml: experiment e: job.worker.gpus: too many"])
    assert error.lines() == [
        "plan-time check failed: e.yaml: experiment e: job.worker.gpus: too many"
    ]


def test_other_errors_are_their_lines() -> None:
    assert DiffError("first\nsecond").lines() == ["first", "second"]
    assert EnvironmentVariableError("X", "y", "z").lines() == [
        "environment variable X: found y; allowed: z"
    ]


def test_an_error_formats_the_locations_it_is_given_and_reads_no_file(tmp_path: Path) -> None:
    path = tmp_path / "stack.yaml"
    path.write_text("config:\n  trainstack:a: 1\n")
    # The error carries its file by the name messages give it; the locator is handed it.
    error = ConfigError("stack.yaml", [Problem("trainstack:a", "1", "text")], {"stack.yaml": path})
    assert error.lines() == [
        "invalid stack configuration in stack.yaml: trainstack:a: found 1; allowed: text"
    ]
    assert error.lines(lambda source, key, files: f"{source}:7 ({key}, {files[source].name})") == [
        "invalid stack configuration in stack.yaml:7 (trainstack:a, stack.yaml): trainstack:a: "
        "found 1; allowed: text"
    ]
    several = InvalidExperimentsError([error, error])
    assert (
        several.lines(lambda source, _, files: f"{source}:{len(files)}")
        == ["invalid stack configuration in stack.yaml:1: trainstack:a: found 1; allowed: text"] * 2
    )


def test_files_read_above_are_added_to_an_error_raised_below(tmp_path: Path) -> None:
    """A check deep down names the stack file; the loader, which read it, adds where it is
    (every file's error of a group too)."""
    error = ConfigError("stack.yaml", [Problem("trainstack:a", "1", "text")])
    several = InvalidExperimentsError([error])
    assert several.reading({"stack.yaml": tmp_path}) is several
    assert error.source_files == {"stack.yaml": tmp_path}
    own = ConfigError("stack.yaml", [], {"stack.yaml": tmp_path / "own"})
    assert own.reading({"stack.yaml": tmp_path}).source_files == {"stack.yaml": tmp_path / "own"}


def test_a_problem_about_two_keys_locates_both() -> None:
    problem = Problem("trainstack:b.version", '"1"', "text", ("trainstack:a.version",))
    error = ConfigError("stack.yaml", [problem])
    lines = {"trainstack:b.version": 9, "trainstack:a.version": 4}
    assert error.lines(lambda source, key, _: f"{source}:{lines[key]}") == [
        "invalid stack configuration in stack.yaml:9 and stack.yaml:4 (trainstack:a.version): "
        'trainstack:b.version: found "1"; allowed: text'
    ]
