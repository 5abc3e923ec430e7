"""``cost.json``: every figure as an exact decimal string, unknown as null, read back typed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cost.test_estimate import PRICES, planned
from trainstack.core.errors import DiffError
from trainstack.cost.estimate import stack_cost
from trainstack.cost.record import COST_JSON, CostFile, cost_file
from trainstack.plan.files import encode, read


def test_every_figure_is_a_field(tmp_path: Path) -> None:
    budget = {"perHour": "100"}
    config, experiments = planned(tmp_path, {"prices": PRICES, "budget": budget})
    document = json.loads(encode(cost_file(stack_cost("aiacc", config, experiments, {}))))
    assert document["currency"] == "CNY" and document["pricing"] == "pay-as-you-go"
    assert (document["gpus"], document["perHour"], document["campaign"]) == (
        16,
        "123.50",
        "542.25",
    )
    gpu, cpu = document["pools"]
    assert (gpu["perNodeHour"], gpu["perHour"], gpu["perGpuHour"]) == (
        "30.125",
        "120.50",
        "7.53125",
    )
    assert gpu["prices"] == [
        {
            "subject": "ecs.gn6e-c12g1.12xlarge in every region",
            "where": "trainstack:cost.prices[0]",
            "source": "ECS console, buy page",
            "readOn": "2026-12-06",
            "placeholder": None,
        }
    ]
    assert (cpu["perHour"], cpu["perGpuHour"], cpu["unpriced"]) == ("3.00", None, None)
    (imagenet,) = document["experiments"]
    assert {key: imagenet[key] for key in ("durationSeconds", "gpuHoursPerRun", "perRun")} == {
        "durationSeconds": "5400",
        "gpuHoursPerRun": "24.00",
        "perRun": "180.75",
    }
    assert (imagenet["campaignGpuHours"], imagenet["campaign"]) == ("72.00", "542.25")
    assert document["budget"] == [
        {
            "what": "its pools per hour",
            "key": "perHour",
            "limit": "100",
            "figure": "123.50",
            "over": True,
        }
    ]


def test_unknown_is_null(tmp_path: Path) -> None:
    config, experiments = planned(tmp_path, {}, runs=1, expectedDuration=None)
    document = json.loads(encode(cost_file(stack_cost("aiacc", config, experiments, {}))))
    assert document["perHour"] is None and document["campaign"] is None
    gpu = document["pools"][0]
    assert gpu["perNodeHour"] is None and gpu["prices"][0]["placeholder"].startswith("<pay-as")
    assert document["experiments"][0]["perRun"] is None


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ('{"stack": "a", "gpus": 1, "perHour": "1e999"}', "perHour"),
        ('{"stack": "a", "gpus": 1, "perHour": 1.5}', "perHour"),
        ('{"stack": "a", "gpus": 1, "currency": "<b>"}', "currency"),
        ('{"stack": "a"}', "'gpus' missing"),
    ],
)
def test_a_broken_file_is_one_error_naming_the_item(
    tmp_path: Path, text: str, problem: str
) -> None:
    path = tmp_path / COST_JSON
    path.write_text(text)
    with pytest.raises(DiffError, match=problem):
        read(path, CostFile, None)
