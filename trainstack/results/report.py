"""``trainstack results report A B -o DIR``: one self-contained HTML page, ``DIR/index.html``.

The page needs nothing but itself to be read: CSS inline, plots embedded as SVG
``data:`` images, no script, no font or file fetched (logs are linked relatively, to be
opened beside the repository). In order: the verdict (per compared row the change, its
95% interval, p, n and whether the runs resolve the change), the table, the plots, the
provenance of every run (commit, digests, its log, where it ran) and what the
comparison does not cover. The same results give the same bytes: no date, no random id.

Only ``DIR/index.html`` is written, atomically (a temporary file renamed over it); an
``index.html`` there that is not a trainstack report is refused, never overwritten.
"""

from __future__ import annotations

import base64
import os
import subprocess
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from html import escape
from pathlib import Path
from urllib.parse import quote

from trainstack.core.errors import ResultsError
from trainstack.core.files import open_regular, read_at_most
from trainstack.core.project import Project
from trainstack.results.compare import Row
from trainstack.results.costs import RowCost
from trainstack.results.render_compare import (
    compare_rows_cells,
    compare_table_headers,
    legend,
    notes_of,
)
from trainstack.results.render_costs import costs_html
from trainstack.results.render_recorded import telemetry_phrase
from trainstack.results.report_page import GENERATOR, page, table
from trainstack.results.report_telemetry import telemetry_section
from trainstack.results.store import StoredRun
from trainstack.results.verdict import sentence, unchecked_of

REPORT_FILE = "index.html"
_GIT_TIMEOUT = 5.0


def _git(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["git", "-C", str(root), *args],
        capture_output=True,
        text=True,
        timeout=_GIT_TIMEOUT,
        check=False,
    )


def _commit(root: Path) -> str:
    """The project's commit, and whether ``results/`` differs from it."""
    try:
        head = _git(root, "rev-parse", "HEAD")
        if head.returncode != 0:
            return "not a git checkout (no commit to name)"
        dirty = _git(root, "status", "--porcelain", "--", "results")
    except (OSError, subprocess.TimeoutExpired):
        return "unknown (git did not answer)"
    changed = " (results/ has changes not committed)" if dirty.stdout.strip() else ""
    return head.stdout.strip() + changed


def _plots(rows: Sequence[Row], a: str, b: str) -> list[str]:
    from trainstack.results.plot import compare_svg

    images = []
    for metric in sorted({row.metric for row in rows if row.a.summary and row.b.summary}):
        svg = compare_svg(rows, a, b, metric)
        data = base64.b64encode(svg.encode()).decode()
        alt = escape(f"{metric}: {a} vs {b}, bars from 0 with 95% CI, each run a dot, n under bars")
        images.append(f'<figure><img src="data:image/svg+xml;base64,{data}" alt="{alt}"></figure>')
    return images


def _environment(run: StoredRun) -> str:
    environment = run.record.environment
    if environment == "unknown":
        return "unknown (recorded from a saved log)"
    pools = ", ".join(
        f"{group.pool or 'no pool'}: {len(group.nodes)} node(s)" for group in environment.nodes
    )
    return (
        f"{environment.digest[:19]}; Kubernetes {environment.kubernetes.git_version or '?'}; "
        f"{pools or 'no node left'}"
    )


def _provenance(out: Path, runs: Mapping[str, Mapping[str, Sequence[StoredRun]]]) -> str:
    headers = [
        "stack",
        "experiment",
        "run",
        "source",
        "base values",
        "log",
        "log sha256",
        "job",
        "environment",
        "telemetry",
    ]
    cells = []
    for stack in sorted(runs):
        for experiment in sorted(runs[stack]):
            for run in runs[stack][experiment]:
                record = run.record
                link = relative_url(run.path.with_name(record.log.file), out)
                cells.append(
                    [
                        escape(stack),
                        escape(experiment),
                        str(record.run),
                        escape(record.source),
                        escape(record.base_values_digest[:19]),
                        f'<a href="{escape(link)}">{escape(record.log.file)}</a>'
                        + (" (end only)" if record.log.truncated else ""),
                        escape(record.log.sha256[:12]),
                        escape(f"{record.job.kind} {record.job.name}" if record.job else "-"),
                        escape(_environment(run)),
                        escape(telemetry_phrase(record) if record.job else "-"),
                    ]
                )
    return table(headers, cells)


