"""Read and write results files: validated on read, atomic and never overwritten on write."""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from trainstack.core.describe import describe_value
from trainstack.core.errors import Problem, ResultsError, ResultsFileError
from trainstack.core.files import link_leaving, open_regular, outside_problem, read_at_most
from trainstack.core.json_depth import ALLOWED_DEPTH, TOO_DEEP, TOO_MANY_DIGITS, raw_too_deep
from trainstack.core.limits import MAX_FILE_BYTES
from trainstack.core.validation import problems_from
from trainstack.results.lock import stack_lock
from trainstack.results.paths import (
    experiment_dir,
    inside,
    log_name,
    record_name,
    run_number,
    stack_dir,
)
from trainstack.results.record import RunRecord

Display = Callable[[Path], str]
_RESTORE = (
    "a results file as `trainstack results` writes it: restore it with `git checkout -- FILE`, "
    "or delete it and the log beside it"
)


@dataclass(frozen=True)
class StoredRun:
    """A results file read back, and where it is."""

    path: Path
    record: RunRecord


@dataclass(frozen=True)
class PendingRun:
    """A run to record: its record (run number and log file name still to be set) and log."""

    record: RunRecord
    log: bytes
    wanted_run: int | None = None
    """The run number to use when free (the job's run annotation); otherwise the next one."""


@dataclass(frozen=True)
class Written:
    """What :func:`write_runs` did with one pending run."""

    pending: PendingRun
    path: Path | None
    """The new results file, or ``None`` when an identical log was already recorded."""
    record: RunRecord
    note: str = ""


def read_record(path: Path, display: Display) -> RunRecord:
    """One results file, validated; an error names the file, the key and what is allowed."""

    def where() -> str:  # only for an error: resolving thousands of paths is slow
        return display(path)

    record = _validated(_read_bytes(path, where), where)
    checks: tuple[tuple[str, object, object], ...] = (
        ("run", run_number(path), record.run),
        ("experiment", path.parent.name, record.experiment),
        ("stack", path.parent.parent.name, record.stack),
    )
    for key, wanted, actual in checks:
        if wanted != actual:
            raise ResultsFileError(
                where(),
                [Problem(key, json.dumps(actual), f"{json.dumps(wanted)}, as in the file's path")],
            )
    return record


def _read_bytes(path: Path, where: Callable[[], str]) -> bytes:
    try:
        # Only a regular file is opened: a FIFO or /dev/zero would block or never end.
        descriptor = open_regular(path, follow_links=True)
        try:
            data = read_at_most(descriptor, MAX_FILE_BYTES + 1)
        finally:
            os.close(descriptor)
    except OSError as error:
        found = f"unreadable ({error.strerror or error})"
        raise ResultsFileError(where(), [Problem("(document)", found, _RESTORE)]) from None
    if len(data) > MAX_FILE_BYTES:
        found = f"more than {MAX_FILE_BYTES} bytes"
        raise ResultsFileError(where(), [Problem("(document)", found, _RESTORE)])
    # Counted on the bytes (in C) before any decoder recurses into them.
    if raw_too_deep(data):
        raise ResultsFileError(where(), [Problem("(document)", TOO_DEEP, ALLOWED_DEPTH)])
    return data


def _validated(data: bytes, where: Callable[[], str]) -> RunRecord:
    """The record in ``data``: parsed and validated in one pass by pydantic (a quarter of
    the time of ``json.loads`` then validation, for the thousands of files a compare
    reads); a file it refuses is read again the long way, whose errors name the line and
    column of bad JSON and every key that is wrong."""
    try:
        return RunRecord.model_validate_json(data)
    except ValidationError:
        pass
    try:
        document = json.loads(data)
    except RecursionError:
        raise ResultsFileError(where(), [Problem("(document)", TOO_DEEP, ALLOWED_DEPTH)]) from None
    except json.JSONDecodeError as error:
        found = f"invalid JSON ({error.msg} at line {error.lineno} column {error.colno})"
        raise ResultsFileError(where(), [Problem("(document)", found, _RESTORE)]) from error
    except UnicodeDecodeError as error:
        raise ResultsFileError(where(), [Problem("(document)", str(error), _RESTORE)]) from error
    except ValueError:  # an integer of too many digits (core/json_depth.py)
        problem = Problem("(document)", TOO_MANY_DIGITS, _RESTORE)
        raise ResultsFileError(where(), [problem]) from None
    if not isinstance(document, dict):  # the problem is the whole file, not a key of it
        found = describe_value(document)
        raise ResultsFileError(where(), [Problem("(document)", found, f"an object: {_RESTORE}")])
    try:
        return RunRecord.model_validate(document)
    except ValidationError as error:
        raise ResultsFileError(where(), problems_from(error, RunRecord)) from error


