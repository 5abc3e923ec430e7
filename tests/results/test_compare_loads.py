"""What ``results compare`` loads: a stack's prices (its file read, its experiments
resolved: the stack and job models, Helm's reader) only when a figure shown needs them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli_helpers import project_copy, run
from tests.experiments.test_lookup import TYPO
from tests.results.sample_logs import add_tf_cnn_runs
from tests.stack_helpers import REPO
from trainstack.core.yaml.io import dump_yaml, read_yaml

PRICING = (
    "helm_python",
    "trainstack.config.stack",
    "trainstack.cost.estimate",
    "trainstack.experiments.resolve",
)
"""What loading a stack's prices imports (:func:`trainstack.results.costs.stack_prices`)."""
PLACEHOLDER = (
    "the price of ecs.gn6e-c12g1.12xlarge in cn-beijing is a placeholder (set before deploying)"
)
"""Why the example stacks' GPU-hour has no price: read from the stack's prices."""


@pytest.fixture()
def root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Both stacks' runs recorded from saved logs (untimed), resolved already: no figure
    of their cost can be known, and no run more is needed."""
    root = project_copy(tmp_path / "project")
    runs = {"aiacc": (1340, 1344, 1348), "baseline": (1196, 1200, 1204)}
    add_tf_cnn_runs(root, tmp_path, runs, monkeypatch)
    return root


def _compare_loading(root: Path, output: str) -> tuple[str, list[str]]:
    """``results compare aiacc baseline --format OUTPUT`` in a fresh process: its output
    and which of :data:`PRICING` it imported."""
    args = ["results", "compare", "aiacc", "baseline", "--format", output]
    code = (
        "import sys\n"
        "from trainstack.cli import app\n"
        "try:\n"
        f"    app({args!r})\n"
        "except SystemExit as end:\n"
        "    assert not end.code, end.code\n"
        f"print(sorted(m for m in {PRICING!r} if m in sys.modules), file=sys.stderr)\n"
    )
    ran = subprocess.run(
        [sys.executable, "-c", code],
        cwd=root,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        capture_output=True,
        text=True,
        check=False,
    )
    assert ran.returncode == 0, ran.stderr
    return ran.stdout, json.loads(ran.stderr.strip().splitlines()[-1].replace("'", '"'))


@pytest.mark.parametrize(
    ("output", "cost"),
    [
        ("text", "aiacc 3 run(s), none timed (recorded from saved logs): GPU-h and cost unknown"),
        ("markdown", "| `imagenet-tensorflow` | `aiacc` | 3 | 0 | unknown | unknown |"),
    ],
)
def test_untimed_resolved_runs_load_no_prices(
    root: Path, output: str, cost: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    shown, loaded = _compare_loading(root, output)
    assert loaded == []
    assert cost in shown  # the cost section is there, its figures unknown at any price
    in_process = run(
        root, "results", "compare", "aiacc", "baseline", "--format", output, monkeypatch=monkeypatch
    )
    assert shown == in_process.stdout


def test_json_shows_each_sides_currency_so_loads_the_prices(root: Path) -> None:
    shown, loaded = _compare_loading(root, "json")
    assert loaded == sorted(PRICING)
    (row,) = json.loads(shown)
    assert (row["cost"]["a"]["currency"], row["cost"]["a"]["unpriced"]) == ("CNY", PLACEHOLDER)


def test_a_stack_that_does_not_load_leaves_its_side_unpriced(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = root / "stacks" / "Pulumi.baseline.yaml"
    document = read_yaml(path)
    document["config"]["trainstack:nodePools"] = "not a list"
    path.write_text(dump_yaml(document))
    ran = run(
        root, "results", "compare", "aiacc", "baseline", "--format", "json", monkeypatch=monkeypatch
    )
    assert ran.code == 0, ran.stderr
    (row,) = json.loads(ran.stdout)
    assert row["cost"]["a"]["unpriced"] == PLACEHOLDER
    assert (row["cost"]["b"]["currency"], row["verdict"]) == (None, "aiacc better")
    assert row["cost"]["b"]["unpriced"].startswith(
        "baseline not priced: its stack did not load (invalid stack configuration in "
        "stacks/Pulumi.baseline.yaml: trainstack:nodePools"
    )


def test_only_the_experiments_compared_are_resolved_to_price_them(root: Path) -> None:
    # Another experiment's job broken (the plan names it): the runs compared are priced
    # all the same, and the rest of the project is not resolved to price them.
    (root / "experiments" / "typo.yaml").write_text(dump_yaml(TYPO))
    shown, _ = _compare_loading(root, "json")
    (row,) = json.loads(shown)
    for side in ("a", "b"):
        assert (row["cost"][side]["currency"], row["cost"][side]["unpriced"]) == (
            "CNY",
            PLACEHOLDER,
        )
