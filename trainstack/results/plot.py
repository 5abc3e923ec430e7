"""Plots of ``results compare`` and ``results scaling`` (matplotlib, headless Agg backend).

Fixed sizes, so a pull request shows them alike: a comparison is 1000 x 600 px as PNG
(10 x 6 in; 720 x 432 pt as SVG), a scaling plot 1200 x 500 px (12 x 5 in). No creation
date or random ids are written: the same results give the same file.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from trainstack.console.tables import percent
from trainstack.core.errors import ResultsError
from trainstack.results.compare import Row
from trainstack.results.scaling import SCALE_OUT, SCALE_UP, Scaling

DPI = 100
COMPARE_SIZE = (10.0, 6.0)
SCALING_SIZE = (12.0, 5.0)
FORMATS = {".png": "png", ".svg": "svg"}


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    matplotlib.rcParams["svg.hashsalt"] = "trainstack"
    import matplotlib.pyplot as plt

    return plt


def plot_format(path: Path) -> str:
    """``png`` or ``svg`` from the file name; an error for anything else."""
    try:
        return FORMATS[path.suffix.lower()]
    except KeyError:
        raise ResultsError(
            f"--plot {path}: found suffix {path.suffix or '(none)'!r}; allowed: .png or .svg"
        ) from None


def _save(figure: Any, path: Path, kind: str) -> None:
    metadata = {"Date": None} if kind == "svg" else {"Software": None}
    try:
        figure.savefig(path, format=kind, dpi=DPI, metadata=metadata)
    except OSError as error:
        raise ResultsError(f"cannot write plot {path}: {error.strerror}") from error


def plot_compare(rows: Sequence[Row], a: str, b: str, metric: str, path: Path) -> None:
    """Bars of each experiment's mean on both stacks (± stdev), the change above each pair."""
    kind = plot_format(path)
    chosen = [row for row in rows if row.metric == metric and row.a.summary and row.b.summary]
    if not chosen:
        raise ResultsError(f"--plot: no experiment has {metric} on both {a} and {b}")
    plt = _pyplot()
    figure, axes = plt.subplots(figsize=COMPARE_SIZE, dpi=DPI)
    positions = range(len(chosen))
    width = 0.38
    for offset, stack, sides in (
        (-width / 2, a, [r.a for r in chosen]),
        (width / 2, b, [r.b for r in chosen]),
    ):
        means = [side.summary.mean if side.summary else 0.0 for side in sides]
        errors = [(side.summary.stdev or 0.0) if side.summary else 0.0 for side in sides]
        axes.bar([p + offset for p in positions], means, width, yerr=errors, capsize=4, label=stack)
    for position, row in zip(positions, chosen, strict=True):
        top = max(
            row.a.summary.mean if row.a.summary else 0.0,
            row.b.summary.mean if row.b.summary else 0.0,
        )
        label = percent(row.change) if row.comparable else "not comparable"
        axes.annotate(
            label, (position, top), textcoords="offset points", xytext=(0, 8), ha="center"
        )
    axes.set_xticks(
        list(positions), [row.experiment for row in chosen], rotation=15 if len(chosen) > 3 else 0
    )
    axes.set_xlim(-0.9, len(chosen) - 0.1)
    unit = chosen[0].unit
    axes.set_ylabel(f"{metric} ({unit})" if unit else metric)
    axes.set_xlabel("experiment")
    changes = [row.change for row in chosen if row.comparable and row.change is not None]
    if len(changes) == 1:
        summary = f"change {percent(changes[0])}"
    elif changes:
        summary = f"change {percent(min(changes))} to {percent(max(changes))}"
    else:
        summary = "not comparable"
    direction = "higher is better" if chosen[0].higher_is_better else "lower is better"
    axes.set_title(f"{metric}: {a} vs {b}, {summary} ({direction})")
    axes.legend()
    figure.tight_layout()
    _save(figure, path, kind)
    plt.close(figure)


def plot_scaling(result: Scaling, path: Path) -> None:
    """The metric and the scaling efficiency against total GPUs, one line per series."""
    kind = plot_format(path)
    plt = _pyplot()
    figure, (values, efficiency) = plt.subplots(1, 2, figsize=SCALING_SIZE, dpi=DPI)
    unit = f" ({result.unit})" if result.unit else ""
    for series, marker in ((SCALE_UP, "o"), (SCALE_OUT, "s")):
        points = result.series(series)
        if not points:
            continue
        gpus = [p.gpus for p in points]
        values.plot(gpus, [p.mean for p in points], marker=marker, label=series)
        efficiency.plot(gpus, [p.efficiency * 100 for p in points], marker=marker, label=series)
    base = next(p for p in result.points if p.experiment == result.base)
    all_gpus = sorted({p.gpus for p in result.points})
    linear = [
        base.mean * g / base.gpus if result.higher_is_better else base.mean * base.gpus / g
        for g in all_gpus
    ]
    values.plot(all_gpus, linear, linestyle="--", color="grey", label="linear")
    efficiency.axhline(100, linestyle="--", color="grey", label="linear")
    for axes in (values, efficiency):
        axes.set_xlabel("total GPUs")
        axes.set_xticks(all_gpus)
        axes.legend()
    values.set_ylabel(f"{result.metric}{unit}")
    efficiency.set_ylabel("scaling efficiency (%)")
    speedups = [
        f"{series} {last.speedup:.2f}x at {last.gpus} GPUs"
        for series in (SCALE_UP, SCALE_OUT)
        if (last := max(result.series(series), key=lambda p: p.gpus, default=None))
    ]
    figure.suptitle(
        f"{result.matrix} on {result.stack}: {result.metric} vs GPUs; speed-up "
        + (", ".join(speedups) or "-")
    )
    figure.tight_layout()
    _save(figure, path, kind)
    plt.close(figure)
