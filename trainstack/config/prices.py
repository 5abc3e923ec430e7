"""What nodes cost, as data: a price per node-hour by instance type and region, with where
each figure is published and when it was read.

Each kind of cluster brings its price list (:class:`PriceList`, in its own module: ACK's
is ``config/clusters/alicloud_prices.py``; an existing cluster has none); a stack adds or
overrides entries, and sets its currency and a budget, under ``trainstack:cost``
(:class:`CostSettings`). A figure nobody could read offline is a placeholder (``<...>``),
never a zero: the plan lists it, and every cost derived from it is unknown, said so.
What the figures become (per hour, per run, per campaign): ``trainstack/cost/``.
"""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass
from decimal import Decimal
from typing import Annotated, Any

from pydantic import AfterValidator, BeforeValidator, Field, StringConstraints, model_validator

from trainstack.config.node_pool import PoolName
from trainstack.core.base_model import StrictModel, constraint
from trainstack.core.limits import MAX_MONEY, MONEY_DECIMALS
from trainstack.core.names import PLACEHOLDER_PATTERN

MONEY_ALLOWED = (
    f"a number above 0 and at most {MAX_MONEY:,} with at most {MONEY_DECIMALS} decimals, "
    'e.g. `52.36` or "52.36"'
)


_PLAIN = re.compile(rf"[0-9]{{1,13}}(\.[0-9]{{1,{MONEY_DECIMALS}}})?")


def money(value: Any) -> Decimal:
    """``value`` (a YAML number or a plain decimal string) as an exact amount, or a
    constraint error. A YAML float is read back from its shortest text (``52.36``, never
    52.3599999...): the amount the file shows."""
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise constraint("", value, MONEY_ALLOWED)
    text = repr(value) if isinstance(value, float) else str(value)
    if _PLAIN.fullmatch(text) is None:
        raise constraint("", value, MONEY_ALLOWED)
    amount = Decimal(text)
    if not 0 < amount <= MAX_MONEY:
        raise constraint("", value, MONEY_ALLOWED)
    return amount


Money = Annotated[Decimal, BeforeValidator(money)]
"""An amount in the stack's currency: a price per node-hour, or a budget."""
Placeholder = Annotated[str, StringConstraints(pattern=f"^{PLACEHOLDER_PATTERN}$")]
Currency = Annotated[str, StringConstraints(pattern=r"^[A-Z]{3}$")]
"""An ISO 4217 code: ``CNY``, ``USD``."""
Region = Annotated[str, StringConstraints(pattern=r"^[a-z]{2}-[a-z0-9-]{1,40}$")]
InstanceType = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$")]
"""Any cloud's instance type: ``ecs.gn6e-c12g1.12xlarge``, ``p4d.24xlarge``."""


def _day(text: str) -> str:
    try:
        datetime.date.fromisoformat(text)
    except ValueError:
        raise constraint("", text, "a day written YYYY-MM-DD, e.g. 2026-12-06") from None
    return text


