"""Prices as data: a figure or a placeholder, with its source and the day it was read; the
stack's currency, entries and budget (``trainstack:cost``)."""

from __future__ import annotations

from decimal import Decimal

import pytest
from pydantic import ValidationError

from tests.config.conftest import Loader
from tests.stack_helpers import example_config, existing_cluster_config
from trainstack.config.clusters.alicloud import KIND as ALICLOUD
from trainstack.config.prices import NodePrice
from trainstack.core.errors import ConfigError

GPU_PRICE = {
    "instanceType": "ecs.gn6e-c12g1.12xlarge",
    "region": "cn-beijing",
    "payAsYouGo": "52.36",
    "source": "ECS console, buy page, cn-beijing",
    "readOn": "2026-12-06",
}


def price(**changes: object) -> NodePrice:
    return NodePrice.model_validate({**GPU_PRICE, **changes})


@pytest.mark.parametrize(
    ("written", "amount"),
    [("52.36", "52.36"), (52.36, "52.36"), (52, "52"), ("0.000001", "0.000001")],
)
def test_a_figure_is_the_exact_amount_the_file_shows(written: object, amount: str) -> None:
    # A YAML float is read back from its shortest text: 52.36, never 52.359999...
    assert price(payAsYouGo=written).figure == Decimal(amount)


@pytest.mark.parametrize(
    "written", [0, "0", -1, "1e3", "NaN", "inf", True, "0.0000001", 10**12 + 1, "52,36", [1]]
)
def test_a_figure_is_above_zero_bounded_and_plain(written: object) -> None:
    with pytest.raises(ValidationError, match="a number above 0 and at most"):
        price(payAsYouGo=written)


def test_a_placeholder_is_no_figure_and_needs_no_date() -> None:
    pending = price(payAsYouGo="<price of ecs.gn6e-c12g1.12xlarge>", readOn=None)
    assert pending.figure is None


def test_a_figure_needs_the_day_it_was_read() -> None:
    with pytest.raises(ValidationError, match="the day the figure was read"):
        price(readOn=None)
    with pytest.raises(ValidationError, match="a day written YYYY-MM-DD"):
        price(readOn="2026-02-30")


def test_an_entry_prices_an_instance_type_or_a_pool() -> None:
    with pytest.raises(ValidationError, match="exactly one of instanceType and pool"):
        price(pool="gpu-v100")
    with pytest.raises(ValidationError, match="exactly one of instanceType and pool"):
        price(instanceType=None)


def test_the_ack_list_holds_the_examples_instance_types_as_placeholders() -> None:
    listed = {entry.instance_type: entry for entry in ALICLOUD.prices.entries}
    assert set(listed) == {"ecs.gn6e-c12g1.12xlarge", "ecs.g7.2xlarge"}
    for entry in listed.values():
        # Nothing could be read offline: a placeholder, never a zero or a guess.
        assert entry.figure is None and entry.region == "cn-beijing"
        assert entry.source.startswith("https://www.alibabacloud.com/help/en/ecs/instance-types")
    assert ALICLOUD.prices.currency == "CNY"


def test_a_stack_adds_prices_and_a_budget(load: Loader) -> None:
    config = example_config("aiacc")
    config["trainstack:cost"] = {"prices": [GPU_PRICE], "budget": {"perHour": 300}}
    cost = load(config).config.cost
    assert cost.prices[0].figure == Decimal("52.36")
    assert cost.budget is not None and cost.budget.per_hour == Decimal(300)


def test_each_subject_is_priced_once(load: Loader) -> None:
    config = example_config("aiacc")
    config["trainstack:cost"] = {"prices": [GPU_PRICE, {**GPU_PRICE, "payAsYouGo": "50"}]}
    with pytest.raises(ConfigError, match=r"prices\[0\] has it") as caught:
        load(config)
    assert caught.value.problems[0].path == "trainstack:cost.prices[1]"


def test_a_priced_pool_is_a_pool_of_the_stack(load: Loader) -> None:
    config = existing_cluster_config()
    entry = {"pool": "dgx", "payAsYouGo": "80", "source": "finance", "readOn": "2026-12-01"}
    config["trainstack:cost"] = {"currency": "EUR", "prices": [entry]}
    with pytest.raises(ConfigError, match="a pool of the stack") as caught:
        load(config)
    assert caught.value.problems[0].path == "trainstack:cost.prices[0].pool"


def test_a_kind_without_a_price_list_needs_the_stacks_currency(load: Loader) -> None:
    config = existing_cluster_config()
    entry = {"pool": "gpu-v100", "payAsYouGo": "80", "source": "finance", "readOn": "2026-12-01"}
    config["trainstack:cost"] = {"prices": [entry]}
    with pytest.raises(ConfigError, match="has no price list to take it from") as caught:
        load(config)
    assert caught.value.problems[0].path == "trainstack:cost.currency"
    config["trainstack:cost"]["currency"] = "EUR"
    assert load(config).config.cost.currency == "EUR"


def test_an_instance_type_is_a_name_not_text() -> None:
    # What reaches a plan, a comment or a report from a price is a name, never markup.
    for written in ("x](https://example.com)", "a b", "\x1b[31m", ""):
        with pytest.raises(ValidationError, match="instance_type|instanceType"):
            price(instanceType=written)
