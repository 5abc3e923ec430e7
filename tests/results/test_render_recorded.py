"""``results add``/``collect`` as text: a line per run recorded or skipped, then the notes."""

from __future__ import annotations

from pathlib import Path

from tests.results.records import failed, flagged, record, stored
from trainstack.results.record import JobInfo
from trainstack.results.render_recorded import recorded_text, telemetry_phrase
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


def test_a_collected_run_says_its_telemetry() -> None:
    kept = record("aiacc", "imagenet-tensorflow", 1, {"images_per_sec": (1338.5, "img/s", True)})
    job = {"kind": "MPIJob", "name": "imagenet-tensorflow", "namespace": "vision",
           "phase": "Succeeded"}  # fmt: skip
    collected = kept.model_copy(update={"source": "cluster", "job": JobInfo.model_validate(job)})
    written = [Written(PendingRun(collected, b"log"), Path("run-001.json"), collected)]
    assert recorded_text(written, [], lambda path: path.name) == (
        "run-001.json: run 1: images_per_sec 1338.5 img/s; telemetry not collected\n"
    )
    flagged_run = flagged(stored(collected)[0], "xid-error").record
    failed_run = failed(stored(flagged_run)[0]).record
    assert telemetry_phrase(failed_run) == (
        "failed; telemetry of 16 GPU(s) on 0 node(s); flagged: xid-error"
    )
