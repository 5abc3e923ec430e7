"""What the runs compared cost, and what resolving each row would, computed by hand here.

Both stacks as the example aiacc: ImageNet on 16 GPUs of gpu-v100 at a test price of
30.125 a node-hour, 7.53125 a GPU-hour (30.125 / 4 GPUs), not Alibaba's figure.
"""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

import pytest

from tests.cli_helpers import project_copy, run
from tests.cost.test_estimate import PRICES
from tests.results.records import images
from tests.results.sample_logs import add_tf_cnn_runs
from tests.results.test_durations import timed
from trainstack.core.yaml.io import dump_yaml, read_yaml
from trainstack.cost.estimate import ExperimentCost, RunLength
from trainstack.cost.money import figure
from trainstack.results.compare import compare
from trainstack.results.costs import StackPrices, row_costs
from trainstack.results.render_costs import cost_json, cost_lines
from trainstack.results.store import StoredRun

PER_GPU_HOUR = Decimal("7.53125")
PLACEHOLDER = (
    "the price of ecs.gn6e-c12g1.12xlarge in cn-beijing is a placeholder (set before deploying)"
)


def prices(
    stack: str, declared: str | None = None, per_gpu_hour: Decimal | None = PER_GPU_HOUR
) -> StackPrices:
    seconds = {"1h30m": Decimal(5400), None: None}[declared]
    imagenet = ExperimentCost(
        experiment="imagenet-tensorflow",
        pool="gpu-v100",
        gpus=16,
        runs=1,
        length=RunLength(seconds, f"expectedDuration {declared}" if declared else "unknown"),
        per_gpu_hour=per_gpu_hour,
        unpriced="" if per_gpu_hour else PLACEHOLDER,
    )
    return StackPrices(stack, "CNY", {"imagenet-tensorflow": imagenet})


def with_timing(runs: list[StoredRun], ends: list[str]) -> list[StoredRun]:
    """``runs`` collected from the cluster, each started at 10:00 and ended at its ``ends``."""
    return [
        StoredRun(
            run.path,
            timed(run.record.run, "2026-12-01T10:00:00Z", end).model_copy(
                update={"metrics": run.record.metrics, "stack": run.record.stack}
            ),
        )
        for run, end in zip(runs, ends, strict=True)
    ]


def test_the_runs_compared_and_the_runs_still_needed_cost_by_hand() -> None:
    a_runs = with_timing(
        images("aiacc", [1300, 1350, 1400]),
        ["2026-12-01T11:00:00Z", "2026-12-01T11:00:00Z", "2026-12-01T11:10:00Z"],
    )
    b_runs = images("baseline", [1200, 1210, 1190])  # from saved logs: untimed
    a = {"imagenet-tensorflow": a_runs}
    b = {"imagenet-tensorflow": b_runs}
    (row,) = compare("aiacc", a, "baseline", b)
    assert row.stats is not None and row.stats.runs_needed == 30  # ±2% at this spread
    (cost,) = row_costs([row], (prices("aiacc"), prices("baseline", "1h30m")), (a, b))

    # aiacc: 16 GPUs for 1h, 1h and 1h10m = 16 + 16 + 18.667 = 50.67 GPU-h, x 7.53125 =
    # 381.58.
    assert (cost.a.runs, cost.a.timed) == (3, 3)
    assert (figure(cost.a.gpu_hours), figure(cost.a.cost)) == ("50.67", "381.58")
    # baseline: untimed, unknown (never zero).
    assert (cost.b.timed, cost.b.gpu_hours, cost.b.cost) == (0, None, None)
    # 30 runs needed per side, 3 there: 27 more each. aiacc's run as long as its median
    # (1h: 16 GPU-h), baseline's its declared 1h30m (24 GPU-h): 27 x (16 + 24) = 1,080
    # GPU-h, x 7.53125 = 8,133.75.
    assert cost.more == (27, 27)
    assert (figure(cost.more_gpu_hours), figure(cost.more_cost)) == ("1080.00", "8133.75")
    assert cost_lines([cost]) == [
        "cost of the runs compared (nodes only, pay-as-you-go: no disks, NAS, traffic or "
        "cluster fees; docs/cost.md):",
        "  imagenet-tensorflow: aiacc 3 run(s): 50.67 GPU-h, ¥381.58; baseline 3 run(s), none "
        "timed (recorded from saved logs): GPU-h and cost unknown",
        "  imagenet-tensorflow images_per_sec: ±2% needs 27 more runs per side ≈ 1,080.00 "
        "GPU-h ≈ ¥8,133.75",
    ]
    document = cost_json(cost)
    assert document is not None
    assert (document["moreRuns"], document["moreGpuHours"], document["moreCost"]) == (
        [27, 27],
        "1080.00",
        "8133.75",
    )
    assert (document["a"]["gpuHours"], document["b"]["gpuHours"]) == ("50.67", None)


