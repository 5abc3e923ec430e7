"""Text output: plain and byte-identical when not a terminal, coloured when it is."""

from __future__ import annotations

import io
from pathlib import Path

from tests.diff.plan_dirs import write_plan_dir
from trainstack.diff.compare import compare
from trainstack.diff.render_text import text_lines, write_lines
from trainstack.diff.snapshot import load_snapshot


def _render(tmp_path: Path, colour: bool) -> str:
    first = write_plan_dir(tmp_path / "a", "aiacc", {"resnet": 2, "bert": 1})
    second = write_plan_dir(tmp_path / "b", "baseline", {"resnet": 4, "bert": 1})
    stream = io.StringIO()
    result = compare(load_snapshot(first), load_snapshot(second), "aiacc", "baseline")
    write_lines(text_lines([result]), stream, colour)
    return stream.getvalue()


def test_plain_text_has_summary_list_and_diffs(tmp_path: Path) -> None:
    output = _render(tmp_path, colour=False)

    lines = output.splitlines()
    assert (
        lines[0] == "trainstack diff aiacc -> baseline: 0 added, 0 removed, 2 changed, 2 unchanged"
    )
    assert lines[1:3] == [
        "  changed  MPIJob default/resnet",
        "  changed  kubernetes:helm.sh/v3:Release resnet-release",
    ]
    assert "--- aiacc: MPIJob default/resnet" in lines
    assert "+++ baseline: MPIJob default/resnet" in lines
    assert "bert" not in output
    assert "\x1b[" not in output


def test_terminal_output_is_coloured(tmp_path: Path) -> None:
    output = _render(tmp_path, colour=True)

    assert "\x1b[" in output
    assert "replicas: 4" in output
