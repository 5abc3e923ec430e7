"""What the Alibaba Cloud provider refuses, written down so that a plan refuses it first.

``pulumi-alicloud`` bridges ``terraform-provider-alicloud``: its ``Check`` runs the
Terraform schema's validations at ``pulumi preview``/``up`` (after the program already
ran), and the API refuses more at create time. The numbers below are those rules, taken
from the provider's own sources so that ``trainstack plan`` can name the stack file and
key instead of failing half-way through a deployment:

- ``TF``: terraform-provider-alicloud at commit 81c43b6727a09e9da37b3d88818c3ba5fa17fa14
  (``alicloud/resource_alicloud_cs_kubernetes_node_pool.go``,
  ``alicloud/resource_alicloud_nas_file_system.go``,
  ``alicloud/resource_alicloud_nas_mount_target.go``): ``ValidateFunc``/``ConflictsWith``.
- ``DOC``: the argument documentation of pulumi-alicloud 4.0.0 (``cs.NodePool``,
  ``nas.FileSystem``), for rules the API enforces that the Terraform schema does not.
"""

from __future__ import annotations

import re

# --- cs.NodePool -------------------------------------------------------------------------

# TF scaling_config.min_size: IntBetween(0, 1000); max_size: IntBetween(0, 2000).
# DOC scaling_config.max_size: "`max_size` has to be greater than `min_size`".
SCALING_MIN_SIZE_MAX = 1000
SCALING_MAX_SIZE_MAX = 2000

# TF scaling_config.type: StringInSlice(cpu, gpu, gpushare, spot).
SCALING_TYPES = ("cpu", "gpu", "gpushare", "spot")

# TF system_disk_category: StringInSlice(...).
SYSTEM_DISK_CATEGORIES = (
    "cloud_efficiency",
    "cloud_ssd",
    "cloud_essd",
    "cloud_auto",
    "cloud_essd_entry",
    "cloud",
)

# DOC system_disk_size (GiB): basic disk (`cloud`) 20-500; ESSD at its default
# performance level PL1 20-2048 (trainstack sets no performance level); ESSD AutoPL
# (`cloud_auto`) 1-2048; other categories 20-2048.
SYSTEM_DISK_SIZES: dict[str, tuple[int, int]] = {
    "cloud": (20, 500),
    "cloud_essd": (20, 2048),
    "cloud_auto": (1, 2048),
    "cloud_efficiency": (20, 2048),
    "cloud_ssd": (20, 2048),
    "cloud_essd_entry": (20, 2048),
}

# TF key_name ConflictsWith(password, kms_encrypted_password); DOC password: "You have to
# specify one of `password` and `key_name`"; 8 to 30 characters with at least three of
# upper case, lower case, digits and special characters.
PASSWORD_LENGTH = (8, 30)
_PASSWORD_CLASSES = (r"[A-Z]", r"[a-z]", r"[0-9]", r"[^A-Za-z0-9]")


def password_problem(password: str) -> str | None:
    """What the provider refuses in a node login password (never the password itself)."""
    low, high = PASSWORD_LENGTH
    if not low <= len(password) <= high:
        return f"{low} to {high} characters"
    classes = sum(1 for pattern in _PASSWORD_CLASSES if re.search(pattern, password))
    if classes < 3:
        return "at least three of: upper-case letters, lower-case letters, digits, symbols"
    return None


# --- nas.FileSystem ----------------------------------------------------------------------

# TF file_system_type: StringInSlice(standard, extreme, cpfs, cpfsse). trainstack mounts
# NAS with the NFS CSI plug-in, which serves General Purpose (standard) and Extreme NAS.
FILE_SYSTEM_TYPES = ("standard", "extreme")

# TF storage_type: StringInSlice(Performance, Capacity, standard, advance, advance_100,
# advance_200, Premium); DOC: standard -> Performance, Capacity, Premium; extreme ->
# standard, advance; cpfs -> advance_100, advance_200.
STORAGE_TYPES: dict[str, tuple[str, ...]] = {
    "standard": ("Performance", "Capacity", "Premium"),
    "extreme": ("standard", "advance"),
}

# TF protocol_type: StringInSlice(NFS, SMB, cpfs), required; DOC: standard -> NFS, SMB;
# extreme -> NFS. The CSI plug-in mounts NFS only.
PROTOCOL_TYPES = ("NFS",)

# TF encrypt_type: IntInSlice(0, 1, 2); DOC: 1 (NAS-managed key) for standard or extreme,
# 2 (a KMS key of your own, kms_key_id) for extreme only.
ENCRYPT_TYPES = (0, 1, 2)

# DOC description (pulumi-alicloud 4.0.0 nas.FileSystem, the `description` docstring of
# alicloud.json): 2 to 128 English or Chinese characters, starting with a letter or a
# Chinese character, not with http:// or https://; "can contain numbers, colons (:),
# underscores (_), or hyphens (-)". ROS ALIYUN::NAS::FileSystem says the same
# (https://www.alibabacloud.com/help/doc-detail/111645.htm). No space and no `.` (nor
# "/", so no URL passes). TF has no ValidateFunc for it: the NAS API refuses it at create.
DESCRIPTION_PATTERN = r"^[A-Za-z\u4e00-\u9fff][A-Za-z0-9\u4e00-\u9fff:_\-]{1,127}$"
DESCRIPTION_WORDS = (
    "2 to 128 letters (or Chinese characters), digits, `:`, `_` and `-`, a letter first "
    "(no spaces, no `.`: the provider's documented rule)"
)


