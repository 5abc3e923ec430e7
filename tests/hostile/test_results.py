"""``trainstack results`` and ``status`` on hostile files: one error line, exit 2."""

from __future__ import annotations

import base64
import os
import re
from pathlib import Path

import pytest

from tests.hostile.corpus import Case, Edit, both, check_refused, nothing, write
from tests.project_copy import copy_project, run_subprocess

RUNS = "results/aiacc/imagenet-tensorflow"
BOMB = "l0: &l0 [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"l{n}: &l{n} [" + ", ".join([f"*l{n - 1}"] * 10) + "]\n" for n in range(1, 9)
)


def _results_file(content: str) -> Edit:
    return write(f"{RUNS}/run-001.json", content)


def _sparse_results_file(root: Path) -> None:
    write(f"{RUNS}/run-001.json", "{}")(root)
    os.truncate(root / RUNS / "run-001.json", 2 << 20)


def _special_results_file(make: str) -> Edit:
    def edit(root: Path) -> None:
        (root / RUNS).mkdir(parents=True)
        if make == "fifo":
            os.mkfifo(root / RUNS / "run-001.json")
        else:
            (root / RUNS / "run-001.json").symlink_to("/dev/zero")

    return edit


RESULTS_CASES = [
    Case(
        "stack-name-climbing-out",
        write("train.log", "images/sec: 100\n"),
        ("stack name '../aiacc' is invalid",),
        args=("results", "add", "../aiacc", "imagenet-tensorflow", "train.log"),
    ),
    Case(
        "an-endless-log",
        nothing,
        ("cannot read log /dev/zero: not a regular file",),
        args=("results", "add", "aiacc", "imagenet-tensorflow", "/dev/zero"),
    ),
    Case(
        "a-results-file-nested-too-deeply",
        _results_file("[" * 100_000 + "]" * 100_000),
        (f"{RUNS}/run-001.json", "JSON nested more than 64 deep", "at most 64 levels"),
        args=("results", "compare", "aiacc", "baseline"),
    ),
    Case(
        # Past trainstack's limit, short of the JSON reader's own (about 1,000 levels).
        "a-results-file-nested-past-the-limit",
        _results_file('{"metrics": ' + "[" * 65 + "]" * 65 + "}"),
        (f"{RUNS}/run-001.json", "JSON nested more than 64 deep", "at most 64 levels"),
        args=("results", "compare", "aiacc", "baseline"),
    ),
    Case(
        # Brackets inside a string are text, not nesting: refused as a string, not as deep.
        "a-results-file-with-brackets-in-a-string",
        _results_file('"' + "[" * 100 + '"'),
        (f"{RUNS}/run-001.json", '(document): found "[[[', "allowed: an object"),
        args=("results", "compare", "aiacc", "baseline"),
    ),
    Case(
        # Python refuses to read an integer of more than 4,300 digits (int_max_str_digits).
        "a-results-file-with-a-number-of-5000-digits",
        _results_file('{"run": ' + "9" * 5000 + "}"),
        (f"{RUNS}/run-001.json", "a number of more digits than Python reads (4,300)"),
        args=("results", "compare", "aiacc", "baseline"),
    ),
    Case(
        "a-results-file-too-large",
        _sparse_results_file,
        (f"{RUNS}/run-001.json", "more than 1048576 bytes"),
        args=("results", "compare", "aiacc", "baseline"),
    ),
    Case(
        "a-results-file-that-is-a-fifo",  # opening it would wait for a writer for ever
        _special_results_file("fifo"),
        (f"{RUNS}/run-001.json", "unreadable (not a regular file)"),
        args=("results", "compare", "aiacc", "baseline"),
        isolate=True,
    ),
    Case(
        "a-results-file-linked-to-dev-zero",  # reading it would never end
        _special_results_file("dev-zero"),
        (f"{RUNS}/run-001.json", "a symbolic link to '/dev/zero', outside the project"),
        args=("results", "compare", "aiacc", "baseline"),
        isolate=True,
    ),
    Case(
        "a-kubeconfig-alias-bomb",
        write("k.yaml", BOMB),
        ("cannot read kubeconfig", "at most 100000"),
        args=("status", "aiacc", "--kubeconfig", "k.yaml", "--context", "x"),
    ),
    Case(
        "a-kubeconfig-nested-too-deeply",
        write("k.yaml", "a: " + "[" * 100_000 + "]" * 100_000 + "\n"),
        ("cannot read kubeconfig", "at most 64 levels"),
        args=("status", "aiacc", "--kubeconfig", "k.yaml", "--context", "x"),
    ),
    Case(
        # Past trainstack's limit, short of any YAML reader's own.
        "a-kubeconfig-nested-past-the-limit",
        write("k.yaml", "a: " + "[" * 70 + "]" * 70 + "\n"),
        ("cannot read kubeconfig", "at most 64 levels"),
        args=("status", "aiacc", "--kubeconfig", "k.yaml", "--context", "x"),
    ),
    Case(
        "an-endless-kubeconfig",
        nothing,
        ("cannot read kubeconfig /dev/zero: a directory, device or pipe",),
        args=("status", "aiacc", "--kubeconfig", "/dev/zero", "--context", "x"),
    ),
    Case(
        "a-kubeconfig-that-is-not-utf8",
        write("k.yaml", b"users: [{token: s3cr\xe9t}]\n"),
        ("kubeconfig k.yaml is not UTF-8 text",),
        args=("status", "aiacc", "--kubeconfig", "k.yaml", "--context", "x"),
        secret="s3cr",
    ),
]


