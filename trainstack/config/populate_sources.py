"""Where a populate Job takes the data from: ``fileSystems[].populate.source``.

Four kinds, told apart by ``kind``: ``oss`` (a bucket/prefix copied with Alibaba's
``ossutil``), ``http`` (files, each with its sha256), ``convert`` (raw ILSVRC2012 tars,
fetched by a nested ``oss`` or ``http`` source, converted to TFRecords by a converter
pinned to a commit) and ``existing`` (nothing fetched, only verified).

Every name, path, URL and prefix reaches the Job's script as data (environment
variables and files of a ConfigMap, never text of the script), each held to a grammar of
:mod:`trainstack.config.populate_names` at plan time.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Discriminator, Field, Tag, model_validator

from trainstack.config.populate_names import (
    Bucket,
    Commit,
    DataPath,
    Host,
    HttpUrl,
    Prefix,
    Region,
    SecretKey,
    Sha256OrPlaceholder,
)
from trainstack.core.base_model import StrictModel, constraint
from trainstack.core.names import DnsLabel

_MAX_LIST_BYTES = 900 * 1024


class OssSecretCredentials(StrictModel):
    """An AccessKey pair of a RAM user, in a Kubernetes Secret of the Job's namespace."""

    secret: DnsLabel = Field(description="Name of the Secret (created outside trainstack).")
    access_key_id_key: SecretKey = Field(
        default="access-key-id", description="Key of the Secret holding the AccessKey ID."
    )
    access_key_secret_key: SecretKey = Field(
        default="access-key-secret",
        description="Key of the Secret holding the AccessKey secret.",
    )


class OssRrsaCredentials(StrictModel):
    """RRSA (RAM Roles for Service Accounts) of an ACK cluster: the Job's service account
    is bound to a RAM role; ACK's webhook injects the OIDC token and role variables."""

    rrsa: Literal[True] = Field(description="`true`: use the cluster's RRSA.")
    service_account: DnsLabel = Field(
        description="The service account annotated for RRSA in the Job's namespace "
        "(`pod-identity.alibabacloud.com/role-name`), created outside trainstack."
    )


def _credentials_kind(value: Any) -> str:
    if isinstance(value, dict):
        return "rrsa" if "rrsa" in value else "secret"
    return "rrsa" if isinstance(value, OssRrsaCredentials) else "secret"


OssCredentials = Annotated[
    Annotated[OssSecretCredentials, Tag("secret")] | Annotated[OssRrsaCredentials, Tag("rrsa")],
    Discriminator(_credentials_kind),
]


class OssSource(StrictModel):
    """Objects under an OSS prefix the user owns, copied with ``ossutil cp -r``."""

    kind: Literal["oss"] = Field(description="`oss`.")
    bucket: Bucket = Field(description="The bucket holding the objects.")
    prefix: Prefix | None = Field(
        default=None,
        description="Copy the objects under `<prefix>/` (unset: the whole bucket); their "
        "names below the prefix are kept under target.",
    )
    region: Region = Field(description="Region ID of the bucket, e.g. `cn-beijing`.")
    endpoint: Host | None = Field(
        default=None,
        description="Endpoint host; unset: `oss-<region>.aliyuncs.com` (the public one). "
        "From a cluster in the bucket's region use the internal one "
        "(`oss-<region>-internal.aliyuncs.com`): no Internet traffic.",
    )
    target: DataPath = Field(description="Directory under the file system's root to copy into.")
    credentials: OssCredentials = Field(
        description="`{secret, accessKeyIdKey, accessKeySecretKey}` or `{rrsa: true, "
        "serviceAccount}`."
    )

    def describe(self) -> str:
        """One line for the plan."""
        return f"oss {self.url} ({self.region}) -> {self.target}"

    @property
    def url(self) -> str:
        """``oss://bucket/prefix/``: what ``ossutil cp -r`` copies."""
        return f"oss://{self.bucket}/{self.prefix}/" if self.prefix else f"oss://{self.bucket}/"


class HttpFile(StrictModel):
    """One file: where it is, its sha256, where it goes."""

    url: HttpUrl = Field(description="The file's URL (a presigned S3/OSS URL works).")
    sha256: Sha256OrPlaceholder = Field(description="sha256 of the file's bytes.")
    path: DataPath = Field(description="Where it goes, relative to the source's target.")


