"""The report's HTML: one page, inline CSS, no script; every piece of text is escaped by
the caller (:func:`html.escape`) before it reaches these functions."""

from __future__ import annotations

from collections.abc import Sequence

GENERATOR = "trainstack results report"

_CSS = """
body { font-family: system-ui, sans-serif; margin: 1.5rem auto; max-width: 72rem;
       padding: 0 1rem; color: #1b1b1b; line-height: 1.45; }
h1 { font-size: 1.5rem; margin: 0 0 .75rem; }
h2 { font-size: 1.15rem; margin-top: 2rem; border-bottom: 1px solid #ccc; }
#verdict { border: 2px solid #1f77b4; border-radius: 6px; padding: .5rem 1rem;
           background: #f3f8fc; }
#verdict li { margin: .25rem 0; }
table { border-collapse: collapse; font-size: .85rem; margin: .5rem 0; }
th, td { border: 1px solid #ccc; padding: .2rem .45rem; text-align: left;
         vertical-align: top; }
th { background: #f0f0f0; }
figure { margin: 1rem 0; }
figure img { max-width: 100%; height: auto; }
.legend { color: #444; font-size: .9rem; }
"""


def table(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A table of already escaped cells."""
    head = "".join(f"<th>{cell}</th>" for cell in headers)
    body = "".join("<tr>" + "".join(f"<td>{cell}</td>" for cell in row) + "</tr>" for row in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>\n"


def page(
    *,
    title: str,
    verdicts: Sequence[str],
    legend: str,
    table_html: str,
    plots: Sequence[str],
    provenance: str,
    not_covered: Sequence[str],
    cost: str = "",
    telemetry: str = "",
) -> str:
    """The whole page, verdict first (``telemetry`` and ``cost``: their sections' HTML,
    heading included, after the plots)."""
    items = "".join(f"<li>{item}</li>" for item in verdicts)
    covered = "".join(f"<li>{item}</li>" for item in not_covered)
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f'<meta name="generator" content="{GENERATOR}">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>Results: {title}</title>\n<style>{_CSS}</style>\n</head>\n<body>\n"
        f"<h1>Results: {title}</h1>\n"
        f'<section id="verdict" aria-label="verdict"><h2 style="margin-top:0">Verdict</h2>'
        f"<ul>{items}</ul></section>\n"
        f'<h2>Every experiment and metric</h2>\n<p class="legend">{legend}</p>\n{table_html}'
        f"<h2>Plots</h2>\n{''.join(plots) or '<p>No experiment has values on both sides.</p>'}\n"
        f"{telemetry}{cost}"
        f"<h2>Provenance of every run</h2>\n{provenance}"
        f"<h2>What this comparison does not cover</h2>\n<ul>{covered}</ul>\n"
        "</body>\n</html>\n"
    )
