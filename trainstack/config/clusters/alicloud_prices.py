"""What ECS instances cost on ACK: the price list of the ``alicloud`` kind, per node-hour.

Entries: the instance types of the example stacks in their region, cn-beijing. Alibaba
Cloud publishes ECS prices per instance type and region on the Price tab of the ECS
product page ("Instance type prices may vary by region. You can view price schedules of
instance types on the Price tab of the Elastic Compute Service product page",
https://www.alibabacloud.com/help/en/ecs/instance-types), a page its script renders: no
figure of it could be read offline, so each figure here is a placeholder, listed by the
plans of the stacks that use it, never a zero or a guess. Set the figure in the stack
(``trainstack:cost.prices``, with its source and the day you read it) or here.

- Pay-as-you-go is "accurate to the second, and bills are generated per hour", charged
  "throughout the lifecycle of the instances regardless of actual use" (the same page):
  an idle node costs what a busy one does.
- Preemptible (spot) instances are billed at a market price that "fluctuate[s] with changes
  in supply and demand" (the same page; its history: the ECS API DescribeSpotPriceHistory,
  https://www.alibabacloud.com/help/en/ecs/api-describespotpricehistory): no fixed figure,
  so ``spot`` stays unset.
- Currency: yuan (CNY), what the China site bills ECS in ("The minimum charge for the
  lifecycle of an ECS instance ... is 0.01 Chinese Yuan (CNY)",
  https://www.alibabacloud.com/en/notice/Upgrade-to-ECS-Pay-As-You-Go-Instance-Billing-Method);
  the international site shows "USD/hour"
  (https://www.alibabacloud.com/help/en/elastic-compute-service/latest/estimate-costs): an
  account billed in dollars sets ``trainstack:cost.currency: USD`` and its own figures.
- Not in these figures (billed apart, https://www.alibabacloud.com/help/en/elastic-compute-service/latest/billing-overview):
  disks, images, public bandwidth, snapshots; nor NAS, traffic or the ACK Pro
  management fee.
"""

from __future__ import annotations

from trainstack.config.prices import NodePrice, PriceList

PRICE_PAGE = (
    "https://www.alibabacloud.com/help/en/ecs/instance-types (the Price tab of the ECS product "
    "page: region China (Beijing), Linux, pay-as-you-go)"
)
REGION = "cn-beijing"


def _placeholder(instance_type: str) -> NodePrice:
    return NodePrice.model_validate(
        {
            "instanceType": instance_type,
            "region": REGION,
            "payAsYouGo": f"<pay-as-you-go price of {instance_type} in {REGION}, CNY per hour>",
            "source": PRICE_PAGE,
        }
    )


PRICES = PriceList(
    currency="CNY",
    entries=(
        # 4 x V100 32 GB, 48 vCPU, 368 GiB: workload 1's GPU nodes.
        _placeholder("ecs.gn6e-c12g1.12xlarge"),
        # 8 vCPU, 32 GiB, general purpose: the example stacks' CPU pool.
        _placeholder("ecs.g7.2xlarge"),
    ),
    module="trainstack/config/clusters/alicloud_prices.py",
    without="no entry in ACK's price list (trainstack/config/clusters/alicloud_prices.py): "
    "add the instance type's price per node-hour to trainstack:cost.prices",
)