Day = Annotated[
    str, StringConstraints(pattern=r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$"), AfterValidator(_day)
]


class NodePrice(StrictModel):
    """The price of one node of an instance type (or of one pool) per hour."""

    instance_type: InstanceType | None = Field(
        default=None,
        description="The instance type priced (ACK: an ECS instance type, e.g. "
        "`ecs.gn6e-c12g1.12xlarge`); exactly one of instanceType and pool.",
    )
    pool: PoolName | None = Field(
        default=None,
        description="A node pool of this stack priced as a whole, per node: for pools "
        "without instance types (an existing cluster's: the cost of owning a node for an "
        "hour, as your organisation counts it); exactly one of instanceType and pool.",
    )
    region: Region | None = Field(
        default=None,
        description="The region the price is for (ACK: the cluster's region, e.g. "
        "`cn-beijing`); unset: every region. An entry of the cluster's region comes first.",
    )
    pay_as_you_go: Money | Placeholder = Field(
        description="What one node costs per hour, pay-as-you-go, in the stack's currency "
        '(e.g. `52.36`, or "52.36"), or a placeholder `<...>` until it is known: never 0.',
    )
    spot: Money | None = Field(
        default=None,
        description="The spot (preemptible) price per node-hour, where the cloud publishes a "
        "fixed one; unset where it follows a market price (Alibaba Cloud's does). Shown "
        "beside the pay-as-you-go figure; every cost is counted pay-as-you-go.",
    )
    source: str = Field(
        min_length=1,
        max_length=512,
        description="Where the figure is published: the price page's URL, or the console page "
        "and the selection made there.",
    )
    read_on: Day | None = Field(
        default=None,
        description="The day the figure was read there (YYYY-MM-DD): prices change. "
        "Required with a figure; unset for a placeholder.",
    )

    @model_validator(mode="after")
    def _one_subject_and_a_date(self) -> NodePrice:
        if (self.instance_type is None) == (self.pool is None):
            raise constraint(
                "instanceType", self.instance_type, "exactly one of instanceType and pool"
            )
        if isinstance(self.pay_as_you_go, Decimal) and self.read_on is None:
            raise constraint(
                "readOn", None, "the day the figure was read (YYYY-MM-DD): prices change"
            )
        return self

    @property
    def figure(self) -> Decimal | None:
        """The pay-as-you-go price per node-hour (``None``: still a placeholder)."""
        return self.pay_as_you_go if isinstance(self.pay_as_you_go, Decimal) else None

    @property
    def subject(self) -> str:
        """``ecs.gn6e-c12g1.12xlarge in cn-beijing`` or ``pool dgx-v100``."""
        if self.pool is not None:
            return f"pool {self.pool}"
        return f"{self.instance_type} in {self.region or 'every region'}"


class Budget(StrictModel):
    """What the stack may cost; a change that goes over it is a warning in pull requests."""

    per_hour: Money | None = Field(
        default=None,
        description="The most the stack's node pools may cost per hour at their size, idle "
        "or not (e.g. `300`).",
    )
    per_campaign: Money | None = Field(
        default=None,
        description="The most the runs the stack deploys may cost together (every selected "
        "experiment's runs times its cost per run).",
    )


class CostSettings(StrictModel):
    """The stack's currency, its own prices and its budget (``trainstack:cost``)."""

    currency: Currency | None = Field(
        default=None,
        description="The currency of every price and budget of the stack (ISO 4217, e.g. "
        "`CNY`, `USD`); unset: that of the cluster kind's price list (ACK: CNY). The kind's "
        "prices count only in their own currency.",
    )
    prices: list[NodePrice] = Field(
        default_factory=list,
        max_length=256,
        description="Prices per node-hour that add to or override the cluster kind's price "
        "list (docs/cost.md): each with its source and the day it was read.",
    )
    budget: Budget | None = Field(
        default=None, description="What the stack may cost (checked by `trainstack diff`)."
    )

    @model_validator(mode="after")
    def _each_subject_once(self) -> CostSettings:
        seen: dict[tuple[str | None, str | None, str | None], int] = {}
        for index, price in enumerate(self.prices):
            subject = (price.instance_type, price.pool, price.region)
            if subject in seen:
                raise constraint(
                    f"prices[{index}]",
                    price.subject,
                    f"each instance type and region (or pool) once: prices[{seen[subject]}] has it",
                )
            seen[subject] = index
        return self


@dataclass(frozen=True)
class PriceList:
    """A cluster kind's prices: in one currency, from one publisher, or none at all."""

    currency: str | None
    """The currency of the figures (``None``: the kind has no prices)."""
    entries: tuple[NodePrice, ...] = ()
    module: str = ""
    """The module that holds the entries, where a reader updates them."""
    without: str = ""
    """Why a pool of the kind has no price when no entry matches: what to set."""


NO_PRICES = PriceList(
    currency=None,
    without="trainstack knows no price list for this kind of cluster: give the pool's price "
    "per node-hour in trainstack:cost.prices",
)