def _recorded_run(
    value: str, name: str = "run-001.json", old: str = '"value": 1.0', new: str | None = None
) -> Edit:
    """A results file as `results add` writes it, its value replaced by ``value`` (text);
    or its text ``old`` replaced by ``new``."""

    def edit(root: Path) -> None:
        from tests.results.records import record
        from trainstack.results.store import record_json

        text = record_json(
            record("aiacc", "imagenet-tensorflow", 1, {"images_per_sec": (1.0, "x", True)})
        )
        replaced = text.replace(old, f'"value": {value}' if new is None else new)
        write(f"{RUNS}/{name}", replaced)(root)

    return edit


def _baseline_run(root: Path) -> None:
    from tests.results.records import record
    from trainstack.results.store import record_json

    run = record("baseline", "imagenet-tensorflow", 1, {"images_per_sec": (1.0, "x", True)})
    write("results/baseline/imagenet-tensorflow/run-001.json", record_json(run))(root)


def _log_file(name: str) -> Edit:
    """Both stacks recorded (so that the report is written), aiacc's log named ``name``."""
    return both(
        _baseline_run, _recorded_run("", old='"file": "run-001.log"', new=f'"file": "{name}"')
    )


REPORT = ("results", "report", "aiacc", "baseline", "-o", RUNS)


def _fifo(relative: str) -> Edit:
    def edit(root: Path) -> None:
        (root / relative).parent.mkdir(parents=True, exist_ok=True)
        os.mkfifo(root / relative)

    return edit


HUGE = "x" * 400_000

