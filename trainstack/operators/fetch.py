"""Download an operator's release manifest at deploy time and refuse it unless it is the
pinned one (sha256), before anything is applied.

A tag can be moved and a mirror can serve anything: the digest pinned in the stack (or
known to the catalog) is the only thing that says the objects applied are the ones
reviewed. Nothing is cached or written: ``pulumi up`` downloads, checks, applies.
"""

from __future__ import annotations

import hashlib
import ssl
import urllib.error
import urllib.request

from trainstack.core.errors import ManifestError

MAX_MANIFEST_BYTES = 32 * 1024 * 1024
"""Largest manifest accepted (mpi-operator's, with its CRD, is about 0.6 MB)."""
TIMEOUT_SECONDS = 60


def fetch_manifest(
    url: str, sha256: str, *, source: str, key: str, context: ssl.SSLContext | None = None
) -> str:
    """The text at ``url`` when its sha256 is ``sha256``; a :class:`ManifestError` otherwise.

    ``source`` and ``key`` (the stack file and the dotted key of the digest) name where
    the pin is, so that the error says what to check. ``context``: the TLS trust to use
    (default: the system's).
    """
    if not url.startswith("https://"):
        raise ManifestError(source, key, f"{url} is not an https:// URL")
    try:
        with urllib.request.urlopen(  # noqa: S310 (https only, checked above)
            url, timeout=TIMEOUT_SECONDS, context=context
        ) as response:
            body = response.read(MAX_MANIFEST_BYTES + 1)
    except (urllib.error.URLError, TimeoutError, OSError) as error:
        reason = getattr(error, "reason", error)
        raise ManifestError(source, key, f"could not download {url}: {reason}") from None
    if len(body) > MAX_MANIFEST_BYTES:
        raise ManifestError(
            source, key, f"{url} is larger than {MAX_MANIFEST_BYTES // (1024 * 1024)} MiB"
        )
    actual = hashlib.sha256(body).hexdigest()
    if actual != sha256:
        raise ManifestError(
            source,
            key,
            f"{url} has sha256 {actual}, not the pinned {sha256}: the file changed or the "
            "mirror serves something else; nothing was applied",
        )
    try:
        return body.decode("utf-8")
    except UnicodeDecodeError:
        raise ManifestError(source, key, f"{url} is not UTF-8 text") from None