# TF: the inputs of nas.FileSystem and nas.MountTarget whose change replaces the
# resource (ForceNew): a new, empty file system, or a new mount target domain.
FILE_SYSTEM_REPLACED_BY = (
    "protocolType",
    "storageType",
    "fileSystemType",
    "zoneId",
    "encryptType",
    "kmsKeyId",
    "redundancyType",
    "redundancyVswitchIds",
    "vpcId",
    "vswitchId",
)
MOUNT_TARGET_REPLACED_BY = ("fileSystemId", "networkType", "vpcId", "vswitchId")


# --- cs.ManagedKubernetes ------------------------------------------------------------------
# TF here: terraform-provider-alicloud v1.289.0 (28ee93bc63fa0e5f919a21fc1711bde8c45d7b44;
# byte-identical at 81c43b67 for these files), alicloud/resource_alicloud_cs_managed_kubernetes.go
# (MK) and website/docs/r/cs_managed_kubernetes.html.markdown (MKDOC); the inputs are those of
# pulumi_alicloud 4.0.0's cs.ManagedKubernetesArgs, which match that schema.

# TF cluster_spec: StringInSlice (MK L684-689); MKDOC L460-467 (4xlarge "Requires whitelist").
CLUSTER_SPECS = (
    "ack.standard",
    "ack.pro.small",
    "ack.pro.xlarge",
    "ack.pro.2xlarge",
    "ack.pro.4xlarge",
)
# TF proxy_mode: iptables, ipvs, nftables, default ipvs (MK L317-323); MKDOC L445-449:
# nftables only on Kubernetes 1.35 and later (so on every creatable minor below).
PROXY_MODES = ("ipvs", "iptables", "nftables")
# TF node_cidr_mask: IntBetween(24, 28), default 24 (MK L245-251).
NODE_CIDR_MASKS = (24, 28)
# TF vswitch_ids: 1 to 5 items, `^vsw-[a-z0-9]*$` (MK L215-226).
CLUSTER_VSWITCHES_MAX = 5
# TF name: 1 to 63 characters (MK L40).
CLUSTER_NAME_LENGTH = (1, 63)
# Data source cs_cluster_credential temporary_duration_minutes: 15 to 4320
# (website/docs/d/cs_cluster_credential.html.markdown L40).
CREDENTIAL_MINUTES = (15, 4320)
# ACK creates clusters of its three newest minors ("Kubernetes versions supported by ACK",
# https://www.alibabacloud.com/help/en/ack/product-overview/support-for-kubernetes-versions,
# copy last updated Oct 06 2026: 1.36 (May 2026), 1.35 (Feb 2026), 1.34 whose support
# ended Sep 30 2026). Versions are `x.y.z-aliyun.n` (same page).
CREATABLE_MINORS = ((1, 35), (1, 36))
# The network plug-ins, as the add-on ACK installs (MKDOC: `terway-eniip` L148, `flannel`
# L692, "Conflicts With Network-terway"); the CSI plug-in the NAS volumes need (MKDOC
# L151-154, L722-726: `csi-plugin` with `csi-provisioner` or `managed-csiprovisioner`).
NETWORK_PLUGINS = ("terway-eniip", "flannel")
NAS_CSI_ADDONS = ("csi-plugin",)
NAS_CSI_PROVISIONERS = ("csi-provisioner", "managed-csiprovisioner")
# "Plan CIDR blocks for an ACK cluster" (AlibabaCloudDocs/csk @ cb678bc9, L21-48; current
# page https://www.alibabacloud.com/help/doc-detail/86500.html): the VPC is within one of
# these private ranges; the Service CIDR overlaps neither the VPC, its vSwitches, the pod
# vSwitches nor the pod CIDR; the pod CIDR (Flannel) overlaps neither the VPC nor the
# Service CIDR. The provider checks none of it (no ValidateFunc on pod_cidr/service_cidr).
PRIVATE_RANGES = ("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16")

# TF: the inputs whose change replaces the cluster (ForceNew, MK L54-59, L235-251,
# L317-330, L399-405, L661-673, L785-799): a new, empty cluster.
CLUSTER_REPLACED_BY = (
    "podCidr",
    "serviceCidr",
    "nodeCidrMask",
    "proxyMode",
    "ipStack",
    "clusterDomain",
    "profile",
    "serviceAccountIssuer",
    "apiAudiences",
    "autoMode",
)
# MKDOC L420-L503 and the update function (MK L1455-1509): read at creation only; a later
# change is silently not applied (add-ons afterwards: cs.KubernetesAddon).
CLUSTER_CREATE_ONLY = (
    "addons",
    "podVswitchIds",
    "newNatGateway",
    "slbInternetEnabled",
    "isEnterpriseSecurityGroup",
    "zoneIds",
)