class HttpSource(StrictModel):
    """Files over HTTP(S), each checked against its sha256: listed here, or in a manifest
    (``<sha256> <url> <path>`` lines) itself checked against ``manifestSha256``."""

    kind: Literal["http"] = Field(description="`http`.")
    files: list[HttpFile] | None = Field(
        default=None, min_length=1, max_length=4096, description="The files (or manifestUrl)."
    )
    manifest_url: HttpUrl | None = Field(
        default=None,
        description="A list of files, one `<sha256> <url> <path>` line each (or files).",
    )
    manifest_sha256: Sha256OrPlaceholder | None = Field(
        default=None, description="sha256 of the manifest's bytes (with manifestUrl)."
    )
    target: DataPath = Field(description="Directory under the file system's root to write into.")
    connect_timeout_seconds: int = Field(
        default=30, ge=1, le=600, description="A connection not made in this time fails."
    )
    stall_seconds: int = Field(
        default=120,
        ge=1,
        le=3600,
        description="A download slower than 1 KiB/s for this long fails (curl's "
        "--speed-time with --speed-limit 1024).",
    )

    @model_validator(mode="after")
    def _one_list(self) -> HttpSource:
        if (self.files is None) == (self.manifest_url is None):
            raise constraint("files", "both or neither", "exactly one of files and manifestUrl")
        if (self.manifest_url is None) != (self.manifest_sha256 is None):
            raise constraint(
                "manifestSha256",
                "missing" if self.manifest_sha256 is None else "without manifestUrl",
                "manifestUrl and manifestSha256 together",
            )
        if self.files is not None:
            paths = [item.path for item in self.files]
            if len(set(paths)) != len(paths):
                raise constraint("files", "a path twice", "one file per path")
            # The list travels in a ConfigMap, whose data Kubernetes caps at 1 MiB.
            size = sum(len(f"{i.sha256} {i.url} {i.path}\n") for i in self.files)
            if size > _MAX_LIST_BYTES:
                raise constraint(
                    "files",
                    f"{size} bytes of URLs, sha256s and paths",
                    f"at most {_MAX_LIST_BYTES}: put the list behind manifestUrl",
                )
        return self

    def describe(self) -> str:
        """One line for the plan."""
        what = f"{len(self.files)} files" if self.files else f"files of {self.manifest_url}"
        return f"http {what} (sha256 checked) -> {self.target}"


class Converter(StrictModel):
    """The converter: a repository at a commit, run in the Job's image (TensorFlow 1.x)."""

    repository: HttpUrl = Field(
        default="https://github.com/tensorflow/models.git",
        description="Git repository of the converter (cloned at deploy time: a mirror works).",
    )
    commit: Commit = Field(description="The commit checked out (pinned: 40 hex digits).")
    directory: DataPath = Field(
        default="research/inception/inception/data",
        description="Directory of build_imagenet_data.py and its helpers in the repository.",
    )
    train_shards: int = Field(default=1024, ge=1, le=65536, description="--train_shards.")
    validation_shards: int = Field(default=128, ge=1, le=65536, description="--validation_shards.")
    threads: int = Field(
        default=8, ge=1, le=256, description="--num_threads (divides both shard counts)."
    )

    @model_validator(mode="after")
    def _threads_divide(self) -> Converter:
        # build_imagenet_data.py asserts both shard counts are multiples of num_threads.
        for key, shards in (
            ("trainShards", self.train_shards),
            ("validationShards", self.validation_shards),
        ):
            if shards % self.threads:
                raise constraint(key, shards, f"a multiple of threads ({self.threads})")
        return self


class ConvertSource(StrictModel):
    """Raw ILSVRC2012 tars (``ILSVRC2012_img_train.tar``, ``ILSVRC2012_img_val.tar``,
    ``ILSVRC2012_bbox_train_v2.tar.gz``) fetched by ``from``, converted to TFRecords."""

    kind: Literal["convert"] = Field(description="`convert`.")
    from_: Annotated[OssSource | HttpSource, Field(discriminator="kind")] = Field(
        alias="from", description="An oss or http source fetching the raw tars."
    )
    converter: Converter = Field(description="The converter, pinned to a commit.")
    target: DataPath = Field(
        description="Directory of the TFRecords: `train/` and `validation/` under it."
    )

    @model_validator(mode="after")
    def _apart(self) -> ConvertSource:
        raw, out = self.from_.target, self.target
        if raw == out or raw.startswith(f"{out}/") or out.startswith(f"{raw}/"):
            raise constraint("target", out, f"a directory apart from from.target ({raw})")
        return self

    def describe(self) -> str:
        """One line for the plan."""
        return (
            f"convert {self.from_.describe()} with {self.converter.repository}@"
            f"{self.converter.commit[:12]} -> {self.target}"
        )


class ExistingSource(StrictModel):
    """The data is on the file system already: nothing is fetched, only verified."""

    kind: Literal["existing"] = Field(description="`existing`.")

    def describe(self) -> str:
        """One line for the plan."""
        return "existing (nothing fetched)"


Source = Annotated[
    OssSource | HttpSource | ConvertSource | ExistingSource, Field(discriminator="kind")
]
"""A populate source, by ``kind``."""
