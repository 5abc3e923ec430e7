"""A data stack: data that several cluster stacks read, owned once.

``stacks/Pulumi.imagenet.yaml`` declares ``trainstack:dataStore`` and nothing else: the
file systems (on ACK, NAS file systems and their mount targets, in the clusters' VPC,
with the zone pinned). Cluster stacks mount them through a ``stack-reference`` dataset
source, so the accelerated and the baseline cluster read the very same bytes, and
destroying or re-creating a cluster never touches the data. The store's model is a
cluster kind's (``ClusterKind.storage.data_store``, joined in ``clusters/registry.py``).
"""

from __future__ import annotations

from pydantic import Field

from trainstack.config.clusters.registry import DataStore
from trainstack.core.base_model import StrictModel


class DataStackConfig(StrictModel):
    """Everything a data stack declares under `trainstack:` (nothing else is allowed)."""

    data_store: DataStore = Field(description="The file systems this stack owns.")
