"""The PR comment: data at risk, the summary, then per pair of stacks what changed (warning
changes, a table of objects, a collapsible diff each), the rest collapsed, under the limit,
with the budget spent on changes first."""

from __future__ import annotations

import re
from decimal import Decimal
from pathlib import Path

from tests.diff.plan_dirs import write_plan_dir
from trainstack.console.markdown import code_span
from trainstack.cost.record import COST_JSON, BudgetItem, CostFile
from trainstack.cost.record import ExperimentItem as CostExperiment
from trainstack.diff.budget import GITHUB_COMMENT_LIMIT
from trainstack.diff.compare import compare
from trainstack.diff.model import StackDiff
from trainstack.diff.render_markdown import MARKDOWN_LISTED, markdown, warnings_markdown
from trainstack.diff.snapshot import load_snapshot
from trainstack.diff.sources import two_plans
from trainstack.plan.files import REVIEW_JSON, AcknowledgedItem, ReviewFile, WarningItem, encode


def _diff(tmp_path: Path, before: dict[str, int], after: dict[str, int]) -> StackDiff:
    first = write_plan_dir(tmp_path / "a", "aiacc", before)
    second = write_plan_dir(tmp_path / "b", "baseline", after)
    return compare(load_snapshot(first), load_snapshot(second), "aiacc", "baseline")


def test_summary_table_comes_first_then_one_section_per_changed_object(tmp_path: Path) -> None:
    comment = markdown([_diff(tmp_path, {"resnet": 2, "bert": 1}, {"resnet": 4, "bert": 1})])

    lines = comment.splitlines()
    assert lines[0] == "### trainstack diff"
    assert lines[2] == "| compared | added | removed | changed | unchanged |"
    assert lines[4] == "| `aiacc` → `baseline` | 0 | 0 | 2 | 2 |"
    # The pair is named once, in its section's heading; the rows do not repeat it.
    assert lines[6] == "#### `aiacc` → `baseline`"
    table = lines.index("| change | object |")
    assert lines[table : table + 4] == [
        "| change | object |",
        "|---|---|",
        "| changed | `MPIJob default/resnet` |",
        "| changed | `kubernetes:helm.sh/v3:Release resnet-release` |",
    ]
    assert comment.count("`aiacc` → `baseline`") == 2  # the summary row and the heading
    assert comment.index("| change | object |") < comment.index("<details>")
    assert comment.count("<summary>changed ") == 2
    assert "<summary>changed <code>MPIJob default/resnet</code>" in comment
    assert "\n-      replicas: 2\n+      replicas: 4\n" in comment
    assert "bert" not in comment  # unchanged objects are not shown


def test_a_removed_object_is_named_not_repeated_line_by_line(tmp_path: Path) -> None:
    stack_diff = _diff(tmp_path, {"resnet": 2, "bert": 1}, {"resnet": 2})
    comment = markdown([stack_diff])

    (job,) = [o for o in stack_diff.objects if o.status == "removed" and "MPIJob" in o.key.label]
    removed_lines = [line for line in job.diff_lines if line.startswith("-")][1:]  # no "---"
    assert removed_lines and all(line not in comment.splitlines() for line in removed_lines)
    section = comment[comment.index("<summary>removed <code>MPIJob default/bert</code>") :]
    assert section.split("</details>")[0].splitlines()[2] == (
        f"Its {len(removed_lines)} line(s) are on the base side; run `trainstack diff` "
        "locally to see them."
    )


def test_no_changes_says_so(tmp_path: Path) -> None:
    comment = markdown([_diff(tmp_path, {"resnet": 2}, {"resnet": 2})])

    assert "No changes." in comment
    assert "<details>" not in comment


def test_long_report_is_cut_under_the_limit_with_a_note(tmp_path: Path) -> None:
    count = 400
    result = _diff(
        tmp_path,
        {f"experiment-{i:03d}": 2 for i in range(count)},
        {f"experiment-{i:03d}": 3 for i in range(count)},
    )
    assert len(result.shown) == 2 * count

    comment = markdown([result])

    assert len(comment) <= GITHUB_COMMENT_LIMIT
    sections = comment.count("<details>")
    assert 0 < sections < 2 * count
    note = re.search(r"\*\*Truncated:\*\* (\d+) more changed object\(s\)", comment)
    assert note is not None
    # A section cut short still counts as shown: every object is either shown or counted.
    assert int(note.group(1)) + sections == 2 * count
    # The rows of changed objects come before the diffs in the budget: all are listed.
    assert comment.count("| changed | `MPIJob default/") == count
    assert comment.count("<details>") == comment.count("</details>")
    assert comment.count("```") % 2 == 0  # every code block is closed


