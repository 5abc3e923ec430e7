"""What a cluster is, as ``trainstack inspect`` observed it: ``facts/STACK.json`` (format 1).

One typed model, written with sorted keys and no timestamp (the same cluster gives the
same bytes; git says when a file changed), read back strictly (unknown keys are errors).
Each fact says what it is read from in its description; ``docs/facts.md`` has the table.
A fact the cluster does not publish is ``null``, never guessed.
"""

from __future__ import annotations

from typing import Literal

from pydantic import ConfigDict, Field

from trainstack.core.base_model import StrictModel
from trainstack.core.names import Quantity, Sha256Digest

FACTS_FORMAT = "trainstack-facts/1"


class FactsModel(StrictModel):
    """:class:`StrictModel`, also built from Python by field name (the file has the
    camelCase keys)."""

    model_config = ConfigDict(validate_by_name=True)


class Resources(FactsModel):
    """A node's resources as its status reports them (Kubernetes quantities, as sent)."""

    cpu: Quantity | None = Field(default=None, description="`cpu`.")
    memory: Quantity | None = Field(default=None, description="`memory`.")
    gpus: Quantity | None = Field(
        default=None, description="`nvidia.com/gpu` (NVIDIA device plugin)."
    )
    ephemeral_storage: Quantity | None = Field(default=None, description="`ephemeral-storage`.")


class Gpu(FactsModel):
    """A node's GPUs, from the labels NVIDIA GPU feature discovery or ACK put on it."""

    product: str | None = Field(
        description="`nvidia.com/gpu.product`, else ACK's `aliyun.accelerator/nvidia_name`."
    )
    memory_mib: int | None = Field(
        ge=0, description="`nvidia.com/gpu.memory` (MiB), else `aliyun.accelerator/nvidia_mem`."
    )
    count: int | None = Field(
        ge=0, description="`nvidia.com/gpu.count`, else `aliyun.accelerator/nvidia_count`."
    )
    driver_version: str | None = Field(
        description="`nvidia.com/cuda.driver-version.full` (or the older `cuda.driver.*` "
        "labels); ACK publishes none."
    )
    cuda_version: str | None = Field(
        description="`nvidia.com/cuda.runtime-version.full` (or `cuda.runtime.*`): the CUDA "
        "version the driver supports; ACK publishes none."
    )
    labels: list[str] = Field(
        description="The label families read: `nvidia.com` (GPU feature discovery), "
        "`aliyun.accelerator` (ACK)."
    )


class NodeFacts(FactsModel):
    """What one node is: the facts nodes of one kind share."""

    instance_type: str | None = Field(
        description="Label `node.kubernetes.io/instance-type` (else the beta label)."
    )
    kubelet_version: str | None = Field(description="`status.nodeInfo.kubeletVersion`.")
    os_image: str | None = Field(description="`status.nodeInfo.osImage`.")
    kernel_version: str | None = Field(description="`status.nodeInfo.kernelVersion`.")
    container_runtime_version: str | None = Field(
        description="`status.nodeInfo.containerRuntimeVersion`."
    )
    architecture: str | None = Field(description="`status.nodeInfo.architecture`.")
    capacity: Resources = Field(description="`status.capacity`.")
    allocatable: Resources = Field(description="`status.allocatable`: what pods can request.")
    gpu: Gpu | None = Field(description="Its GPUs; `null`: the node carries no GPU labels.")


class NodeGroup(FactsModel):
    """Nodes with the same facts."""

    count: int = Field(ge=1, description="How many nodes.")
    nodes: list[str] = Field(description="Their names, sorted.")
    facts: NodeFacts = Field(description="What each of them is.")


class PoolFacts(FactsModel):
    """The nodes of one node pool of the stack: those that carry all the pool's labels."""

    name: str = Field(description="The pool (`trainstack:nodePools[].name`).")
    labels: dict[str, str] = Field(description="The labels its nodes were selected by.")
    node_count: int = Field(ge=0, description="Nodes found.")
    groups: list[NodeGroup] = Field(description="The nodes, grouped by their facts.")


