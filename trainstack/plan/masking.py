"""Mask what must not appear in a plan: secrets, and values only known after deployment.

Secrets are replaced whole by ``[secret]``. So that a reviewer can still see *that* a
secret changed, a :class:`Masker` built with a digest key records a keyed digest
(HMAC-SHA256, truncated to 128 bits) of each secret it hides, by location: the digests
of two plans made with the same key can be compared, and without the key no guess of a
value can be checked against its digest. The key is random: per ``diff`` run, or the
plan cache's own (``build/cache/secret-digest.key``, mode 0600; whoever reads it can
test guesses against the cached plans' digests). docs/secrets.md says all of it.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from typing import Any

from pulumi.output import Unknown
from pulumi.runtime import rpc

SECRET = "[secret]"
COMPUTED = "[computed]"
DIGEST_KEY_ENV = "TRAINSTACK_SECRET_DIGEST_KEY"

# Kubernetes objects whose values are secret by key, whatever Pulumi knows about them.
_SECRET_KINDS = {"Secret": ("data", "stringData")}
_PLAIN = frozenset({int, bool, type(None)})
"""Values that are never secret nor unknown, and stay as they are (a float may not)."""
_LEAVES = _PLAIN | {str}
"""Values never secret (a text may be the unknown value): masked without their path."""


def _key_path(path: str, key: Any) -> str:
    return f"{path}.{key}" if path else str(key)


class Masker:
    """Masks values; with a key, remembers a digest of every secret it masked."""

    def __init__(self, digest_key: bytes | None = None) -> None:
        self._key = digest_key
        self.digests: dict[str, str] = {}

    def digest(self, value: Any) -> str:
        """The keyed digest of a raw value (only meaningful with a key)."""
        assert self._key is not None
        raw = json.dumps(value, sort_keys=True, default=str).encode()
        return hmac.new(self._key, raw, hashlib.sha256).hexdigest()[:32]

    def mask(self, value: Any, path: str = "") -> Any:
        """A copy of deserialized inputs with secrets and unknowns replaced."""
        kind = type(value)
        if kind in _PLAIN:  # most of an object: neither a secret nor an unknown
            return value
        if kind is str:
            return COMPUTED if value == rpc.UNKNOWN else value
        if rpc.is_rpc_secret(value):
            return self._hide(rpc.unwrap_rpc_secret(value), path)
        if isinstance(value, Unknown) or value == rpc.UNKNOWN:
            return COMPUTED
        if isinstance(value, dict):
            secret_keys = _SECRET_KINDS.get(str(value.get("kind")), ())
            masked = {}
            for key, item in value.items():
                if key in secret_keys:
                    masked[str(key)] = self._mask_section(item, _key_path(path, key))
                elif type(item) in _LEAVES:  # a path is only ever needed for a secret
                    masked[str(key)] = self.mask(item)
                else:
                    masked[str(key)] = self.mask(item, _key_path(path, key))
            return masked
        if isinstance(value, list | tuple):
            return [self.mask(item, f"{path}[{index}]") for index, item in enumerate(value)]
        if isinstance(value, float) and value.is_integer():
            # The wire format (protobuf Struct) carries every number as a double.
            return int(value)
        return value

    def _mask_section(self, section: Any, path: str) -> Any:
        """Secret data: every value hidden, keys kept (which keys exist is not secret)."""
        if not isinstance(section, dict):
            return self._hide(section, path)
        return {str(key): self._hide(item, f"{path}.{key}") for key, item in section.items()}

    def _hide(self, raw: Any, path: str) -> str:
        if self._key is not None:
            self.digests[path] = self.digest(raw)
        return SECRET
