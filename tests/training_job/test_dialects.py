"""The dialects a job is spelled in, and what the arena dialect cannot say."""

from __future__ import annotations

from typing import get_args

from trainstack.operators.registry import families
from trainstack.training_job.dialects import ARENA_LACKS, Dialect
from trainstack.training_job.frameworks import FRAMEWORKS, by_crd
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
    assert [spec.name for spec in arena] == ["mpi", "tensorflow", "pytorch"]
    for key, allowed in ARENA_LACKS:
        assert any(key in spec.settings for spec in arena), key
        assert "with operatorApi arena (" in allowed


def test_the_catalog_and_the_frameworks_speak_only_the_dialects_of_the_job() -> None:
    named = {api.dialect for api in SERVED if api.dialect is not None}
    named |= {dialect for spec in FRAMEWORKS for dialect in spec.dialects}
    assert named == set(get_args(Dialect))


def test_each_served_api_is_rendered_in_the_version_the_catalog_says_it_serves() -> None:
    """A framework in a served API's dialect renders that API's version (ack-arena's MPIJob:
    kubeflow.org/v1alpha1; upstream mpi-operator's: v2beta1)."""
    checked = set()
    for api in SERVED:
        spec = by_crd(api.crd)
        if spec is None or api.dialect is None:
            continue
        assert spec.kind == api.kind
        assert spec.api_version_in(api.dialect) == api.api_version, (api.crd, api.dialect)
        checked.add((api.crd, api.api_version))
    assert ("mpijobs.kubeflow.org", "kubeflow.org/v1alpha1") in checked
    assert ("mpijobs.kubeflow.org", "kubeflow.org/v2beta1") in checked