def test_a_smaller_limit_is_respected(tmp_path: Path) -> None:
    result = _diff(tmp_path, {f"e{i}": 2 for i in range(30)}, {f"e{i}": 3 for i in range(30)})

    comment = markdown([result], limit=5000)

    assert len(comment) <= 5000
    assert "**Truncated:**" in comment


def test_code_spans_survive_backticks_and_table_pipes() -> None:
    assert code_span("plain") == "`plain`"
    assert code_span("a|b") == "`a\\|b`"
    assert code_span("x `y` z") == "``x `y` z``"


def test_a_long_list_is_cut_per_group_in_the_comment_and_markup_escaped(tmp_path: Path) -> None:
    count = MARKDOWN_LISTED + 2
    after = tmp_path / "b"
    write_plan_dir(tmp_path / "a", "s", {"x": 1})
    write_plan_dir(after, "s", {"x": 1})
    stack_file = "stacks/Pulumi.aiacc.yaml"
    warnings = [
        WarningItem("memoryLimit", f"experiments/e{n:02d}.yaml", f"e{n:02d}", "job", "<no limit>")
        for n in range(count)
    ]
    (after / "s" / REVIEW_JSON).write_bytes(encode(ReviewFile(stack_file, warnings=warnings)))
    (tmp_path / "a" / "s" / REVIEW_JSON).write_bytes(encode(ReviewFile(stack_file)))
    section = warnings_markdown([two_plans(tmp_path / "a" / "s", after / "s", 0).diff])
    assert section.startswith("**Warnings:** 27 new, 0 gone, 0 unchanged, 0 acknowledged\n")
    items = [line for line in section.splitlines() if line.startswith("- **new**")]
    assert len(items) == MARKDOWN_LISTED
    assert items[0].endswith(": `<no limit>`")  # inline code: shown, never rendered as HTML
    assert "- ... and 2 more new (run `trainstack diff` locally)" in section.splitlines()


def _acknowledged(count: int) -> list[AcknowledgedItem]:
    """``count`` acknowledged warnings, each with a reason of the longest kind (500)."""
    return [
        AcknowledgedItem(
            "hostNetwork",
            f"experiments/e{n:02d}.yaml",
            f"e{n:02d}",
            "job.network.hostNetwork",
            "true: pods on the node's network",
            "RDMA needs the host's network stack. " * 13,
            f"experiments/e{n:02d}.yaml: acknowledge[0]",
        )
        for n in range(count)
    ]


def test_the_budget_goes_to_changes_before_acknowledged_warnings(tmp_path: Path) -> None:
    # 40 acknowledged warnings (~27,000 characters) on both sides, and 30 experiments
    # whose jobs change: under 14,000 characters, every change is listed.
    names = {f"experiment-{i:02d}": 2 for i in range(30)}
    first = write_plan_dir(tmp_path / "a", "aiacc", names)
    second = write_plan_dir(tmp_path / "b", "aiacc", {name: 3 for name in names})
    review = encode(ReviewFile("stacks/Pulumi.aiacc.yaml", acknowledged=_acknowledged(40)))
    for plan in (first, second):
        (plan / REVIEW_JSON).write_bytes(review)
    result = compare(load_snapshot(first), load_snapshot(second), "aiacc@main", "aiacc")
    assert len(markdown([result], limit=GITHUB_COMMENT_LIMIT)) > 40_000  # the whole report

    comment = markdown([result], limit=14_000)

    assert len(comment) <= 14_000
    rows = [line for line in comment.splitlines() if line.startswith("| changed | ")]
    assert len(rows) == 60  # a release and an MPIJob per experiment, none left out
    assert "RDMA needs" not in comment  # the folded list went first
    assert comment.endswith(
        "collapsed list(s) of unchanged and acknowledged warnings not shown: this report is "
        "kept under 14,000 characters (a GitHub comment holds at most 65,536). Run the same "
        "`trainstack diff` locally to see everything.\n"
    )
    note = re.search(r"\*\*Truncated:\*\* (\d+) more changed object\(s\), 1 collapsed", comment)
    assert note is not None
    assert int(note.group(1)) + comment.count("<details><summary>changed") == 60


