"""Shared constrained string types for names that end up in Kubernetes or Alibaba Cloud."""

from __future__ import annotations

from typing import Annotated

from pydantic import AfterValidator, BeforeValidator, StringConstraints

from trainstack.core.base_model import constraint, pattern
from trainstack.core.limits import MAX_QUANTITY_CHARS
from trainstack.core.quantity import QUANTITY_PATTERN, quantity_problem
from trainstack.training_job.types import (
    DNS_SUBDOMAIN_PATTERN,
    LABEL_KEY_PATTERN,
    LABEL_VALUE_PATTERN,
    is_label_key,
)

# RFC 1123 label: namespaces, release names, most object names (63: DNS label limit).
DNS_LABEL_PATTERN = pattern(
    r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$",
    "a DNS label: lowercase letters, digits and '-', starting and ending with a letter or digit",
)
DnsLabel = Annotated[str, StringConstraints(pattern=DNS_LABEL_PATTERN, max_length=63)]

# Helm release names: at most 53 characters (Helm keeps 10 of the 63 for its suffixes).
RELEASE_NAME_MAX = 53

# Chart versions must be pinned exactly: a range would let a re-run install something else.
PINNED_VERSION_PATTERN = pattern(
    r"^v?[0-9]+\.[0-9]+\.[0-9]+([-+][0-9A-Za-z.+-]+)?$",
    "an exact version such as 0.6.0 (no range, no `latest`)",
)
PinnedVersion = Annotated[str, StringConstraints(pattern=PINNED_VERSION_PATTERN)]

# Helm chart repositories: an HTTPS index or an OCI registry. Plain http:// is refused
# (anyone on the path could swap the chart), and so are credentials in the URL
# (`https://user:password@...`): they would sit in plain text in the stack file.
CHART_REPO_PATTERN = pattern(
    r"^(https|oci)://[^\s/@]+(/[^\s@]*)?$",
    "an https:// or oci:// URL, without credentials (`user:password@`)",
)


def _no_credentials_in_url(url: str) -> str:
    # Checked before the pattern, whose error would show the value (and the password).
    authority = url.partition("://")[2].partition("/")[0]
    if "@" in authority:
        raise constraint(
            "",
            "a URL with credentials (not shown)",
            "a URL without `user:password@`: give the registry's credentials to Helm "
            "(`helm registry login`, `helm repo add --username`), never in the stack file",
        )
    return url


ChartRepo = Annotated[
    str,
    BeforeValidator(lambda url: _no_credentials_in_url(url) if isinstance(url, str) else url),
    StringConstraints(pattern=CHART_REPO_PATTERN, max_length=2048),
]

# Helm chart names: lowercase letters, digits and dashes (Helm's best practices); never a
# path (`../x`) nor a space.
ChartName = Annotated[str, StringConstraints(pattern=DNS_LABEL_PATTERN, max_length=63)]

# Kubernetes node names are DNS subdomains (also IP-like names such as 10.0.0.5).
NodeName = Annotated[str, StringConstraints(pattern=DNS_SUBDOMAIN_PATTERN, max_length=253)]


def _quantity(text: str) -> str:
    problem = quantity_problem(text)
    if problem is not None:
        raise constraint("", text, problem)
    return text


# The stack configuration's quantities: the readable subset of Kubernetes' grammar,
# at most 2^63-1 like every Kubernetes quantity.
Quantity = Annotated[
    str,
    StringConstraints(pattern=QUANTITY_PATTERN, max_length=MAX_QUANTITY_CHARS),
    AfterValidator(_quantity),
]


# Label keys and values as the API server accepts them; the patterns are the training-job
# model's, so a label means the same in a stack file and in an experiment.
def _label_key(key: str) -> str:
    if not is_label_key(key):
        raise constraint("", key, "a label key: [prefix/]name, a DNS prefix of at most 253")
    return key


LabelKey = Annotated[
    str, StringConstraints(pattern=LABEL_KEY_PATTERN, max_length=317), AfterValidator(_label_key)
]
LabelValue = Annotated[str, StringConstraints(pattern=LABEL_VALUE_PATTERN)]

NonEmpty = Annotated[str, StringConstraints(min_length=1, strip_whitespace=False)]
