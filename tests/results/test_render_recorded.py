"""``results add``/``collect`` as text: a line per run recorded or skipped, then the notes."""

from __future__ import annotations

from pathlib import Path

from tests.results.records import record
from trainstack.results.render_recorded import recorded_text
from trainstack.results.store import PendingRun, Written


def _written(run: int, path: Path | None, note: str = "") -> Written:
    kept = record("aiacc", "imagenet-tensorflow", run, {"images_per_sec": (1338.5, "img/s", True)})
    return Written(PendingRun(kept, b"log"), path, kept, note)


def test_each_run_then_the_notes() -> None:
    written = [
        _written(1, Path("/p/results/aiacc/imagenet-tensorflow/run-001.json")),
        _written(2, None, "the same log is already recorded as run 1"),
    ]
    text = recorded_text(written, ["job x: not finished"], lambda path: path.name)

    assert text == (
        "run-001.json: run 1: images_per_sec 1338.5 img/s\n"
        "aiacc/imagenet-tensorflow: skipped: the same log is already recorded as run 1\n"
        "job x: not finished\n"
    )


def test_nothing_recorded_prints_nothing() -> None:
    assert recorded_text([], [], str) == ""