INTEGRITY_CASES = [
    Case(
        # Copied whole into every line of a report that named it (a 32 MB page).
        "a-record-with-a-huge-experiment-name",
        _recorded_run("", old='"experiment": "imagenet-tensorflow"', new=f'"experiment": "{HUGE}"'),
        (f"{RUNS}/run-001.json", "experiment: found", "a string of at most 253 characters"),
        args=("results", "compare", "aiacc", "baseline"),
    ),
    Case(
        "a-record-with-a-huge-unit",
        _recorded_run("", old='"unit": "x"', new=f'"unit": "{HUGE}"'),
        (f"{RUNS}/run-001.json", "metrics.images_per_sec.unit: found", "at most 253 characters"),
        args=("results", "compare", "aiacc", "baseline"),
    ),
    Case(
        # Opened to see whether it was a report of ours: the open waited for a writer.
        "a-report-index-that-is-a-fifo",
        both(_baseline_run, _recorded_run("1.0"), _fifo("report/index.html")),
        ("report/index.html: exists and is not a trainstack report; not overwritten",),
        args=("results", "report", "aiacc", "baseline", "-o", "report"),
        isolate=True,
    ),
    Case(
        # With -o the run's own directory, the link would have been href="javascript:...".
        "a-log-file-that-is-a-javascript-url",
        _log_file("javascript:alert(document.domain)"),
        (f"{RUNS}/run-001.json", 'log.file: found "javascript:alert(document.domain)"'),
        args=REPORT,
    ),
    Case(
        "a-log-file-climbing-out",
        _log_file("../../../../etc/passwd"),
        (f"{RUNS}/run-001.json", 'log.file: found "../../../../etc/passwd"'),
        args=REPORT,
    ),
    Case(
        "a-log-file-that-is-absolute",
        _log_file("/etc/passwd"),
        (f"{RUNS}/run-001.json", 'log.file: found "/etc/passwd"'),
        args=REPORT,
    ),
    Case(
        "a-katib-value-past-the-largest-float",
        write("train.log", "epoch 1: accuracy=0.9 loss=1e999\n"),
        ("invalid training log in train.log", "line 1 (loss): found inf", "greater than 0"),
        args=("results", "add", "aiacc", "imagenet-tensorflow", "train.log"),
    ),
    Case(
        "a-negative-katib-value",
        write("train.log", "noise\naccuracy=-0.5\n"),
        ("line 2 (accuracy): found -0.5", "a finite number greater than 0"),
        args=("results", "add", "aiacc", "imagenet-tensorflow", "train.log"),
    ),
    Case(
        # json.loads recursed out of its depth on this line (RecursionError, exit 70).
        "an-mlperf-record-nested-50000-deep",
        write("train.log", ":::MLLOG " + "[" * 50_000 + "\n"),
        ("invalid training log in train.log", "(metrics): found no line in a recognised format"),
        args=("results", "add", "aiacc", "imagenet-tensorflow", "train.log"),
        isolate=True,
    ),
    Case(
        "a-results-file-holding-infinity",
        _recorded_run("Infinity"),
        (f"{RUNS}/run-001.json", "metrics.images_per_sec.value", "finite number"),
        args=("results", "compare", "aiacc", "baseline"),
    ),
    Case(
        "a-results-file-holding-zero",
        _recorded_run("0.0"),
        (f"{RUNS}/run-001.json", "metrics.images_per_sec.value: found 0.0", "a number > 0.0"),
        args=("results", "compare", "aiacc", "baseline"),
    ),
    Case(
        "two-results-files-claiming-run-1",
        both(_recorded_run("1.0"), _recorded_run("2.0", "run-0001.json")),
        (f"{RUNS}/run-001.json", "run: found 1", "a run number of its own", "run-0001.json"),
        args=("results", "compare", "aiacc", "baseline"),
    ),
]


@pytest.mark.parametrize("case", INTEGRITY_CASES, ids=str)
def test_results_integrity(case: Case, tmp_path: Path) -> None:
    check_refused(case, copy_project(tmp_path / "project"), tmp_path)


@pytest.mark.parametrize("case", RESULTS_CASES, ids=str)
def test_hostile_results_input_is_refused_and_changes_nothing(case: Case, tmp_path: Path) -> None:
    check_refused(case, copy_project(tmp_path / "project"), tmp_path)


def test_a_unit_in_dollars_is_plotted_as_text(tmp_path: Path) -> None:
    """matplotlib would parse ``$...$`` as mathtext: a malformed one raised (exit 70), a
    well-formed one drew something else than what the results file says."""
    from tests.results.records import record
    from trainstack.results.store import record_json

    root = copy_project(tmp_path / "project")
    unit = "$\\frac{images$/s"
    for stack, value in (("aiacc", 2.0), ("baseline", 1.0)):
        for number in (1, 2, 3):
            metrics = {"images_per_sec": (value + number / 10, unit, True)}
            run = record(stack, "imagenet-tensorflow", number, metrics)
            name = f"results/{stack}/imagenet-tensorflow/run-{number:03d}.json"
            write(name, record_json(run))(root)
    ran = run_subprocess(["results", "report", "aiacc", "baseline", "-o", "report"], root)
    assert ran.status == 0, ran.stderr
    page = (root / "report" / "index.html").read_text()
    (plot,) = re.findall(r'src="data:image/svg\+xml;base64,([^"]+)"', page)
    assert "images_per_sec ($\\frac{images$/s)" in base64.b64decode(plot).decode()
