"""masked: secrets and unknowns never reach a plan."""

from __future__ import annotations

from pulumi.output import Unknown
from pulumi.runtime import rpc

from trainstack.plan.masking import COMPUTED, SECRET, Masker


def test_secrets_are_replaced_whole_at_any_depth() -> None:
    secret = rpc.wrap_rpc_secret({"token": "hunter2"})
    value = {"a": [1, {"b": secret}], "c": rpc.wrap_rpc_secret("x")}
    assert Masker().mask(value) == {"a": [1, {"b": SECRET}], "c": SECRET}


def test_unknowns_become_computed() -> None:
    assert Masker().mask({"server": Unknown(), "id": rpc.UNKNOWN}) == {
        "server": COMPUTED,
        "id": COMPUTED,
    }


def test_wire_doubles_are_shown_as_integers_when_whole() -> None:
    assert Masker().mask({"size": 200.0, "ratio": 0.5}) == {"size": 200, "ratio": 0.5}


def test_digests_tell_that_a_secret_changed_without_revealing_it() -> None:
    key = bytes(range(32))
    before, after = Masker(key), Masker(key)
    before.mask({"kubeconfig": rpc.wrap_rpc_secret("token-a")})
    after.mask({"kubeconfig": rpc.wrap_rpc_secret("token-b")})
    assert before.digests["kubeconfig"] != after.digests["kubeconfig"]
    same = Masker(key)
    same.mask({"kubeconfig": rpc.wrap_rpc_secret("token-a")})
    assert same.digests == before.digests
    assert "token-a" not in before.digests["kubeconfig"]


def test_no_key_no_digests() -> None:
    masker = Masker()
    masker.mask({"a": rpc.wrap_rpc_secret("x")})
    assert masker.digests == {}


def test_kubernetes_secret_data_is_masked_by_key() -> None:
    masker = Masker(b"k" * 32)
    secret = {"kind": "Secret", "metadata": {"name": "s"}, "data": {"password": "aHVudGVyMg=="}}
    assert masker.mask(secret)["data"] == {"password": SECRET}
    assert masker.mask(secret)["metadata"] == {"name": "s"}
    assert set(masker.digests) == {"data.password"}
