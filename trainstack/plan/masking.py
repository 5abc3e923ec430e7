"""Mask what must not appear in a plan: secrets, and values only known after deployment."""

from __future__ import annotations

from typing import Any

from pulumi.output import Unknown
from pulumi.runtime import rpc

SECRET = "[secret]"
COMPUTED = "[computed]"


def masked(value: Any) -> Any:
    """A copy of deserialized resource inputs with secrets and unknowns replaced.

    Secrets are replaced whole (``[secret]``), never partially, so that nothing of
    their value can be read from a plan or a CI log.
    """
    if rpc.is_rpc_secret(value):
        return SECRET
    if isinstance(value, Unknown) or value == rpc.UNKNOWN:
        return COMPUTED
    if isinstance(value, dict):
        return {str(key): masked(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [masked(item) for item in value]
    if isinstance(value, float) and value.is_integer():
        # The wire format (protobuf Struct) carries every number as a double.
        return int(value)
    return value
