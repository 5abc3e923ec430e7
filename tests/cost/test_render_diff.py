"""What a change costs as ``trainstack diff`` prints it: text, the comment's section, JSON."""

from __future__ import annotations

import json
from pathlib import Path

import msgspec

from tests.cost.test_change import side
from trainstack.cost.change import cost_change
from trainstack.cost.render_diff import (
    campaigns_json,
    cost_json,
    cost_markdown,
    cost_text,
    headline,
)


def test_the_headline_is_the_gpus_and_the_price_per_hour(tmp_path: Path) -> None:
    change = cost_change(side(tmp_path), side(tmp_path, nodes=6), "aiacc@HEAD", "aiacc")
    assert change is not None
    # 4 -> 6 nodes of 4 GPUs at 30.125: +8 GPUs, +60.25 an hour.
    assert headline(change) == "+8 GPUs: +¥60.25/h"
    same = cost_change(side(tmp_path, nodes=5), side(tmp_path, nodes=5), "a", "b")
    assert same is not None and headline(same) == "no change: ¥153.63/h"
    unpriced = cost_change(None, side(tmp_path, runs=2), "aiacc@HEAD", "aiacc")
    assert unpriced is not None and headline(unpriced) == "new: 16 GPUs, ¥123.50/h"


def test_text_lists_each_stack_its_changed_experiments_and_the_campaigns(tmp_path: Path) -> None:
    change = cost_change(side(tmp_path), side(tmp_path, nodes=6, runs=5), "aiacc@HEAD", "aiacc")
    assert change is not None
    lines = cost_text([("aiacc@HEAD", "aiacc", change)])
    assert lines == [
        "cost (nodes only, pay-as-you-go: no disks, NAS, traffic or cluster fees (docs/cost.md)):",
        "  aiacc@HEAD -> aiacc: 16 → 24 GPUs, per hour ¥123.50 → ¥183.75: +8 GPUs: "
        "+¥60.25/h; campaign ¥361.50 → ¥602.50",
        "    imagenet-tensorflow: 16 GPUs x 1h (expectedDuration), per run ¥120.50, 3 → 5 "
        "run(s): ¥361.50 → ¥602.50",
        "campaigns (each experiment's runs on every stack compared):",
        "  imagenet-tensorflow: 5 × aiacc: 80.00 GPU-h, ¥602.50",
    ]


def test_the_comment_warns_over_budget_and_tables_the_rest(tmp_path: Path) -> None:
    budget = {"budget": {"perHour": "150"}}
    change = cost_change(
        side(tmp_path, **budget), side(tmp_path, nodes=6, **budget), "aiacc@HEAD", "aiacc"
    )
    assert change is not None
    head, experiments, campaigns = cost_markdown([("aiacc@HEAD", "aiacc", change)])
    assert head.startswith("### Cost\n\nNodes only, pay-as-you-go")
    assert (
        "> [!WARNING]\n> **Over budget:** 1 figure(s) over a stack's `trainstack:cost.budget`."
        "\n>\n> - `aiacc: its pools per hour ¥183.75, over trainstack:cost.budget.perHour "
        "(¥150.00)`\n"
    ) in head
    assert (
        "| `aiacc@HEAD` → `aiacc` | 16 → 24 | ¥123.50 → ¥183.75 | +8 GPUs: +¥60.25/h | ¥361.50 |"
    ) in head
    assert experiments == ""  # no experiment's figures changed
    assert "| `imagenet-tensorflow` | `3 × aiacc` | 48.00 GPU-h | ¥361.50 |" in campaigns


def test_json_has_both_sides_every_difference_and_the_campaigns(tmp_path: Path) -> None:
    change = cost_change(side(tmp_path), side(tmp_path, nodes=6, runs=5), "aiacc@HEAD", "aiacc")
    assert change is not None
    document = json.loads(json.dumps(cost_json(change)))
    assert (document["gpus"], document["perHour"], document["campaign"]) == (
        8,
        "60.25",
        "241.00",
    )
    assert (document["before"]["perHour"], document["after"]["perHour"]) == ("123.50", "183.75")
    (imagenet,) = document["experiments"]
    assert (imagenet["before"]["runs"], imagenet["after"]["runs"], imagenet["perRun"]) == (
        3,
        5,
        "0.00",
    )
    assert campaigns_json([change]) == [
        {
            "experiment": "imagenet-tensorflow",
            "currency": "CNY",
            "runs": [{"stack": "aiacc", "runs": 5}],
            "gpuHours": "80.00",
            "cost": "602.50",
        }
    ]
    assert cost_json(None) is None


def test_campaigns_of_unknown_length_are_named_once_not_tabled(tmp_path: Path) -> None:
    known = side(tmp_path)
    unknown = msgspec.structs.replace(
        known.experiments[0], experiment="keras-lstm-1x1", campaign_gpu_hours=None, campaign=None
    )
    after = msgspec.structs.replace(known, experiments=[*known.experiments, unknown])
    change = cost_change(known, after, "aiacc@HEAD", "aiacc")
    assert change is not None
    _, _, campaigns = cost_markdown([("aiacc@HEAD", "aiacc", change)])
    assert "| `imagenet-tensorflow` | `3 × aiacc` | 48.00 GPU-h | ¥361.50 |" in campaigns
    assert "| `keras-lstm-1x1`" not in campaigns
    assert (
        "1 experiment(s) without a known run length (GPU-h and cost unknown): `keras-lstm-1x1`"
    ) in campaigns
    assert cost_text([("aiacc@HEAD", "aiacc", change)])[-1] == (
        "  1 experiment(s) without a known run length (GPU-h and cost unknown): keras-lstm-1x1"
    )
