"""Within-run figures: what a log prints while the job runs, beside its final total.

- tf_cnn_benchmarks prints ``STEP\\timages/sec: X +/- U (jitter = J)\\tLOSS`` every
  ``--display_every`` steps, after its ``--num_warmup_batches`` (it resets its step times
  when the warm-up ends: "Done warm up", then the ``Step\\tImg/sec\\tloss`` header); each
  X is the printing worker's images/sec averaged over the steps so far
  (tensorflow/benchmarks ``scripts/tf_cnn_benchmarks/benchmark_cnn.py``,
  ``benchmark_one_step`` and ``get_perf_timing`` at 2696206fc01860d7b06fd02a01626f56abbab40a).
- Horovod's synthetic benchmarks print ``Iter #N: X img/sec per GPU`` per iteration,
  after their warm-up batches (horovod ``examples/*_synthetic_benchmark.py``).
- Keras prints each epoch's time (``Epoch k/E`` then ``N/N [====] - 82s ...``); Keras has
  no warm-up of its own (the first epoch includes building the model).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from trainstack.metrics.measurement import Intervals

_TF_STEP = re.compile(r"^\s*\d+\s+images/sec:\s*([0-9]+(?:\.[0-9]+)?)\s")
_HOROVOD_ITER = re.compile(r"^\s*Iter #\d+:\s*([0-9]+(?:\.[0-9]+)?) img/sec per GPU")


def _collect(lines: Sequence[str], needle: str, pattern: re.Pattern[str]) -> list[float]:
    values: list[float] = []
    for line in lines:
        if needle in line:
            match = pattern.match(line)
            if match and float(match.group(1)) > 0:  # a 0 figure (a stalled step) is no rate
                values.append(float(match.group(1)))
    return values


def throughput_intervals(lines: Sequence[str]) -> Intervals | None:
    """tf_cnn_benchmarks' step lines, else Horovod's iterations, if the log has them."""
    steps = _collect(lines, "images/sec:", _TF_STEP)
    if steps:
        return Intervals(
            tuple(steps),
            "rank",
            "tf_cnn_benchmarks step lines: the printing worker's images/sec, averaged over "
            "the steps so far",
            "its --num_warmup_batches, before the first step line",
        )
    iterations = _collect(lines, "img/sec per GPU", _HOROVOD_ITER)
    if iterations:
        return Intervals(
            tuple(iterations),
            "gpu",
            "Horovod iterations: img/sec per GPU",
            "its --num-warmup-batches, before the first iteration",
        )
    return None


def epoch_intervals(times: Sequence[float]) -> Intervals:
    """Keras' per-epoch times."""
    return Intervals(tuple(times), "job", "Keras epochs: seconds per epoch", "")