class OperatorFacts(FactsModel):
    """A catalog operator's controller as installed: its Deployment's image."""

    key: str = Field(description="The operator (`mpiOperator`, `kueue`...).")
    deployment: str | None = Field(
        description="`namespace/name` of the Deployment looked for; `null`: the catalog knows "
        "none (an ACK add-on's own workloads)."
    )
    found: bool | None = Field(description="Whether the Deployment exists; `null`: not looked.")
    image: str | None = Field(description="Its controller container's image.")
    version: str | None = Field(
        description="The release the image is: the catalog's image of a release, else the "
        "image's tag when it reads as a version; `null`: unknown."
    )


class CrdFacts(FactsModel):
    """A CustomResourceDefinition the stack's jobs use, as the API server serves it."""

    name: str = Field(description="`metadata.name`, e.g. `mpijobs.kubeflow.org`.")
    found: bool = Field(description="Whether it is installed.")
    served: list[str] = Field(description="`spec.versions[]` with `served: true`.")
    storage: str | None = Field(description="The version with `storage: true`.")


class KueueFacts(FactsModel):
    """Kueue's configuration: its manager's ConfigMap."""

    config_map: str = Field(description="`namespace/name` of the ConfigMap looked for.")
    found: bool = Field(description="Whether it exists with `controller_manager_config.yaml`.")
    api_version: str | None = Field(description="The configuration's `apiVersion`.")
    frameworks: list[str] = Field(description="`integrations.frameworks`, as listed.")
    sha256: str | None = Field(description="sha256 of the configuration's text.")


class AccelerationFacts(FactsModel):
    """The acceleration component the stack names, and whether the cluster has it."""

    declared: str | None = Field(
        description="What the stack installs (`trainstack:acceleration.component`); `null`: "
        "nothing (AIACC-Training ships in the training image)."
    )
    found: bool | None = Field(
        description="Whether its workloads were found; `null`: not visible through the "
        "Kubernetes API (an ACK add-on is listed by ACK's own API)."
    )
    version: str | None = Field(description="The version found (its chart's, from labels).")


class KubernetesFacts(FactsModel):
    """The API server's version (`GET /version`)."""

    git_version: str | None = Field(description="`gitVersion`, e.g. `v1.30.7-aliyun.1`.")
    platform: str | None = Field(description="`platform`, e.g. `linux/amd64`.")


class StackFacts(FactsModel):
    """Everything ``trainstack inspect STACK`` read from the stack's cluster."""

    format: Literal["trainstack-facts/1"] = Field(description="File format and version.")
    stack: str = Field(description="The stack whose cluster was read.")
    kubernetes: KubernetesFacts = Field(description="The API server's version.")
    pools: list[PoolFacts] = Field(description="Each node pool of the stack, in its order.")
    other_nodes: list[NodeGroup] = Field(description="Nodes of no pool of the stack.")
    operators: list[OperatorFacts] = Field(description="Each operator the stack installs.")
    crds: list[CrdFacts] = Field(description="The CRDs of the kinds the stack's jobs use.")
    kueue: KueueFacts | None = Field(description="Kueue's configuration, when the stack queues.")
    acceleration: AccelerationFacts = Field(description="The acceleration component.")


class RunNodes(FactsModel):
    """Nodes a run's pods ran on, of one pool and with the same facts."""

    pool: str | None = Field(description="The stack's pool they are in; `null`: none.")
    nodes: list[str] = Field(description="Their names, sorted.")
    facts: NodeFacts = Field(description="What each of them is.")


class RunEnvironment(FactsModel):
    """Where one run ran, read by ``results collect`` when it recorded the run."""

    digest: Sha256Digest = Field(
        description="Digest of these facts without the names of nodes: the same digest, "
        "the same environment.",
    )
    kubernetes: KubernetesFacts = Field(description="The API server's version.")
    nodes: list[RunNodes] = Field(
        description="The nodes of the job's pods (those still there when collected)."
    )
    gone: list[str] = Field(
        description="Nodes the pods ran on that have left the cluster: facts unknown."
    )
    operators: list[OperatorFacts] = Field(description="Each operator the stack installs.")
    acceleration: AccelerationFacts = Field(description="The acceleration component.")
