"""Plots of ``results compare`` and ``results scaling`` (matplotlib, headless Agg backend).

Honest by construction: bars start at 0; the error bars are the 95% confidence interval
of each side's mean (Student's t, labelled so in the legend) and are drawn only from 2
runs on (a single run has no interval, not a zero one); every run is a dot; n is written
under each bar. Scaling plots put GPUs on a log2 axis (1, 2, 4, 8 evenly apart) and
efficiency on 0-100% (more when a point scales super-linearly), with every stack given
on one plot. SVG keeps its text as text (``svg.fonttype: none``): labels can be searched
and read by tests and screen readers.

Fixed sizes, so a pull request shows them alike: a comparison is 1000 x 600 px as PNG
(10 x 6 in; 720 x 432 pt as SVG), a scaling plot 1200 x 500 px (12 x 5 in). No creation
date or random ids are written: the same results give the same file.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from pathlib import Path
from typing import Any, BinaryIO

from trainstack.console.tables import percent
from trainstack.core.errors import ResultsError
from trainstack.results.compare import Row, Side
from trainstack.results.scaling import SCALE_OUT, SCALE_UP, Scaling
from trainstack.results.verdict import interval_text

DPI = 100
COMPARE_SIZE = (10.0, 6.0)
SCALING_SIZE = (12.0, 5.0)
FORMATS = {".png": "png", ".svg": "svg"}
CI_LABEL = "95% CI of the mean (Student's t)"
MAX_PLOT_EXPERIMENTS = 20
"""A comparison plot shows at most this many experiments (readable bars); the table all."""
BAR_WIDTH = 0.38
RUN_LABEL = "each run"
_COLOURS = ("#1f77b4", "#ff7f0e")


def pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    matplotlib.rcParams["svg.hashsalt"] = "trainstack"
    matplotlib.rcParams["svg.fonttype"] = "none"
    # Names and units come from results files: text, never mathtext ("$...$" would be
    # parsed, and a malformed one raise). matplotlibrc of matplotlib 3.11.2: `text.parse_math`.
    matplotlib.rcParams["text.parse_math"] = False
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


def save_figure(figure: Any, path: Path | BinaryIO, kind: str) -> None:
    metadata = {"Date": None} if kind == "svg" else {"Software": None}
    try:
        figure.savefig(path, format=kind, dpi=DPI, metadata=metadata)
    except OSError as error:
        raise ResultsError(f"cannot write plot {path}: {error.strerror}") from error


def compare_svg(rows: Sequence[Row], a: str, b: str, metric: str) -> str:
    """:func:`plot_compare` as SVG text (for a page)."""
    buffer = io.BytesIO()
    plot_compare(rows, a, b, metric, buffer)
    return buffer.getvalue().decode()


def scaling_svg(results: Sequence[Scaling]) -> str:
    """:func:`plot_scaling` as SVG text (for a page)."""
    buffer = io.BytesIO()
    plot_scaling(results, buffer)
    return buffer.getvalue().decode()


def _stack_bars(
    axes: Any, positions: list[float], sides: list[Side], colour: str, legend: bool
) -> float:
    """One stack's bars from 0, its 95% CIs (from 2 runs), every run as a dot, n under
    each bar; the highest point drawn."""
    summaries = [side.summary for side in sides]
    assert all(summary is not None for summary in summaries)
    means = [summary.mean for summary in summaries if summary is not None]
    axes.bar(positions, means, BAR_WIDTH, color=colour, label=f"{sides[0].stack} (mean)")
    with_interval = [
        (position, summary)
        for position, summary in zip(positions, summaries, strict=True)
        if summary is not None and summary.interval is not None
    ]
    if with_interval:
        axes.errorbar(
            [position for position, _ in with_interval],
            [summary.mean for _, summary in with_interval],
            yerr=[
                [s.mean - s.interval[0] for _, s in with_interval if s.interval],
                [s.interval[1] - s.mean for _, s in with_interval if s.interval],
            ],
            fmt="none",
            ecolor="black",
            capsize=5,
            label=CI_LABEL if legend else None,
        )
    dots = [(position, value) for position, side in zip(positions, sides, strict=True)
            for value in side.values]  # fmt: skip
    axes.scatter(*zip(*dots, strict=True), s=14, color="black", zorder=3,
                 label=RUN_LABEL if legend else None)  # fmt: skip
    for position, side in zip(positions, sides, strict=True):
        axes.text(
            position,
            -0.015,
            f"n={len(side.values)}",
            transform=axes.get_xaxis_transform(),
            ha="center",
            va="top",
            fontsize=9,
        )
    highs = [s.interval[1] for _, s in with_interval if s.interval]
    return max([*means, *highs, *(value for _, value in dots)])


def plot_compare(rows: Sequence[Row], a: str, b: str, metric: str, path: Path | BinaryIO) -> None:
    """Bars of each experiment's mean on both stacks from 0, 95% CIs, runs, n, the change
    (the first :data:`MAX_PLOT_EXPERIMENTS` experiments; the table has them all)."""
    kind = plot_format(path) if isinstance(path, Path) else "svg"
    every = [row for row in rows if row.metric == metric and row.a.summary and row.b.summary]
    if not every:
        raise ResultsError(f"--plot: no experiment has {metric} on both {a} and {b}")
    chosen = every[:MAX_PLOT_EXPERIMENTS]
    plt = pyplot()
    figure, axes = plt.subplots(figsize=COMPARE_SIZE, dpi=DPI)
    top = 0.0
    for offset, pick, colour in ((-BAR_WIDTH / 2, 0, _COLOURS[0]), (BAR_WIDTH / 2, 1, _COLOURS[1])):
        positions = [index + offset for index in range(len(chosen))]
        sides = [(row.a, row.b)[pick] for row in chosen]
        top = max(top, _stack_bars(axes, positions, sides, colour, legend=pick == 0))
    for index, row in enumerate(chosen):
        said = percent(row.change) if row.comparable else "not comparable"
        if row.stats is not None and row.stats.interval is not None:
            said += f"\n(95% CI {interval_text(row.stats)})"
        elif row.stats is not None and row.stats.too_few:
            said += f"\n({row.stats.too_few})"
        pair_top = max(max(row.a.values), max(row.b.values), *(
            s.summary.interval[1] for s in (row.a, row.b) if s.summary and s.summary.interval
        ))  # fmt: skip
        axes.annotate(said, (index, pair_top), textcoords="offset points", xytext=(0, 6),
                      ha="center")  # fmt: skip
    axes.set_ylim(0, top * 1.25 if top > 0 else 1)
    axes.set_xticks(
        list(range(len(chosen))),
        [row.experiment for row in chosen],
        rotation=15 if len(chosen) > 3 else 0,
    )
    axes.tick_params(axis="x", pad=18)
    axes.set_xlim(-0.9, len(chosen) - 0.1)
    unit = chosen[0].unit
    axes.set_ylabel(f"{metric} ({unit})" if unit else metric)
    direction = "higher is better" if chosen[0].higher_is_better else "lower is better"
    shown = (
        f" (first {len(chosen)} of {len(every)} experiments)" if len(every) > len(chosen) else ""
    )
    axes.set_title(f"{metric}: {a} vs {b} ({direction}); change of {a} against {b}{shown}")
    handles, labels_shown = axes.get_legend_handles_labels()
    figure.legend(handles, labels_shown, loc="lower center", ncols=4, frameon=False)
    figure.tight_layout(rect=(0, 0.06, 1, 1))
    save_figure(figure, path, kind)
    plt.close(figure)


def plot_scaling(results: Sequence[Scaling], path: Path | BinaryIO) -> None:
    """The metric and the scaling efficiency against total GPUs (log2), one line per stack
    and series; efficiency from 0 to 100% (higher only when a point exceeds it)."""
    kind = plot_format(path) if isinstance(path, Path) else "svg"
    plt = pyplot()
    figure, (values, efficiency) = plt.subplots(1, 2, figsize=SCALING_SIZE, dpi=DPI)
    first = results[0]
    unit = f" ({first.unit})" if first.unit else ""
    all_gpus = sorted({p.gpus for result in results for p in result.points})
    highest = 100.0
    for number, result in enumerate(results):
        style = ("-", "--", ":")[number % 3]
        for series, marker in ((SCALE_UP, "o"), (SCALE_OUT, "s")):
            points = result.series(series)
            if not points:
                continue
            gpus = [p.gpus for p in points]
            label = f"{result.stack} {series}" if len(results) > 1 else series
            values.plot(gpus, [p.mean for p in points], marker=marker, linestyle=style, label=label)
            shares = [p.efficiency * 100 for p in points]
            highest = max(highest, *shares)
            efficiency.plot(gpus, shares, marker=marker, linestyle=style, label=label)
    base = next(p for p in first.points if p.experiment == first.base)
    linear = [
        base.mean * g / base.gpus if first.higher_is_better else base.mean * base.gpus / g
        for g in all_gpus
    ]
    values.plot(all_gpus, linear, linestyle="--", color="grey", label=f"linear ({first.stack})")
    efficiency.axhline(100, linestyle="--", color="grey", label="linear")
    for axes in (values, efficiency):
        axes.set_xlabel("total GPUs (log2 scale)")
        axes.set_xscale("log", base=2)
        axes.set_xticks(all_gpus, [str(g) for g in all_gpus])
        axes.minorticks_off()
        axes.legend()
    values.set_ylim(bottom=0)
    efficiency.set_ylim(0, highest * 1.05 if highest > 100 else 100)
    values.set_ylabel(f"{first.metric}{unit}")
    efficiency.set_ylabel("scaling efficiency (%)")
    stacks = " and ".join(result.stack for result in results)
    figure.suptitle(f"{first.matrix} on {stacks}: {first.metric} and efficiency vs GPUs")
    figure.tight_layout()
    save_figure(figure, path, kind)
    plt.close(figure)
