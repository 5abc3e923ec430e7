"""Shared constrained string types for names that end up in Kubernetes or Alibaba Cloud."""

from __future__ import annotations

from typing import Annotated

from pydantic import StringConstraints

# RFC 1123 label: namespaces, release names, most object names (63: DNS label limit).
DNS_LABEL_PATTERN = r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$"
DnsLabel = Annotated[str, StringConstraints(pattern=DNS_LABEL_PATTERN, max_length=63)]

# Chart versions must be pinned exactly: a range would let a re-run install something else.
PINNED_VERSION_PATTERN = r"^v?[0-9]+\.[0-9]+\.[0-9]+([-+][0-9A-Za-z.+-]+)?$"
PinnedVersion = Annotated[str, StringConstraints(pattern=PINNED_VERSION_PATTERN)]

# Helm chart repositories: classic HTTP(S) index or an OCI registry.
CHART_REPO_PATTERN = r"^(https?|oci)://[^\s]+$"
ChartRepo = Annotated[str, StringConstraints(pattern=CHART_REPO_PATTERN)]

# Label keys and values as the API server accepts them (prefix/name, 63-char name part).
LABEL_KEY_PATTERN = (
    r"^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?"
    r"[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$"
)
LabelKey = Annotated[str, StringConstraints(pattern=LABEL_KEY_PATTERN, max_length=316)]
LABEL_VALUE_PATTERN = r"^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$"
LabelValue = Annotated[str, StringConstraints(pattern=LABEL_VALUE_PATTERN, max_length=63)]

NonEmpty = Annotated[str, StringConstraints(min_length=1, strip_whitespace=False)]
