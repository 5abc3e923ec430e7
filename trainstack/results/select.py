"""What ``--metric`` and ``--experiment`` pick: a name that is not recorded is an error
naming what is, with a did-you-mean; never silently ignored."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from trainstack.console.safe_text import printable
from trainstack.core.describe import did_you_mean
from trainstack.core.errors import ResultsError

PREFERRED_METRICS = ("images_per_sec", "train_time", "duration", "time_to_train")
"""A matrix point's main metric: the first of these it reports."""


def check_known(option: str, asked: Sequence[str], recorded: Iterable[str], where: str) -> None:
    """An error for the first of ``asked`` that is not among ``recorded``."""
    known = sorted(set(recorded))
    for name in asked:
        if name not in known:
            listed = ", ".join(known) or "none"
            raise ResultsError(
                f"{option} {printable(name)}: not recorded in {where}{did_you_mean(name, known)}; "
                f"recorded: {listed}"
            )


def main_metric(available: Iterable[str]) -> str | None:
    """The first preferred metric among ``available``, else ``None``."""
    present = set(available)
    return next((name for name in PREFERRED_METRICS if name in present), None)
