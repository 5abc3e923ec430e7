"""A refused write as one line: code, reason, message, fields, and what to do."""

from __future__ import annotations

import json

import pytest

from tests.submit.jobs import DATA
from trainstack.live.refusal import refused


def _status(name: str) -> tuple[int, dict[str, object]]:
    document = json.loads((DATA / name).read_text())
    return int(document["code"]), document


@pytest.mark.parametrize(
    ("name", "start", "remedy"),
    [
        ("status-403-patch-mpijobs.json", "403 Forbidden: mpijobs", "RBAC: `trainstack run`"),
        ("status-403-webhook-denied.json", "403 Forbidden: mpijobs", "admission policy refused"),
        ("status-400-webhook-no-dry-run.json", "400 BadRequest: admission", "sideEffects None"),
        ("status-409-apply-conflict.json", "409 Conflict: Apply failed", "force=false"),
        ("status-422-invalid.json", "422 Invalid: MPIJob", "validation refused"),
        ("status-404-namespace.json", '404 NotFound: namespaces "vision"', "`pulumi up`"),
    ],
)
def test_each_refusal_says_what_the_server_said_and_what_to_do(
    name: str, start: str, remedy: str
) -> None:
    code, status = _status(name)
    text = refused(code, "application/json", status)
    assert text.startswith(f"the API server answered {start}")
    assert remedy in text
    assert "\n" not in text


def test_the_fields_a_422_names_are_listed_at_most_five() -> None:
    code, status = _status("status-422-invalid.json")
    assert "(spec.runPolicy.backoffLimit: Invalid value: -1" in refused(code, "", status)
    causes = [{"field": f"spec.f{i}", "message": "bad"} for i in range(8)]
    text = refused(422, "", {"kind": "Status", "details": {"causes": causes}})
    assert "spec.f4: bad; and 3 more" in text and "spec.f5" not in text


def test_control_characters_the_server_sent_are_shown_escaped() -> None:
    status = {"kind": "Status", "reason": "Invalid\x1b[2J", "message": "a\nforged line\r"}
    text = refused(422, "", status)
    assert "\x1b" not in text and "\n" not in text and "\r" not in text
    assert "a\\nforged line\\r" in text


def test_an_answer_that_is_no_status() -> None:
    text = refused(500, "text/html", "<html>")
    assert text == "the API server answered 500 (text/html), not as the Kubernetes API does"
