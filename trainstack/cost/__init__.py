"""What a stack costs: its node pools per hour, an experiment per run and per campaign,
the change a pull request makes, and what resolving a comparison would cost.

Prices are data of the cluster kinds and the stacks (``trainstack.config.prices``); this
package prices pools (:mod:`~trainstack.cost.pool_prices`), estimates a plan's figures
(:mod:`~trainstack.cost.estimate`), writes and reads them (``cost.json`` of a plan,
:mod:`~trainstack.cost.record`), compares two plans' (:mod:`~trainstack.cost.change`) and
shows them (``render_*``). Amounts are exact decimals rounded once
(:mod:`~trainstack.cost.money`). docs/cost.md says what is and is not counted.
"""
