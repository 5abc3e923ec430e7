"""``trainstack plan``'s own inputs: the stack name and the secret-digest key."""

from __future__ import annotations

import pytest

from trainstack.core.errors import EnvironmentVariableError
from trainstack.plan.cli import digest_key_from_environment
from trainstack.plan.masking import DIGEST_KEY_ENV


def test_no_key_means_no_digests(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(DIGEST_KEY_ENV, raising=False)
    assert digest_key_from_environment() is None


def test_a_hex_key_is_read(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(DIGEST_KEY_ENV, "ab" * 32)
    assert digest_key_from_environment() == bytes([0xAB]) * 32


@pytest.mark.parametrize("value", ["zz" * 32, "abc", "ab" * 8 + "a", "ab" * 65, "ab" * 32 + "\n"])
def test_anything_else_is_refused_without_showing_it(
    monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    monkeypatch.setenv(DIGEST_KEY_ENV, value)
    with pytest.raises(EnvironmentVariableError, match="32 to 128 hexadecimal digits") as caught:
        digest_key_from_environment()
    assert value.strip() not in str(caught.value)
