"""Shared constrained string types for names that end up in Kubernetes or Alibaba Cloud."""

from __future__ import annotations

from typing import Annotated

from pydantic import StringConstraints

from trainstack.training_job.types import LABEL_KEY_PATTERN, LABEL_VALUE_PATTERN

# RFC 1123 label: namespaces, release names, most object names (63: DNS label limit).
DNS_LABEL_PATTERN = r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$"
DnsLabel = Annotated[str, StringConstraints(pattern=DNS_LABEL_PATTERN, max_length=63)]

# Chart versions must be pinned exactly: a range would let a re-run install something else.
PINNED_VERSION_PATTERN = r"^v?[0-9]+\.[0-9]+\.[0-9]+([-+][0-9A-Za-z.+-]+)?$"
PinnedVersion = Annotated[str, StringConstraints(pattern=PINNED_VERSION_PATTERN)]

# Helm chart repositories: classic HTTP(S) index or an OCI registry.
CHART_REPO_PATTERN = r"^(https?|oci)://[^\s]+$"
ChartRepo = Annotated[str, StringConstraints(pattern=CHART_REPO_PATTERN)]

# Label keys and values as the API server accepts them; the patterns are the training-job
# model's, so a label means the same in a stack file and in an experiment.
LabelKey = Annotated[str, StringConstraints(pattern=LABEL_KEY_PATTERN, max_length=316)]
LabelValue = Annotated[str, StringConstraints(pattern=LABEL_VALUE_PATTERN)]

NonEmpty = Annotated[str, StringConstraints(min_length=1, strip_whitespace=False)]
