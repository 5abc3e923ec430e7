"""masked: secrets and unknowns never reach a plan."""

from __future__ import annotations

from pulumi.output import Unknown
from pulumi.runtime import rpc

from trainstack.plan.masking import COMPUTED, SECRET, masked


def test_secrets_are_replaced_whole_at_any_depth() -> None:
    secret = rpc.wrap_rpc_secret({"token": "hunter2"})
    value = {"a": [1, {"b": secret}], "c": rpc.wrap_rpc_secret("x")}
    assert masked(value) == {"a": [1, {"b": SECRET}], "c": SECRET}


def test_unknowns_become_computed() -> None:
    assert masked({"server": Unknown(), "id": rpc.UNKNOWN}) == {
        "server": COMPUTED,
        "id": COMPUTED,
    }


def test_wire_doubles_are_shown_as_integers_when_whole() -> None:
    assert masked({"size": 200.0, "ratio": 0.5}) == {"size": 200, "ratio": 0.5}