def test_unknown_lengths_and_prices_say_which() -> None:
    a = {"imagenet-tensorflow": images("aiacc", [1300, 1350, 1400])}
    b = {"imagenet-tensorflow": images("baseline", [1200, 1210, 1190])}
    (row,) = compare("aiacc", a, "baseline", b)
    (cost,) = row_costs([row], (prices("aiacc"), prices("baseline")), (a, b))
    assert cost_lines([cost])[-1] == (
        "  imagenet-tensorflow images_per_sec: ±2% needs 27 more runs per side: GPU-h unknown "
        "(aiacc: no timed run and no expectedDuration)"
    )
    unpriced = prices("baseline", "1h30m", per_gpu_hour=None)
    (cost,) = row_costs([row], (prices("aiacc", "1h30m"), unpriced), (a, b))
    # 27 x (24 + 24) = 1,296 GPU-h; baseline's GPU-hour has no price: the cost is unknown.
    assert cost_lines([cost])[-1] == (
        "  imagenet-tensorflow images_per_sec: ±2% needs 27 more runs per side ≈ 1,296.00 GPU-h, "
        "cost unknown (the price of ecs.gn6e-c12g1.12xlarge in cn-beijing is a placeholder "
        "(set before deploying))"
    )


def test_a_resolved_row_needs_nothing_more() -> None:
    a = {"imagenet-tensorflow": images("aiacc", [1338, 1344, 1350])}
    b = {"imagenet-tensorflow": images("baseline", [1196, 1200, 1204])}
    (row,) = compare("aiacc", a, "baseline", b)
    assert row.stats is not None and row.stats.resolved
    (cost,) = row_costs([row], (prices("aiacc"), prices("baseline")), (a, b))
    assert cost.more == (0, 0)
    assert len(cost_lines([cost])) == 2  # the heading and the runs compared, nothing needed


def test_compare_and_report_price_the_runs_at_the_stacks_prices(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Both example ACK stacks priced (test figures), ImageNet declared 1h30m, runs recorded
    # from saved logs (untimed) with a spread that resolves nothing yet.
    root = project_copy(tmp_path / "project")
    for stack in ("aiacc", "baseline"):
        path = root / "stacks" / f"Pulumi.{stack}.yaml"
        document = read_yaml(path)
        document["config"]["trainstack:cost"] = {"prices": PRICES}
        path.write_text(dump_yaml(document))
    experiment = root / "experiments" / "imagenet-tensorflow.yaml"
    experiment.write_text(experiment.read_text() + "expectedDuration: 1h30m\n")
    runs = {"aiacc": (1300, 1350, 1400), "baseline": (1200, 1210, 1190)}
    add_tf_cnn_runs(root, tmp_path, runs, monkeypatch)

    ran = run(
        root, "results", "compare", "aiacc", "baseline", "--format", "json", monkeypatch=monkeypatch
    )
    assert ran.code == 0, ran.stderr
    (row,) = json.loads(ran.stdout)
    # 30 runs needed per side, 3 there: 27 more each, of 16 GPUs x 1h30m = 24 GPU-h: 27 x 2
    # x 24 = 1,296 GPU-h; a GPU-hour is 30.125 / 4 = 7.53125: 1,296 x 7.53125 = 9,760.50.
    assert row["runsNeeded"] == 30
    cost = row["cost"]
    assert (cost["moreRuns"], cost["moreGpuHours"], cost["moreCost"]) == (
        [27, 27],
        "1296.00",
        "9760.50",
    )
    assert (cost["a"]["timedRuns"], cost["a"]["gpuHours"], cost["a"]["runLengthFrom"]) == (
        0,
        None,
        "expectedDuration 1h30m",
    )
    text = run(root, "results", "compare", "aiacc", "baseline", monkeypatch=monkeypatch).stdout
    assert text.endswith(
        "  imagenet-tensorflow images_per_sec: ±2% needs 27 more runs per side ≈ 1,296.00 "
        "GPU-h ≈ ¥9,760.50\n"
    )
    ran = run(
        root,
        "results",
        "report",
        "aiacc",
        "baseline",
        "-o",
        str(tmp_path / "report"),
        monkeypatch=monkeypatch,
    )
    assert ran.code == 0, ran.stderr
    page = (tmp_path / "report" / "index.html").read_text()
    assert "<h2>Cost</h2>" in page
    assert "±2% needs 27 more runs per side ≈ 1,296.00 GPU-h ≈ ¥9,760.50" in page