def relative_url(path: Path, out: Path) -> str:
    """A link from ``out`` to ``path``: a relative URL, never read as a scheme
    (``javascript:x`` becomes ``./javascript%3Ax``), each part percent-encoded."""
    relative = Path(os.path.relpath(path, out)).as_posix()
    quoted = "/".join(quote(part, safe="") for part in relative.split("/"))
    return quoted if quoted.startswith(("../", "./")) else f"./{quoted}"


def _not_covered(rows: Sequence[Row]) -> list[str]:
    covered = [
        "Only the metrics the logs report, on these two clusters: not accuracy or convergence "
        "unless recorded, not other models, batch sizes or cluster sizes; of the cost, only "
        "the GPU nodes' share, at today's prices (docs/cost.md).",
        "Each run is taken as independent; runs made at the same time or on the same nodes "
        "may share their conditions.",
        "The interval and p-value assume roughly normal log values and say nothing of "
        "systematic differences beyond the acceleration (see the environments).",
    ]
    return covered + notes_of(rows) + unchecked_of(rows)


@dataclass(frozen=True)
class Compared:
    """What the report shows: the two stacks, the compared rows and every recorded run."""

    a: str
    b: str
    rows: Sequence[Row]
    runs: Mapping[str, Mapping[str, Sequence[StoredRun]]]
    costs: Sequence[RowCost] = ()
    """What the compared runs cost, and the runs still needed (``results.costs``)."""


def report_html(project: Project, compared: Compared, out: Path) -> str:
    """The page's text."""
    a, b, rows = compared.a, compared.b, compared.rows
    verdicts = [escape(sentence(row)) for row in rows if row.comparable] or [
        "Nothing compares: " + escape(row.reason) for row in rows[:1]
    ]
    return page(
        title=f"{a} vs {b}",
        verdicts=verdicts,
        legend=escape(legend(a, b)),
        table_html=table(
            [escape(h) for h in compare_table_headers(a, b)],
            [[escape(cell) for cell in cells] for cells in compare_rows_cells(rows)],
        ),
        plots=_plots(rows, a, b),
        provenance=f"<p>Commit: <code>{escape(_commit(project.root))}</code></p>"
        + _provenance(out, compared.runs),
        not_covered=[escape(item) for item in _not_covered(rows)],
        telemetry=telemetry_section(rows, compared.runs),
        cost=costs_html(compared.costs),
    )


def write_report(project: Project, compared: Compared, out: Path) -> Path:
    """Write ``out/index.html`` (only it) and return its path."""
    target = out / REPORT_FILE
    if target.is_symlink() or (target.exists() and not _ours(target)):
        raise ResultsError(
            f"{target}: exists and is not a trainstack report; not overwritten (choose "
            "another -o directory)"
        )
    text = report_html(project, compared, out.resolve())
    temporary = out / f".{REPORT_FILE}.{os.getpid()}.tmp"
    created = False
    try:
        out.mkdir(parents=True, exist_ok=True)
        # A new file only: never through a link or into a FIFO left at that name.
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
        with os.fdopen(os.open(temporary, flags, 0o644), "w", encoding="utf-8") as handle:
            created = True
            handle.write(text)
        os.replace(temporary, target)
    except OSError as error:
        if created:
            temporary.unlink(missing_ok=True)
        raise ResultsError(f"cannot write {target}: {error.strerror}") from error
    return target


def _ours(path: Path) -> bool:
    """Whether ``path`` is a report trainstack wrote: a regular file (a FIFO would block
    the open, a device never end) whose start names the generator."""
    try:
        descriptor = open_regular(path)
    except OSError:
        return False
    try:
        return GENERATOR.encode() in read_at_most(descriptor, 4096)
    except OSError:
        return False
    finally:
        os.close(descriptor)
