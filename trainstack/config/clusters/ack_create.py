"""An ACK managed cluster created by the stack (``trainstack:cluster.create``).

What ``alicloud.cs.ManagedKubernetes`` takes, with the provider's documented rules
(``alicloud_rules.py``) checked at plan time: the version and cluster spec, the network
plug-in and its CIDR blocks (ACK's network planning rules, which the provider does not
check), the add-ons installed at creation, deletion protection. The program's side is
``components/clusters/ack_cluster.py``.
"""

from __future__ import annotations

import ipaddress
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints, model_validator

from trainstack.config.clusters import alicloud_rules as rules
from trainstack.config.clusters.spec import CreateOnlyInputs
from trainstack.core.base_model import StrictModel, constraint
from trainstack.core.names import PLACEHOLDER_PATTERN, is_placeholder

# ACK's version format `x.y.z-aliyun.n` ("Kubernetes versions supported by ACK"), or a
# placeholder until the exact release is looked up.
AckRelease = Annotated[
    str,
    StringConstraints(
        pattern=rf"^(1\.[0-9]{{1,2}}\.[0-9]{{1,3}}-aliyun\.[0-9]{{1,3}}|{PLACEHOLDER_PATTERN})$"
    ),
]
VSwitchRef = Annotated[str, StringConstraints(pattern=rf"^(vsw-[a-z0-9]+|{PLACEHOLDER_PATTERN})$")]
Cidr = Annotated[str, StringConstraints(pattern=r"^[0-9]{1,3}(\.[0-9]{1,3}){3}/[0-9]{1,2}$")]
AddonName = Annotated[str, StringConstraints(pattern=r"^[a-z0-9][a-z0-9-]{0,62}$")]
AddonVersion = Annotated[
    str, StringConstraints(pattern=rf"^([A-Za-z0-9][A-Za-z0-9._+-]{{0,63}}|{PLACEHOLDER_PATTERN})$")
]


# What `trainstack diff` says of a later change of an input ACK reads at creation only
# (rules.CLUSTER_CREATE_ONLY): the provider's update function never sends it.
ADDON_REMEDY = (
    "install an add-on on a running cluster with alicloud.cs.KubernetesAddon, as the "
    "acceleration component is (docs/clusters.md)"
)
NEW_CLUSTER_REMEDY = (
    "only a new cluster is created with it (a new stack, docs/clusters.md): the provider "
    "never sends it to a running one"
)
CREATE_ONLY = CreateOnlyInputs(
    reason="not applied to the running cluster: ACK reads it at creation only",
    remedies={
        name: ADDON_REMEDY if name == "addons" else NEW_CLUSTER_REMEDY
        for name in rules.CLUSTER_CREATE_ONLY
    },
)


def minor_of(release: str) -> tuple[int, int] | None:
    """``(1, 35)`` of ``1.35.1-aliyun.1``; ``None`` for a placeholder."""
    if is_placeholder(release):
        return None
    major, minor = release.split("-")[0].split(".")[:2]
    return int(major), int(minor)


def _network(key: str, value: str) -> ipaddress.IPv4Network:
    try:
        return ipaddress.IPv4Network(value)
    except ValueError:
        raise constraint(
            key, value, "an IPv4 CIDR block with no host bits (`172.21.0.0/20`)"
        ) from None


def _private(key: str, value: str) -> ipaddress.IPv4Network:
    network = _network(key, value)
    if not any(network.subnet_of(ipaddress.IPv4Network(r)) for r in rules.PRIVATE_RANGES):
        raise constraint(key, value, f"a block inside {', '.join(rules.PRIVATE_RANGES)}")
    return network


class AckNetwork(StrictModel):
    """The cluster's network: plug-in, CIDR blocks, kube-proxy mode (fixed at creation)."""

    plugin: Literal["terway-eniip", "flannel"] = Field(
        description="Network plug-in, installed as its ACK add-on: `terway-eniip` (pods take "
        "IPs of the pod vSwitches) or `flannel` (pods take IPs of `podCidr`). Cannot change "
        "after creation."
    )
    pod_vswitch_ids: list[VSwitchRef] = Field(
        default_factory=list,
        description="Terway: the vSwitches pods take their IPs from (read at creation only).",
    )
    pod_cidr: Cidr | None = Field(
        default=None,
        description="Flannel: the pods' CIDR block; overlaps neither the VPC nor the Service "
        "CIDR. Changing it replaces the cluster.",
    )
    service_cidr: Cidr = Field(
        description="The Services' CIDR block, e.g. `172.21.0.0/20`; overlaps neither the VPC, "
        "its vSwitches nor the pods'. Changing it replaces the cluster."
    )
    vpc_cidr: Cidr | None = Field(
        default=None,
        description="The VPC's CIDR block as the VPC console shows it, so that the plan checks "
        "the Service and pod CIDRs do not overlap it (ACK's network planning rules; the "
        "provider checks nothing). Not sent to the cloud.",
    )
    node_cidr_mask: int | None = Field(
        default=None,
        description="Flannel: prefix length of each node's pod block, 24 to 28 (ACK's "
        "default 24). Changing it replaces the cluster.",
    )
    proxy_mode: Literal["ipvs", "iptables", "nftables"] = Field(
        default="ipvs",
        description="kube-proxy mode (`nftables` needs Kubernetes 1.35 or later, as every "
        "creatable version is). Changing it replaces the cluster.",
    )
    new_nat_gateway: bool = Field(
        default=True,
        description="Create a NAT gateway so nodes reach the internet (read at creation only).",
    )
    api_server_internet: bool = Field(
        default=True,
        description="Expose the API server on a public endpoint (`slb_internet_enabled`, read "
        "at creation only): the kubeconfig ACK hands out points at it, so `pulumi up` from "
        "outside the VPC needs it.",
    )

    @model_validator(mode="after")
    def _plan_rules(self) -> AckNetwork:
        service = _private("serviceCidr", self.service_cidr)
        vpc = None if self.vpc_cidr is None else _private("vpcCidr", self.vpc_cidr)
        if vpc is not None and service.overlaps(vpc):
            raise constraint(
                "serviceCidr", self.service_cidr, f"a block outside the VPC's {vpc}", ("vpcCidr",)
            )
        if self.plugin == "flannel":
            if self.pod_vswitch_ids:
                raise constraint(
                    "podVswitchIds", self.pod_vswitch_ids, "none with flannel (Terway's)"
                )
            if self.pod_cidr is None:
                raise constraint("podCidr", None, "the pods' CIDR block, required with flannel")
            pods = _private("podCidr", self.pod_cidr)
            for other, name in ((service, "serviceCidr"), (vpc, "vpcCidr")):
                if other is not None and pods.overlaps(other):
                    raise constraint(
                        "podCidr", self.pod_cidr, f"a block not overlapping {name} {other}", (name,)
                    )
        else:
            if not self.pod_vswitch_ids:
                raise constraint("podVswitchIds", [], "at least one vSwitch for pods with Terway")
            for key, value in (("podCidr", self.pod_cidr), ("nodeCidrMask", self.node_cidr_mask)):
                if value is not None:
                    raise constraint(key, value, "nothing with terway-eniip (Flannel's)")
        low, high = rules.NODE_CIDR_MASKS
        if self.node_cidr_mask is not None and not low <= self.node_cidr_mask <= high:
            raise constraint("nodeCidrMask", self.node_cidr_mask, f"{low} to {high}")
        return self