def test_a_report_that_fits_shows_the_folded_list_last(tmp_path: Path) -> None:
    first = write_plan_dir(tmp_path / "a", "aiacc", {"resnet": 2})
    second = write_plan_dir(tmp_path / "b", "aiacc", {"resnet": 4})
    review = encode(ReviewFile("stacks/Pulumi.aiacc.yaml", acknowledged=_acknowledged(2)))
    for plan in (first, second):
        (plan / REVIEW_JSON).write_bytes(review)

    comment = markdown([compare(load_snapshot(first), load_snapshot(second), "a", "b")])

    assert "**Truncated:**" not in comment
    folded = comment.index("<details><summary>2 acknowledged warning(s)</summary>")
    assert folded > comment.rindex("<summary>changed <code>")
    assert comment.count("- **acknowledged** `hostNetwork`") == 2
    assert comment.endswith("</details>\n\n")


def _cost(stack: str, experiments: int, runs: int, per_hour: str, over: bool) -> CostFile:
    """A plan's cost.json: ``experiments`` of 16 GPUs for 1h at 120.50 a run, ``runs`` each."""
    items = [
        CostExperiment(
            experiment=f"experiment-{i:03d}",
            gpus=16,
            runs=runs,
            duration_seconds="3600",
            gpu_hours_per_run="16.00",
            per_run="120.50",
            campaign_gpu_hours=f"{16 * runs}.00",
            campaign=f"{Decimal('120.50') * runs:.2f}",
        )
        for i in range(experiments)
    ]
    budget = [BudgetItem("its pools per hour", "perHour", "150", per_hour, over)]
    return CostFile(
        stack, gpus=16, currency="CNY", per_hour=per_hour, experiments=items, budget=budget
    )


def _costed(tmp_path: Path, objects: int, experiments: int) -> StackDiff:
    names = {f"experiment-{i:03d}": 2 for i in range(objects)}
    first = write_plan_dir(tmp_path / "a", "aiacc", names)
    second = write_plan_dir(tmp_path / "b", "aiacc", {name: 3 for name in names})
    (first / COST_JSON).write_bytes(encode(_cost("aiacc", experiments, 3, "123.50", False)))
    (second / COST_JSON).write_bytes(encode(_cost("aiacc", experiments, 5, "183.75", True)))
    return compare(load_snapshot(first), load_snapshot(second), "aiacc@main", "aiacc")


def test_the_cost_comes_after_the_data_at_risk_and_the_changes(tmp_path: Path) -> None:
    comment = markdown([_costed(tmp_path, 2, 2)])

    assert "**Truncated:**" not in comment
    cost = comment.index("### Cost")
    assert cost > comment.rindex("<summary>changed <code>")  # after every change
    assert comment.index("> [!WARNING]\n> **Over budget:** 1 figure(s)") > cost
    # 123.50 -> 183.75 an hour; each of 2 experiments 3 -> 5 runs of 120.50: +482.00.
    assert "| `aiacc@main` → `aiacc` | 16 | ¥123.50 → ¥183.75 | +0 GPUs: +¥60.25/h |" in comment
    assert (
        "| `experiment-001` | `aiacc@main` → `aiacc` | 16 | 1h (expectedDuration) | ¥120.50 | "
        "3 → 5 | ¥361.50 → ¥602.50 |"
    ) in comment
    assert "| `experiment-000` | `5 × aiacc` | 80.00 GPU-h | ¥602.50 |" in comment


def test_the_cost_section_keeps_the_comment_within_its_budget(tmp_path: Path) -> None:
    # 300 changed jobs and 1,000 experiments whose cost changed: far over 20,000
    # characters; the stacks' cost and the budget warning stay, the tables are counted.
    result = _costed(tmp_path, 300, 1000)
    assert len(markdown([result], limit=10**7)) > 100_000

    comment = markdown([result], limit=20_000)

    assert len(comment) <= 20_000
    assert "### Cost" in comment and "**Over budget:** 1 figure(s)" in comment
    assert "| `aiacc@main` → `aiacc` | 16 | ¥123.50 → ¥183.75 |" in comment
    note = re.search(r"\*\*Truncated:\*\* .*(\d) cost table\(s\)", comment)
    assert note is not None and note.group(1) in ("1", "2")
    # The rows of changed objects keep their place before the cost tables in the budget.
    assert comment.count("| changed | `MPIJob default/") == 300
