"""Kubernetes names and labels, and the one placeholder form."""

from __future__ import annotations

from trainstack.core.names import is_label_key, is_placeholder, placeholders


def test_a_label_key_prefix_is_a_dns_subdomain_of_at_most_253() -> None:
    assert is_label_key("trainstack.io/pool")
    assert is_label_key("pool")
    assert not is_label_key(f"{'a' * 254}/pool")
    assert not is_label_key("Trainstack.io/pool")


def test_every_placeholder_is_found_at_its_key() -> None:
    value = {"cluster": {"id": "<ACK cluster ID>"}, "pools": [{"vpc": "vpc-1"}, "<a pool>"]}
    assert list(placeholders(value, "trainstack:x")) == [
        ("trainstack:x.cluster.id", "<ACK cluster ID>"),
        ("trainstack:x.pools[1]", "<a pool>"),
    ]


def test_a_placeholder_is_the_whole_value() -> None:
    assert is_placeholder("<vpc>")
    assert not is_placeholder("vpc-<id>")
    assert not is_placeholder("<>")
