"""The offline plan: the real program under Pulumi's mock engine, every registration kept.

Its public names; each is imported from its module on first use
(:mod:`trainstack.core.facades`). The files a plan writes are typed in
:mod:`trainstack.plan.files`, which the diff reads as a module of its own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from trainstack.core.facades import lazy_names

if TYPE_CHECKING:
    from trainstack.plan.cache import (
        CACHE_DIR_ENV,
        NO_CACHE_ENV,
        CacheUnavailable,
        PlanCache,
        cache_for,
    )
    from trainstack.plan.cache_digests import (
        TreeTooLarge,
        environment_digest,
        plan_digest,
        side_digest,
    )
    from trainstack.plan.charts import HELM_RELEASE
    from trainstack.plan.cli import complete_stack, plan
    from trainstack.plan.engine import run_program
    from trainstack.plan.masking import COMPUTED, DIGEST_KEY_ENV, SECRET, Masker
    from trainstack.plan.model import Plan
    from trainstack.plan.runner import plan_stack
    from trainstack.plan.writer import write_plan

__all__ = [
    "CACHE_DIR_ENV",
    "COMPUTED",
    "DIGEST_KEY_ENV",
    "HELM_RELEASE",
    "NO_CACHE_ENV",
    "SECRET",
    "CacheUnavailable",
    "Masker",
    "Plan",
    "PlanCache",
    "TreeTooLarge",
    "cache_for",
    "complete_stack",
    "environment_digest",
    "plan",
    "plan_digest",
    "plan_stack",
    "run_program",
    "side_digest",
    "write_plan",
]

if not TYPE_CHECKING:
    __getattr__ = lazy_names(
        __name__,
        cache=[
            "CACHE_DIR_ENV",
            "NO_CACHE_ENV",
            "CacheUnavailable",
            "PlanCache",
            "cache_for",
        ],
        cache_digests=["TreeTooLarge", "environment_digest", "plan_digest", "side_digest"],
        charts=["HELM_RELEASE"],
        cli=["complete_stack", "plan"],
        engine=["run_program"],
        masking=["COMPUTED", "DIGEST_KEY_ENV", "SECRET", "Masker"],
        model=["Plan"],
        runner=["plan_stack"],
        writer=["write_plan"],
    )
