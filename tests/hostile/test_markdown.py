"""User text in a pull-request comment is shown, never rendered: a reason, a name, a unit
or a message cannot open a heading, a table row, an image, a link, HTML or a mention.

The comments are rendered by a real CommonMark engine with GitHub's tables (markdown-it),
and the HTML checked: every hostile fragment stays inside ``<code>``.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

from tests.diff.plan_dirs import write_plan_dir
from trainstack.console.markdown import code_span
from trainstack.console.tables import markdown_table
from trainstack.diff.render_markdown import warnings_markdown
from trainstack.diff.sources import two_plans
from trainstack.plan.files import REVIEW_JSON, AcknowledgedItem, ReviewFile, WarningItem, encode
from trainstack.results.compare import Row, Side
from trainstack.results.environment import EnvironmentVerdict
from trainstack.results.render_compare import compare_markdown
from trainstack.results.stats import Summary

HOSTILE = (
    "fine\n\n# all clear\n**No changes.**\n| forged | row |\n|---|---|\n"
    "![x](https://evil.example/x.png) [here](https://evil.example) <img src=x onerror=alert(1)> "
    "@org/team `one` ``two`` \\| \x1b[2J\r\n```\n<details>"
)
FRAGMENTS = ("@org/team", "https://evil.example", "all clear", "No changes.", "forged")


def _html(comment: str) -> str:
    return MarkdownIt("commonmark").enable("table").render(comment)


def _shown_not_rendered(html: str, headings: int = 0, rows: int | None = None) -> None:
    assert "<img" not in html and "<a " not in html and "<details" not in html
    assert len(re.findall(r"<h[1-6]>", html)) == headings
    if rows is not None:
        assert len(re.findall(r"<tr>", html)) == rows
    outside = re.sub(r"<code>.*?</code>", "", html, flags=re.S)
    for fragment in FRAGMENTS:
        assert fragment not in outside, fragment
    assert "\x1b" not in html and "\r" not in html


@pytest.mark.parametrize("text", [HOSTILE, "`", "``x`", "a|b", "\\", "x\\|y", "\n"])
def test_a_code_span_is_one_cell_of_one_line(text: str) -> None:
    html = _html(markdown_table(["h"], [[text]], set(), frozenset({0})))
    _shown_not_rendered(html, rows=2)
    assert html.count("<td>") == 1 and html.count("<code>") == 1


def test_the_pr_comment_shows_a_hostile_acknowledgement_as_text(tmp_path: Path) -> None:
    before, after = (write_plan_dir(tmp_path / side, "s", {"x": 1}) for side in ("a", "b"))
    acknowledged = AcknowledgedItem(
        "memoryLimit", HOSTILE, HOSTILE, HOSTILE, HOSTILE, HOSTILE, f"{HOSTILE}: acknowledge[0]"
    )
    review = ReviewFile(
        "stacks/Pulumi.s.yaml",
        warnings=[WarningItem("memoryLimit", HOSTILE, HOSTILE, HOSTILE, HOSTILE)],
        acknowledged=[acknowledged],
    )
    (after / REVIEW_JSON).write_bytes(encode(review))
    (before / REVIEW_JSON).write_bytes(encode(ReviewFile("stacks/Pulumi.s.yaml")))
    section = warnings_markdown([two_plans(before, after, 0).diff])
    assert section.startswith("**Warnings:** ")
    _shown_not_rendered(_html(section))


def test_results_compare_shows_hostile_names_and_units_as_text() -> None:
    def side(stack: str, mean: float) -> Side:
        return Side(stack, (1, 2), (mean - 1, mean + 1), Summary(2, mean, 1.0, None), None, 0)

    row = Row(
        experiment=HOSTILE,
        metric=HOSTILE,
        unit=HOSTILE,
        higher_is_better=True,
        a=side("aiacc", 110.0),
        b=side("baseline", 100.0),
        change=0.1,
        comparable=True,
        reason="",
        environment=EnvironmentVerdict("unknown", reason=HOSTILE),
    )
    comment = compare_markdown([row], "aiacc", "baseline")
    html = _html(comment)
    _shown_not_rendered(re.sub(r"<pre>.*?</pre>", "", html, flags=re.S), headings=1, rows=2)
    # The chart's block holds the labels on their own lines: it cannot be closed early.
    chart = comment[comment.index("```mermaid") :]
    assert chart.count("```") == 2 and chart.endswith("```\n")
    (y_axis,) = [line for line in chart.splitlines() if line.startswith("    y-axis ")]
    label = y_axis.removeprefix("    y-axis ").rpartition(" 0 --> ")[0]
    assert re.fullmatch(r'"[A-Za-z0-9_./%+,\- ]*"', label), label  # nothing can end it early
    assert "\n# all clear" not in chart


def test_code_span_escapes_what_a_terminal_would_act_on() -> None:
    assert code_span("a\x1b[2Jb\r\n") == "`a\\x1b[2Jb\\r\\n`"
    assert code_span("say `hi`") == "`` say `hi` ``"
    assert code_span("a|b") == "`a\\|b`"
