"""Host access and container privileges: everything is off unless asked for.

The default container security context holds for sshd too: sshd starts as root and
drops to its own privilege-separation user with setuid, which ``allowPrivilegeEscalation:
false`` (no_new_privs) does not prevent, and it needs none of the capabilities dropped.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, StringConstraints

from trainstack.core.base_model import StrictModel
from trainstack.core.limits import INT32_MAX, INT64_MAX
from trainstack.training_job.types import DnsName

Capability = Annotated[str, StringConstraints(pattern=r"^[A-Z][A-Z0-9_]*$")]
"""A capability name without the CAP_ prefix, e.g. IPC_LOCK."""


class Rdma(StrictModel):
    """RDMA (InfiniBand / RoCE) devices from an RDMA device plugin."""

    enabled: bool = Field(
        default=False,
        description="Request RDMA devices and add IPC_LOCK (verbs pin memory).",
    )
    resource_name: str = Field(
        default="rdma/hca",
        pattern=r"^[a-z0-9.-]+/[A-Za-z0-9_.-]+$",
        description="Extended resource the RDMA device plugin advertises.",
    )
    count: int = Field(default=1, ge=1, le=INT32_MAX, description="RDMA devices per training pod.")


class Network(StrictModel):
    """Pod networking."""

    host_network: bool = Field(
        default=False,
        description="Use the node's network stack (for RDMA/NCCL across nodes); sets dnsPolicy "
        "ClusterFirstWithHostNet. With MPI, set mpi.sshPort to a free port.",
    )
    rdma: Rdma = Field(default_factory=Rdma, description="RDMA devices.")


class Capabilities(StrictModel):
    """Linux capabilities of the containers."""

    add: list[Capability] = Field(
        default_factory=list,
        description="Capabilities to add.",
        examples=[["SYS_PTRACE"]],
    )
    drop: list[Capability] = Field(
        default_factory=lambda: ["NET_RAW"],
        description="Capabilities to drop; NET_RAW (raw sockets, spoofing) is never needed to "
        "train.",
    )


class Security(StrictModel):
    """Privileges of the pods and containers."""

    privileged: bool = Field(
        default=False, description="Run the containers privileged (full access to the node)."
    )
    host_ipc: bool = Field(
        default=False, alias="hostIPC", description="Share the node's IPC namespace."
    )
    host_pid: bool = Field(
        default=False, alias="hostPID", description="Share the node's process namespace."
    )
    allow_privilege_escalation: bool = Field(
        default=False,
        description="Let processes gain privileges through setuid binaries (implied by "
        "privileged).",
    )
    seccomp_profile: Literal["RuntimeDefault", "Unconfined"] | None = Field(
        default="RuntimeDefault",
        description="Seccomp profile of the containers; null requests none (the kubelet's "
        "default applies: Unconfined unless it runs with --seccomp-default), as operatorApi "
        "arena needs.",
    )
    run_as_user: int | None = Field(
        default=None,
        ge=0,
        le=INT64_MAX,
        description="User ID the containers run as; null: the image's USER. Images that run "
        "sshd (MPI workers) usually need root.",
    )
    run_as_group: int | None = Field(
        default=None,
        ge=0,
        le=INT64_MAX,
        description="Group ID the containers run as; null: the image's.",
    )
    run_as_non_root: bool | None = Field(
        default=None,
        description="Refuse to start a container whose user is root (Kubernetes checks the "
        "image's USER); null: no check.",
    )
    fs_group: int | None = Field(
        default=None,
        ge=0,
        le=INT64_MAX,
        description="Group that owns the pod's volumes (claims become writable by it); "
        "null: volumes keep their owner.",
    )
    capabilities: Capabilities = Field(
        default_factory=Capabilities, description="Linux capabilities."
    )
    automount_service_account_token: bool = Field(
        default=False,
        description="Mount a Kubernetes API token: training does not call the API server.",
    )
    service_account_name: DnsName | None = Field(
        default=None,
        description="ServiceAccount of the pods (e.g. for cloud storage credentials).",
    )
