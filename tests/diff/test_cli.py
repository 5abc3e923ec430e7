"""``trainstack diff`` as a user runs it: output, determinism and exit status 0 / 1 / 2."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from tests.diff.plan_dirs import write_plan_dir
from tests.stack_helpers import REPO
from trainstack.cli import main


def run(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *args: str
) -> tuple[int, str, str]:
    """Run the real entry point; returns exit status, stdout and stderr."""
    monkeypatch.setattr(sys, "argv", ["trainstack", "diff", *args])
    with pytest.raises(SystemExit) as stop:
        main()
    captured = capsys.readouterr()
    return int(stop.value.code or 0), captured.out, captured.err


@pytest.fixture()
def plans(tmp_path: Path) -> tuple[str, str]:
    """Two plan directories that differ in one experiment's worker count."""
    first = write_plan_dir(tmp_path / "a", "aiacc", {"resnet": 2, "bert": 1})
    second = write_plan_dir(tmp_path / "b", "baseline", {"resnet": 4, "bert": 1})
    return str(first), str(second)


def test_no_changes_exits_0(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], plans: tuple[str, str]
) -> None:
    status, out, _ = run(monkeypatch, capsys, "--plans", plans[0], plans[0])

    assert status == 0
    assert out.startswith(
        f"trainstack diff {plans[0]} -> {plans[0]}: 0 added, 0 removed, 0 changed"
    )


def test_changes_exit_1(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], plans: tuple[str, str]
) -> None:
    status, out, _ = run(monkeypatch, capsys, "--plans", *plans)

    assert status == 1
    assert "+      replicas: 4" in out


@pytest.mark.parametrize("output_format", ["text", "markdown"])
def test_same_input_gives_identical_bytes(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    plans: tuple[str, str],
    output_format: str,
) -> None:
    outputs = [
        run(monkeypatch, capsys, "--plans", *plans, "--format", output_format)[1] for _ in range(2)
    ]

    assert outputs[0] == outputs[1]
    assert "replicas: 4" in outputs[0]


def test_same_stack_twice_exits_0(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(REPO)

    status, out, _ = run(monkeypatch, capsys, "aiacc", "aiacc")

    assert status == 0
    assert ": 0 added, 0 removed, 0 changed," in out.splitlines()[0]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["aiacc"], r"give two stacks to compare .* found 1"),
        (["aiacc", "nosuch"], r"stack 'nosuch' has no configuration file"),
        (["--base", "HEAD", "--plans", "x", "y"], r"either --base GIT_REF or --plans"),
        (["--base", "HEAD", "--fairness"], r"--fairness compares two stacks"),
        (["--plans", "missing-a", "missing-b"], r"no plan in missing-a: resources.json is missing"),
        (["--base", "no-such-ref-xyz", "aiacc"], r"unknown git revision 'no-such-ref-xyz'"),
    ],
)
def test_errors_exit_2_with_one_line_on_stderr(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    args: list[str],
    message: str,
) -> None:
    monkeypatch.chdir(REPO)

    status, out, err = run(monkeypatch, capsys, *args)

    assert status == 2
    assert out == ""
    assert err.startswith("error: ")
    assert re.search(message, err)
