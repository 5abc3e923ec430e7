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
    describe_value,
)
from trainstack.core.yaml.io import read_yaml


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


def test_values_are_shown_on_one_short_line() -> None:
    assert describe_value("a\nb") == '"a\\nb"'
    assert len(describe_value("x" * 500)) == 80
    assert describe_value(2**70) == "1180591620717411303424"


def test_an_error_formats_the_locations_it_is_given_and_reads_no_file(tmp_path: Path) -> None:
    path = tmp_path / "stack.yaml"
    path.write_text("config:\n  trainstack:a: 1\n")
    read_yaml(path, "stack.yaml")  # the file is known by the name messages give it
    error = ConfigError("stack.yaml", [Problem("trainstack:a", "1", "text")])
    assert error.lines() == [
        "invalid stack configuration in stack.yaml: trainstack:a: found 1; allowed: text"
    ]
    assert error.lines(lambda source, key: f"{source}:7 ({key})") == [
        "invalid stack configuration in stack.yaml:7 (trainstack:a): trainstack:a: found 1; "
        "allowed: text"
    ]
    several = InvalidExperimentsError([error, error])
    assert (
        several.lines(lambda source, _: f"{source}:7")
        == ["invalid stack configuration in stack.yaml:7: trainstack:a: found 1; allowed: text"] * 2
    )


def test_a_problem_about_two_keys_locates_both() -> None:
    problem = Problem("trainstack:b.version", '"1"', "text", ("trainstack:a.version",))
    error = ConfigError("stack.yaml", [problem])
    lines = {"trainstack:b.version": 9, "trainstack:a.version": 4}
    assert error.lines(lambda source, key: f"{source}:{lines[key]}") == [
        "invalid stack configuration in stack.yaml:9 and stack.yaml:4 (trainstack:a.version): "
        'trainstack:b.version: found "1"; allowed: text'
    ]
