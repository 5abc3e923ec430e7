"""The chart's identity: its description and keywords come from the framework registry."""

from __future__ import annotations

import re

from tests.chart.jobs import CHART_DIR
from trainstack.chart.constants import CHART_DESCRIPTION, CHART_KEYWORDS
from trainstack.training_job.frameworks import FRAMEWORKS

README_TEXT = (CHART_DIR / "README.md").read_text(encoding="utf-8")


def test_the_description_names_every_framework_with_its_api_version_in_order() -> None:
    found = [CHART_DESCRIPTION.index(f"{spec.kind} ") for spec in FRAMEWORKS]
    assert found == sorted(found)
    for spec in FRAMEWORKS:
        assert f" {spec.docs.article} {spec.docs.known_as}{spec.kind}" in CHART_DESCRIPTION
        assert f"({spec.api_version})" in CHART_DESCRIPTION


def test_the_keywords_hold_every_frameworks_once() -> None:
    assert len(CHART_KEYWORDS) == len(set(CHART_KEYWORDS))
    for spec in FRAMEWORKS:
        assert set(spec.docs.keywords) <= set(CHART_KEYWORDS)


def test_the_readme_says_what_each_framework_renders_in_the_registry_order() -> None:
    rendered = re.findall(r"(?m)^- `framework: (\w+)`: an? `(\w+)` \(`([^`]+)`", README_TEXT)
    assert rendered == [(spec.name, spec.kind, spec.api_version) for spec in FRAMEWORKS]
