"""The log formats trainstack recognises without a ``metrics:`` declaration.

Each format is a function from log lines to measurements; the registry's order decides
which one reports a metric several formats share (``images_per_sec``): a job's total
(workload 2's ``Total images/sec = N``, Horovod's ``Total img/sec on N GPU(s)``) before
tf_cnn_benchmarks' ``total images/sec: N``, which some launchers print once per rank.
Every format keeps the LAST value it sees: the final summary comes at the end of a log.

Sources of the formats: tf_cnn_benchmarks (tensorflow/benchmarks, ``benchmark_cnn.py``
prints ``total images/sec: %.2f``); Horovod's ``examples/*_synthetic_benchmark.py`` print
``Total img/sec on %d %s(s): %.1f +-%.1f``; Keras' ``Progbar`` ends each epoch with
``N/N [====] - 82s 174ms/step - loss: ...`` (Keras 3: ``N/N ━━━━ 82s 174ms/step``) after an
``Epoch k/E`` line; Katib's StdOut metrics collector reads ``name=value`` pairs
(default filter ``([\\w|-]+)\\s*=\\s*([+-]?\\d*(\\.\\d+)?([Ee][+-]?\\d+)?)``); MLPerf's
``mlperf_logging`` writes ``:::MLLOG {json}`` records (``run_start``/``run_stop`` with
``time_ms``, ``eval_accuracy``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from trainstack.metrics.intervals import epoch_intervals
from trainstack.metrics.measurement import Measurement

IMAGES_PER_SEC = "images_per_sec"
_VALUE = r"(?P<value>[0-9]+(?:\.[0-9]+)?)"


@dataclass(frozen=True)
class LogFormat:
    """A recognised format: its name, an example line, and its parser."""

    name: str
    example: str
    parse: Callable[[Sequence[str]], list[Measurement]]
    needle: str = ""
    """Text every line it reads holds: a log without it is skipped at once (big logs)."""


def _last_number(
    lines: Sequence[str], needle: str, pattern: re.Pattern[str]
) -> tuple[int, re.Match[str]] | None:
    """The last match and its line number (1-based)."""
    for index in range(len(lines) - 1, -1, -1):
        if needle in lines[index]:
            match = pattern.search(lines[index])
            if match:
                return index + 1, match
    return None


def _throughput(
    format_name: str, needle: str, pattern: re.Pattern[str]
) -> Callable[[Sequence[str]], list[Measurement]]:
    def parse(lines: Sequence[str]) -> list[Measurement]:
        found = _last_number(lines, needle, pattern)
        if found is None:
            return []
        line, match = found
        value = float(match.group("value"))
        return [Measurement(IMAGES_PER_SEC, "images/sec", True, value, format_name, line)]

    return parse


_EPOCH = re.compile(r"^\s*Epoch (\d+)/(\d+)\s*$")
# The bar is either `[====]` (Keras 2) or box characters (Keras 3); the elapsed time of the
# whole epoch comes right before the per-step time.
_EPOCH_END = re.compile(
    r"^\s*(\d+)/(\d+)\s.*?\s(?:-\s)?(\d+(?:\.\d+)?)s\s+\d+(?:\.\d+)?(?:s|ms|us)/(?:step|sample)"
)


def _keras_epochs(lines: Sequence[str]) -> list[Measurement]:
    epochs: dict[int, float] = {}
    current: int | None = None
    last = 0
    for number, line in enumerate(lines, start=1):
        if "Epoch " in line:
            start = _EPOCH.match(line)
            if start:
                current = int(start.group(1))
                continue
        if current is not None and "/s" in line:
            end = _EPOCH_END.match(line)
            if end and end.group(1) == end.group(2):
                epochs[current] = float(end.group(3))
                last = number
    if not epochs:
        return []
    times = [epochs[index] for index in sorted(epochs)]
    within = epoch_intervals(times)
    return [
        Measurement(
            "epoch_time", "s", False, sum(times) / len(times), "keras-epochs", last, "job", within
        ),
        Measurement("train_time", "s", False, sum(times), "keras-epochs", last, "job", within),
    ]


_KATIB_MAX_PAIRS = 32
_KATIB_MAX_LINES = 10_000
"""Only the last lines holding ``=`` are read for pairs (the last value wins; reading
millions of them would take minutes)."""
"""A line of more pairs is data, not metrics (and reading it would cost time: bounded)."""
_KATIB_PAIR = re.compile(r"([A-Za-z_][\w.-]*)\s*=\s*([+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)")
_KATIB_LINE = re.compile(rf"(?:{_KATIB_PAIR.pattern}[\s,;]*){{1,{_KATIB_MAX_PAIRS}}}")
"""A line of 1 to 32 pairs and their separators, nothing else (one match, in C)."""
_LOWER_IS_BETTER = ("loss", "error", "err", "time", "latency", "duration", "perplexity")


def _katib_pairs(line: str) -> list[tuple[str, float]]:
    """The pairs of a line that holds nothing but ``name=value`` pairs after a prefix.

    A prefix ending in ``": "`` or ``"] "`` (``epoch 3: ``, ``INFO Epoch[0] ``) is allowed;
    argument dumps such as ``Namespace(lr=0.1, batch_size=256)`` are not metrics.
    """
    body = line.strip()
    cut = max(body.rfind(": "), body.rfind("] "))
    if cut >= 0:
        body = body[cut + 2 :]
    if not body or _KATIB_LINE.fullmatch(body) is None:
        return []
    return [(name, float(value)) for name, value in _KATIB_PAIR.findall(body)]


def _katib(lines: Sequence[str]) -> list[Measurement]:
    values: dict[str, tuple[float, int]] = {}
    candidates = [number for number, line in enumerate(lines, start=1) if "=" in line]
    for number in candidates[-_KATIB_MAX_LINES:]:
        values.update((name, (value, number)) for name, value in _katib_pairs(lines[number - 1]))
    return [
        Measurement(
            name,
            "",
            not any(word in name.lower() for word in _LOWER_IS_BETTER),
            value,
            "katib",
            line,
        )
        for name, (value, line) in sorted(values.items())
    ]


_MLLOG = ":::MLLOG "


def _mlperf(lines: Sequence[str]) -> list[Measurement]:
    start: float | None = None
    stop: float | None = None
    accuracy: float | None = None
    stop_line = accuracy_line = 0
    for number, line in enumerate(lines, start=1):
        at = line.find(_MLLOG)
        if at < 0:
            continue
        try:
            record = json.loads(line[at + len(_MLLOG) :])
        except (json.JSONDecodeError, RecursionError):
            continue  # a record cut by another rank's output (or nested absurdly): noise
        if not isinstance(record, dict):
            continue
        key, value, time_ms = record.get("key"), record.get("value"), record.get("time_ms")
        metadata = record.get("metadata")
        metadata = metadata if isinstance(metadata, dict) else {}
        if key == "run_start" and isinstance(time_ms, int | float):
            start = float(time_ms)
        elif key == "run_stop" and isinstance(time_ms, int | float):
            # Only a successful run has a time to train (MLPerf training rules).
            if metadata.get("status", "success") == "success":
                stop, stop_line = float(time_ms), number
        elif key == "eval_accuracy" and isinstance(value, int | float):
            accuracy, accuracy_line = float(value), number
    found = []
    if accuracy is not None:
        found.append(Measurement("eval_accuracy", "", True, accuracy, "mlperf", accuracy_line))
    if start is not None and stop is not None and stop >= start:
        seconds = (stop - start) / 1000
        found.append(Measurement("time_to_train", "s", False, seconds, "mlperf", stop_line))
    return found


FORMATS: tuple[LogFormat, ...] = (
    LogFormat(
        "total-images-per-sec",
        "Total images/sec = 12881.34",
        _throughput(
            "total-images-per-sec",
            "images/sec",
            re.compile(r"Total images/sec\s*=\s*" + _VALUE),
        ),
        "images/sec",
    ),
    LogFormat(
        "horovod-synthetic",
        "Total img/sec on 16 GPU(s): 1344.0 +-12.3",
        _throughput(
            "horovod-synthetic",
            "img/sec",
            re.compile(r"Total img/sec on \d+ GPU\(s\):\s*" + _VALUE),
        ),
        "img/sec",
    ),
    LogFormat(
        "tf-cnn-benchmarks",
        "total images/sec: 1344.00",
        _throughput(
            "tf-cnn-benchmarks",
            "images/sec",
            re.compile(r"total images/sec:\s*" + _VALUE),
        ),
        "images/sec",
    ),
    LogFormat(
        "keras-epochs",
        "Epoch 3/10 ... 469/469 [======] - 82s 174ms/step - loss: 0.09",
        _keras_epochs,
        "Epoch ",
    ),
    LogFormat("mlperf", ':::MLLOG {"key": "run_stop", "time_ms": ...}', _mlperf, _MLLOG),
    LogFormat("katib", "accuracy=0.9732 loss=0.0891", _katib, "="),
)
