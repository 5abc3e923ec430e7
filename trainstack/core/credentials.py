"""Which setting and variable names hold credentials: one rule, written out, for both.

A name is split into words (``secretKey`` -> secret, key; ``AWS_SECRET_ACCESS_KEY`` ->
aws, secret, access, key) and holds a credential when

- its last word (numbers aside) is ``key`` or one of :data:`CREDENTIAL_WORDS`
  (``password``, ``token``, ``secret``, ``credentials``, ``kubeconfig``...):
  ``alicloud:accessKey``, ``azure:clientSecret``, ``HF_TOKEN``, ``WANDB_API_KEY``; or
- ``key`` follows one of :data:`KEY_QUALIFIERS` anywhere (``AWS_ACCESS_KEY_ID``).

Whole words only: ``TOKENIZERS_PARALLELISM``, ``TOKEN_URL``, ``aws:sharedCredentialsFiles``
or ``alicloud:region`` hold none. Used for
provider settings of a stack file (refused unless ``secure:``), job environment
variables (a warning: keep them in a Kubernetes Secret) and old plans read by a diff
(masked).
"""

from __future__ import annotations

import re

CREDENTIAL_WORDS = frozenset(
    {
        "password",
        "passwd",
        "passphrase",
        "token",
        "secret",
        "credential",
        "credentials",
        "apikey",
        "privatekey",
        "kubeconfig",
    }
)
KEY_QUALIFIERS = frozenset({"access", "api", "private", "secret", "encryption", "signing"})

# camelCase boundaries (accessKey, clientSecret, HTTPToken) and any non-alphanumeric run.
_WORDS = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+")


def name_words(name: str) -> list[str]:
    """``secretKey`` -> ``["secret", "key"]``; ``AWS_SECRET_ACCESS_KEY`` -> 4 words."""
    return [word.lower() for word in _WORDS.findall(name)]


def holds_credential(name: str) -> bool:
    """Whether a setting or variable called ``name`` holds a credential (see above)."""
    words = name_words(name.rpartition(":")[2])
    named = [word for word in words if not word.isdigit()]
    if named and (named[-1] in CREDENTIAL_WORDS or named[-1] == "key"):
        return True
    return any(
        first in KEY_QUALIFIERS and second == "key"
        for first, second in zip(words, words[1:], strict=False)
    )


_USERINFO = re.compile(r"^(?P<scheme>[A-Za-z][A-Za-z0-9+.-]*://)(?P<userinfo>[^/?#]*@)")


def masked_url(url: str) -> str:
    """``url`` without what could be a credential: the ``user:password@`` before the host
    and the query string are shown as ``***`` (``https://***@host:6443/?***``)."""
    url = _USERINFO.sub(lambda found: f"{found['scheme']}***@", url)
    base, query, _ = url.partition("?")
    return f"{base}?***" if query else url
