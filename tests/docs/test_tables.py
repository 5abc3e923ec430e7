"""The docs' hand-written tables that restate the code say what the code does: the exit
statuses, the limits and the benchmarks."""

from __future__ import annotations

import re

from tests.stack_helpers import REPO
from trainstack.cli import INTERNAL_ERROR_EXIT, USER_ERROR_EXIT
from trainstack.core import limits
from trainstack.diff.data_loss import DATA_LOSS

LIMITS_PAGE = (REPO / "docs" / "limits.md").read_text(encoding="utf-8")
DEVELOPMENT_PAGE = (REPO / "docs" / "development.md").read_text(encoding="utf-8")


def _rows(page: str, heading: str) -> dict[str, str]:
    """First cell -> second cell of the first table under ``heading``."""
    start = page.index(f"\n{heading}\n") + len(heading) + 2
    section = page[start:].split("\n## ")[0]
    rows = re.findall(r"(?m)^\| ([^|]+?) \| ([^|]+?) \|", section)
    return {first: second for first, second in rows[1:] if not set(first) <= {"-"}}


def test_the_exit_statuses_are_the_commands() -> None:
    statuses = _rows(LIMITS_PAGE, "## Exit statuses")
    assert set(statuses) == {"0", "1", "2", "3", "70", "130, 143, 129"}
    assert statuses[str(USER_ERROR_EXIT)].startswith("a user error")
    assert statuses[str(INTERNAL_ERROR_EXIT)].startswith("an internal error")
    assert statuses[str(DATA_LOSS)].startswith("`diff`: changes that delete or replace")


def test_the_limits_are_the_constants() -> None:
    table = _rows(LIMITS_PAGE, "## Limits")
    assert table["a YAML file (stack, experiment, values)"].startswith(
        f"{limits.MAX_FILE_BYTES >> 20} MiB;"
    )
    assert table["mappings and lists nested in one another"].startswith(
        f"{limits.MAX_YAML_DEPTH} levels"
    )
    nodes = table["keys, values and items of one document, aliases expanded"]
    assert nodes.startswith(f"{limits.MAX_YAML_NODES:,} ")
    assert f"{limits.MAX_YAML_EXPANDED_CHARS >> 20} Mi characters" in nodes
    assert table["one string value"] == f"{limits.MAX_SCALAR_CHARS >> 10} Ki characters"
    assert table["points of one experiment matrix"].startswith(f"{limits.MAX_MATRIX_POINTS} ")
    assert table["files in `experiments/`"].startswith(f"{limits.MAX_EXPERIMENT_FILES:,} ")
    assert table["experiments in `experiments/` (matrices expanded)"].startswith(
        f"{limits.MAX_EXPERIMENTS:,} "
    )
    assert table["releases one stack deploys (experiments times runs)"].startswith(
        f"{limits.MAX_RELEASES:,} "
    )
    assert table["pods of one role (`replicas`)"] == f"{limits.MAX_REPLICAS:,}"
    assert f"at most {limits.MAX_QUANTITY_CHARS} characters" in table["quantities"]
    assert table["a plan file read by `trainstack diff --plans`"] == (
        f"{limits.MAX_PLAN_FILE_BYTES >> 20} MiB"
    )


def test_the_benchmarks_table_lists_every_benchmark() -> None:
    listed = {name.strip("`") for name in _rows(DEVELOPMENT_PAGE, "## Benchmarks")}
    modules = {
        path.stem for path in (REPO / "benchmarks").glob("*.py") if not path.stem.startswith("_")
    }
    assert listed == modules
