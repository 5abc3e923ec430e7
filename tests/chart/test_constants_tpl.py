"""The generated ``_constants.tpl`` states each shared constant from its Python
definition: the committed file is what the generator writes (no second copy to edit)."""

from __future__ import annotations

import pytest

from tests.stack_helpers import REPO
from trainstack.chart import constants_tpl
from trainstack.chart.constants import CONSTANTS_TEMPLATE
from trainstack.chart.paths import CHART_DIR


def test_the_committed_file_is_the_generators() -> None:
    committed = (REPO / CHART_DIR / CONSTANTS_TEMPLATE).read_text()
    assert committed == constants_tpl.constants_tpl_text()
    assert committed.startswith(constants_tpl.HEADER)


def test_the_resolve_wait_follows_its_python_constant(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(constants_tpl, "RESOLVE_SECONDS", 45)
    text = constants_tpl.constants_tpl_text()
    assert '{{- define "training-job.preflight.resolveSeconds" -}}45{{- end -}}' in text