class AckCreateAddon(StrictModel):
    """An ACK add-on installed with the cluster (read at creation only)."""

    name: AddonName = Field(description="The add-on's name as ACK lists it, e.g. `csi-plugin`.")
    version: AddonVersion | None = Field(
        default=None, description="Exact version; unset: the one ACK installs at creation."
    )
    config: dict[str, Any] = Field(
        default_factory=dict, description="The add-on's configuration (sent as JSON)."
    )
    disabled: bool = Field(
        default=False, description="Leave out an add-on ACK installs by default."
    )


class AckCreate(StrictModel):
    """A new ACK managed cluster: what ``cs.ManagedKubernetes`` is created with."""

    name: str | None = Field(
        default=None,
        description="Cluster name, 1 to 63 characters; unset: `trainstack-<stack>`, so that "
        "stacks sharing these settings name their clusters apart.",
    )
    version: AckRelease = Field(
        description="Exact Kubernetes release, `x.y.z-aliyun.n` of a minor ACK creates "
        "(1.35, 1.36); may be raised later (an upgrade), never lowered."
    )
    cluster_spec: Literal[
        "ack.standard", "ack.pro.small", "ack.pro.xlarge", "ack.pro.2xlarge", "ack.pro.4xlarge"
    ] = Field(default="ack.pro.small", description="ACK edition and control-plane size.")
    network: AckNetwork = Field(description="Network plug-in and CIDR blocks.")
    addons: list[AckCreateAddon] = Field(
        default_factory=list,
        description="Add-ons installed at creation besides the network plug-in (NAS "
        "datasets need `csi-plugin` and `managed-csiprovisioner` or `csi-provisioner`); a "
        "later change is not applied by ACK.",
    )
    deletion_protection: bool = Field(
        default=True,
        description="ACK refuses to delete the cluster, and Pulumi's `protect` refuses to "
        "delete or replace it, until turned off.",
    )
    kubeconfig_minutes: int = Field(
        default=60,
        description="Validity of the kubeconfig fetched from the cluster at each `pulumi up` "
        "(15 to 4320 minutes).",
    )

    @model_validator(mode="after")
    def _plan_rules(self) -> AckCreate:
        low, high = rules.CLUSTER_NAME_LENGTH
        if self.name is not None and not low <= len(self.name) <= high:
            raise constraint("name", self.name, f"{low} to {high} characters")
        minor = minor_of(self.version)
        if minor is not None and minor not in rules.CREATABLE_MINORS:
            allowed = ", ".join(f"{a}.{b}" for a, b in rules.CREATABLE_MINORS)
            raise constraint(
                "version", self.version, f"a release of a minor ACK creates: {allowed}"
            )
        low, high = rules.CREDENTIAL_MINUTES
        if not low <= self.kubeconfig_minutes <= high:
            raise constraint("kubeconfigMinutes", self.kubeconfig_minutes, f"{low} to {high}")
        seen: set[str] = set()
        for index, addon in enumerate(self.addons):
            if addon.name in rules.NETWORK_PLUGINS:
                raise constraint(
                    f"addons[{index}].name",
                    addon.name,
                    "not a network plug-in (network.plugin installs it)",
                )
            if addon.name in seen:
                raise constraint(f"addons[{index}].name", addon.name, "a name no other add-on uses")
            seen.add(addon.name)
        return self

    def installs(self, name: str) -> bool:
        """Whether the cluster is created with add-on ``name`` (not disabled)."""
        return any(addon.name == name and not addon.disabled for addon in self.addons)

    def missing_nas_addons(self) -> str | None:
        """The NAS CSI add-ons (plug-in, provisioner) the cluster is not created with."""
        missing = [name for name in rules.NAS_CSI_ADDONS if not self.installs(name)]
        if not any(self.installs(name) for name in rules.NAS_CSI_PROVISIONERS):
            missing.append(" or ".join(rules.NAS_CSI_PROVISIONERS))
        return ", ".join(missing) or None
