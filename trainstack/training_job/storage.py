"""Volumes: datasets and results on claims, shared memory, and opt-in host directories."""

from __future__ import annotations

from pydantic import Field

from trainstack.core.base_model import StrictModel
from trainstack.training_job.types import AbsolutePath, DnsName, Quantity


class Dataset(StrictModel):
    """A PersistentVolumeClaim mounted into every training pod (e.g. ImageNet on NAS)."""

    claim_name: DnsName = Field(description="Name of the PersistentVolumeClaim.")
    mount_path: AbsolutePath = Field(description="Where the claim appears in the containers.")
    sub_path: str | None = Field(
        default=None,
        min_length=1,
        pattern=r"^[^/]",
        description="Directory inside the claim to mount instead of its root (relative).",
    )
    read_only: bool = Field(
        default=True,
        description="Mount read-only: a shared dataset is read, and a job that wrote to it "
        "would change what the other stack's runs read. false: the job may write there.",
    )


class Results(StrictModel):
    """Where training writes checkpoints and logs that must outlive the job."""

    claim_name: DnsName | None = Field(
        default=None, description="PersistentVolumeClaim for results; null: no results volume."
    )
    mount_path: AbsolutePath = Field(
        default="/results", description="Where the results claim appears in the containers."
    )
    sub_path: str | None = Field(
        default=None,
        min_length=1,
        pattern=r"^[^/]",
        description="Directory inside the claim to mount instead of its root (relative).",
    )


class SharedMemory(StrictModel):
    """``/dev/shm`` as an in-memory volume: NCCL and DataLoader workers fail with 64 MB."""

    enabled: bool = Field(default=True, description="Mount an in-memory /dev/shm.")
    size_limit: Quantity | None = Field(
        default="2Gi",
        description="Size limit of /dev/shm; it counts as container memory. null: no limit of "
        "its own (the pod's memory limit still applies).",
    )


class HostPath(StrictModel):
    """A node directory mounted into the pods: only for data that lives on every node."""

    path: AbsolutePath = Field(description="Directory on the node.")
    mount_path: AbsolutePath = Field(description="Where it appears in the containers.")
    read_only: bool = Field(default=True, description="Mount read-only.")
