"""The dialects a job is spelled in, and what the arena dialect cannot say."""

from __future__ import annotations

from typing import get_args

from trainstack.operators import families
from trainstack.training_job.dialects import ARENA_LACKS, Dialect
from trainstack.training_job.frameworks import FRAMEWORKS
from trainstack.training_job.settings import SETTINGS

SERVED = [
    api for family in families() for release in family.releases.values() for api in release.serves
]


def _never_honoured(dialect: str) -> list[str]:
    """The settings no API of the catalog speaking ``dialect`` honours, in any release."""
    honoured = {key for api in SERVED if api.dialect == dialect for key in api.honours}
    return [found.key for found in SETTINGS if found.key not in honoured]


def test_what_arena_lacks_is_what_no_arena_api_of_the_catalog_honours() -> None:
    """The table keeps its own order and words (the chart's twin reports them so); its keys
    are derived from the catalog's honours sets and the settings."""
    assert sorted(key for key, _ in ARENA_LACKS) == sorted(_never_honoured("arena"))


def test_the_arena_table_applies_to_every_framework_arena_serves() -> None:
    arena = [spec for spec in FRAMEWORKS if "arena" in spec.dialects]
    assert [spec.name for spec in arena] == ["tensorflow", "pytorch"]
    for key, allowed in ARENA_LACKS:
        assert any(key in spec.settings for spec in arena), key
        assert "with operatorApi arena (" in allowed


def test_the_catalog_and_the_frameworks_speak_only_the_dialects_of_the_job() -> None:
    named = {api.dialect for api in SERVED if api.dialect is not None}
    named |= {dialect for spec in FRAMEWORKS for dialect in spec.dialects}
    assert named == set(get_args(Dialect))