def read_experiment_runs(directory: Path, display: Display) -> list[StoredRun]:
    """The runs recorded in one experiment's directory, by run number."""
    if not directory.is_dir():
        return []
    with os.scandir(directory) as entries:
        listed = [(directory / entry.name, entry.is_symlink()) for entry in entries]
    files = sorted(
        (number, path, link) for path, link in listed if (number := run_number(path)) is not None
    )
    for _, path, link in files:
        # Only a link can lead out (resolving each of thousands of files is slow).
        if link and link_leaving(path, directory) is not None:
            problem = outside_problem(path, "a results file of this directory")
            raise ResultsFileError(display(path), [problem])
    for (number, first, _), (other, second, _) in zip(files, files[1:], strict=False):
        if number == other:  # run-001.json and run-0001.json
            raise ResultsFileError(
                display(second),
                [Problem("run", str(number), f"a run number of its own; {display(first)} has it")],
            )
    return [StoredRun(path, read_record(path, display)) for _, path, _ in files]


def read_stack_runs(root: Path, stack: str, display: Display) -> dict[str, list[StoredRun]]:
    """Every recorded run of ``stack``, by experiment name (sorted)."""
    directory = stack_dir(root, stack)
    if not directory.is_dir():
        return {}
    found = {}
    with os.scandir(directory) as entries:
        listed = sorted((entry.name, entry.is_symlink()) for entry in entries)
    for name, link in listed:
        child = directory / name
        if link:  # the directories above were checked by stack_dir
            inside(root, child)
        if child.is_dir():
            runs = read_experiment_runs(child, display)
            if runs:
                found[child.name] = runs
    return found


def write_runs(root: Path, pending: Sequence[PendingRun], display: Display) -> list[Written]:
    """Record each pending run under a run number of its own; skip logs already recorded.

    One command at a time per stack (:func:`~trainstack.results.lock.stack_lock`): two
    ``add`` or ``collect`` never take the same number or lose a run."""
    stacks = sorted({item.record.stack for item in pending})
    with ExitStack() as held:
        for stack in stacks:
            held.enter_context(stack_lock(stack_dir(root, stack), display))
        return _write_locked(root, pending, display)


def _write_locked(root: Path, pending: Sequence[PendingRun], display: Display) -> list[Written]:
    written: list[Written] = []
    taken: dict[Path, tuple[set[int], dict[str, int]]] = {}
    for item in pending:
        directory = experiment_dir(root, item.record.stack, item.record.experiment)
        if directory not in taken:
            runs = read_experiment_runs(directory, display)
            taken[directory] = (
                {run.record.run for run in runs},
                {run.record.log.sha256: run.record.run for run in runs},
            )
        numbers, logs = taken[directory]
        earlier = logs.get(item.record.log.sha256)
        if earlier is not None:
            note = f"the same log is already recorded as run {earlier}"
            written.append(Written(item, None, item.record, note))
            continue
        run = item.wanted_run
        note = ""
        if run is None or run in numbers or run < 1:
            if run is not None and run >= 1:
                note = f"run {run} is already recorded with another log; recorded as a new run"
            elif run is not None:
                note = f"the job's run number {run} is not >= 1; recorded as a new run"
            run = max(numbers, default=0) + 1
        record = item.record.model_copy(
            update={"run": run, "log": item.record.log.model_copy(update={"file": log_name(run)})}
        )
        path = _write_run(directory, record, item.log)
        numbers.add(run)
        logs[record.log.sha256] = run
        written.append(Written(item, path, record, note))
    return written


def record_document(record: RunRecord) -> dict[str, Any]:
    """The record as its file holds it: ``overrides`` and ``datasets`` only when there are
    some (a run without any is written as before they were recorded)."""
    document: dict[str, Any] = record.model_dump(mode="json", by_alias=True)
    for key in ("overrides", "datasets"):
        if not document.get(key):
            document.pop(key, None)
    return document


def record_json(record: RunRecord) -> str:
    """The file's text: keys sorted, two-space indent, final newline (same run, same bytes)."""
    document = record_document(record)
    return json.dumps(document, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def _write_run(directory: Path, record: RunRecord, log: bytes) -> Path:
    """Write the log, then the record; each appears whole or not at all, never over a file."""
    try:
        directory.mkdir(parents=True, exist_ok=True)
        log_path = _create(directory / log_name(record.run), log)
        try:
            return _create(directory / record_name(record.run), record_json(record).encode())
        except BaseException:
            log_path.unlink(missing_ok=True)
            raise
    except FileExistsError as error:
        raise ResultsError(f"{error.filename} appeared while recording: not overwritten") from error
    except OSError as error:
        raise ResultsError(f"cannot write results in {directory}: {error.strerror}") from error


def _create(path: Path, data: bytes) -> Path:
    """Write ``data`` to a temporary file, then link it to ``path`` (fails if it exists)."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        temporary.write_bytes(data)
        os.link(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)
    return path
