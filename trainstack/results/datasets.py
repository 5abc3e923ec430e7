"""Which data a run read: each dataset's manifest digest, recorded and compared.

Every training pod's preflight prints one line per dataset it mounts (docs/preflight.md):
``trainstack preflight: dataset <claim> manifest sha256:<hex>`` or ``... manifest none``.
``results collect`` records them per dataset (``datasets`` of the run record); a run read
from a saved log (``results add``) records each of its experiment's datasets as
``unknown``. Two sides of a comparison that read different manifests of a dataset read
different bytes: not comparable, naming the dataset. ``none`` or ``unknown`` on a side
is no evidence either way: the pair is compared and the datasets are said to be
unchecked (docs/results.md).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from trainstack.results.record import RunRecord

if TYPE_CHECKING:  # results compare reads records only, never the stack's experiments
    from trainstack.experiments.resolve import Experiment

UNKNOWN = "unknown"
"""A dataset whose manifest was not read."""
MAX_LINES = 1000
"""Lines of a preflight log looked at (one per dataset, a few more for its checks)."""
Status = Literal["same", "differs", "unknown"]


def read_lines(lines: Iterable[str]) -> dict[str, str]:
    """Claim -> digest (or ``none``) of the dataset lines of a preflight's log; of two lines
    for one claim, a digest wins over ``none`` (the first digest over a later one)."""
    from trainstack.training_job.preflight import DATASET_LINE, NO_MANIFEST

    found: dict[str, str] = {}
    for count, line in enumerate(lines):
        if count >= MAX_LINES:
            break
        matched = DATASET_LINE.fullmatch(line.rstrip("\n"))
        if matched is None:
            continue
        claim, digest = matched.groups()
        if found.get(claim, NO_MANIFEST) == NO_MANIFEST:
            found[claim] = digest
    return found


def datasets_of(experiment: Experiment, read: Mapping[str, str] | None) -> dict[str, str]:
    """Each dataset the experiment mounts -> what ``read`` says of it, ``unknown`` where it
    says nothing (``None``: nothing was read, a saved log)."""
    said = read or {}
    return {
        dataset.claim_name: said.get(dataset.claim_name, UNKNOWN)
        for dataset in experiment.job.datasets
    }


@dataclass(frozen=True)
class DatasetVerdict:
    """The data the two sides' runs read, compared."""

    status: Status
    reason: str = ""
    """Why the pair is not comparable, or which datasets were not checked."""
    dataset: str = ""
    """The dataset whose manifests differ."""
    detail: str = ""
    """How they differ, without the experiment (``the stacks read different data: ...``)."""

    @property
    def comparable(self) -> bool:
        """No dataset read different manifests on the two sides (or within one)."""
        return self.status != "differs"


def _digests(records: Sequence[RunRecord], claim: str) -> set[str]:
    return {record.datasets.get(claim, UNKNOWN) for record in records}


def dataset_verdict(
    experiment: str,
    a_stack: str,
    a_records: Sequence[RunRecord],
    b_stack: str,
    b_records: Sequence[RunRecord],
) -> DatasetVerdict:
    """The manifests one experiment's runs read on the two stacks, compared per dataset."""
    if not a_records or not b_records:
        return DatasetVerdict("unknown")
    claims = sorted({claim for record in (*a_records, *b_records) for claim in record.datasets})
    if not claims:  # runs recorded from saved logs: the job model's package is not loaded
        return DatasetVerdict("same")
    from trainstack.training_job.preflight import NO_MANIFEST

    unchecked = []
    for claim in claims:
        sides = [(a_stack, _digests(a_records, claim)), (b_stack, _digests(b_records, claim))]
        for stack, digests in sides:
            known = sorted(digests - {UNKNOWN, NO_MANIFEST})
            if len(known) > 1:
                manifests = " and ".join(_short(d) for d in known)
                detail = f"the runs on {stack} read different data: dataset {claim} manifest"
                return _differs(experiment, claim, f"{detail} {manifests}")
        (_, a), (_, b) = sides
        a_known, b_known = a - {UNKNOWN, NO_MANIFEST}, b - {UNKNOWN, NO_MANIFEST}
        if a_known and b_known and a_known != b_known:
            return _differs(
                experiment,
                claim,
                f"the stacks read different data: dataset {claim} manifest "
                f"{_short(min(a_known))} on {a_stack}, {_short(min(b_known))} on {b_stack}",
            )
        if a != a_known or b != b_known:
            unchecked.append(f"{claim} ({_said(a_stack, a)}; {_said(b_stack, b)})")
    if unchecked:
        return DatasetVerdict(
            "unknown", f"{experiment}: data not checked: dataset {', '.join(unchecked)}"
        )
    return DatasetVerdict("same")


def _differs(experiment: str, claim: str, detail: str) -> DatasetVerdict:
    return DatasetVerdict("differs", f"{experiment}: NOT COMPARABLE: {detail}", claim, detail)


def _said(stack: str, digests: set[str]) -> str:
    return f"{' and '.join(sorted(_short(d) for d in digests))} on {stack}"


def _short(digest: str) -> str:
    """``sha256:0123456789ab`` (12 hex digits name a manifest in a sentence), or the word."""
    return digest[: len("sha256:") + 12] if digest.startswith("sha256:") else digest
