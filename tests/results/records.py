"""Results records built in memory for the compare, scaling and store tests."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from trainstack.results.record import RunRecord
from trainstack.results.store import StoredRun

DIGEST_A = "sha256:" + "a" * 64
DIGEST_B = "sha256:" + "b" * 64


def record(
    stack: str,
    experiment: str,
    run: int,
    metrics: dict[str, tuple[float, str, bool]],
    digest: str = DIGEST_A,
    shape: tuple[int, int, int] = (16, 4, 4),
    log: str = "",
    overrides: dict[str, Any] | None = None,
) -> RunRecord:
    """One run; ``metrics`` maps a name to (value, unit, higher is better); ``overrides``:
    the ``--set`` values of a run of ``trainstack run``."""
    document: dict[str, Any] = {
        "format": "trainstack-results/1",
        "stack": stack,
        "experiment": experiment,
        "run": run,
        "source": "log file",
        "baseValuesDigest": digest,
        "shape": {"gpus": shape[0], "workers": shape[1], "gpusPerWorker": shape[2]},
        "log": {
            "file": f"run-{run:03d}.log",
            "sha256": hashlib.sha256((log or f"{stack}{experiment}{run}").encode()).hexdigest(),
            "bytes": len((log or f"{stack}{experiment}{run}").encode()),
            "truncated": False,
        },
        "metrics": {
            name: {"value": value, "unit": unit, "higherIsBetter": higher, "parser": "test"}
            for name, (value, unit, higher) in metrics.items()
        },
    }
    if overrides is not None:
        document["overrides"] = overrides
    return RunRecord.model_validate(document)


def stored(*records: RunRecord) -> list[StoredRun]:
    """Records as if read from ``results/``."""
    return [StoredRun(Path(f"run-{r.run:03d}.json"), r) for r in records]


def images(stack: str, values: list[float], digest: str = DIGEST_A) -> list[StoredRun]:
    """Runs 1..N of imagenet-tensorflow with these images/sec."""
    return stored(
        *(
            record(
                stack,
                "imagenet-tensorflow",
                run,
                {"images_per_sec": (v, "images/sec", True)},
                digest,
            )
            for run, v in enumerate(values, start=1)
        )
    )


def flagged(run: StoredRun, kind: str = "throttled", reason: str = "seen") -> StoredRun:
    """``run`` with telemetry that flags it (``kind``, ``reason``)."""
    telemetry = {
        "source": "Prometheus at http://prometheus.test",
        "query": "{}",
        "start": "2024-05-06T10:00:00Z",
        "end": "2024-05-06T10:25:00Z",
        "stepSeconds": 15,
        "gpus": 16,
        "fields": {},
        "series": {},
        "nodes": [],
        "notExported": [],
        "smActiveFloor": 0.3,
        "flags": [{"kind": kind, "reason": reason}],
        "notes": [],
    }
    document = run.record.model_dump(mode="json", by_alias=True)
    return StoredRun(run.path, RunRecord.model_validate({**document, "telemetry": telemetry}))


def failed(run: StoredRun) -> StoredRun:
    """``run`` as a collected run whose job failed."""
    job = {"kind": "MPIJob", "name": "imagenet-tensorflow", "namespace": "vision",
           "phase": "Failed"}  # fmt: skip
    document = run.record.model_dump(mode="json", by_alias=True)
    return StoredRun(run.path, RunRecord.model_validate({**document, "job": job}))
