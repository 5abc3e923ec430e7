"""Code sync: fetch the training code when each pod starts, as ``arena submit --sync-mode``.

An init container copies the code into an ``emptyDir`` volume that the training container
mounts (Arena's ``code-sync`` volume). Opt-in: code built into the image is versioned by
its tag, while a branch synced at start is whatever it holds that minute, so pin
``git.revision`` to a commit for runs that must be reproducible.

Images (the ones Arena's charts use, kubeflow/arena ``charts/{tfjob,pytorchjob,mpijob}/
values.yaml``: ``gitImage``, ``rsyncImage``), published by Alibaba Cloud in its
``acs`` namespace, pinned by tag (their digests could not be read offline):

- git: ``registry.cn-zhangjiakou.aliyuncs.com/acs/git-sync:v3.3.5``, Kubernetes'
  git-sync v3 (kubernetes/git-sync), configured with its ``GIT_SYNC_*`` variables;
- rsync: ``registry.cn-zhangjiakou.aliyuncs.com/acs/rsync:v3.1.0-aliyun``, run as
  ``rsync -avP <source> <root>``.

Arena's third mode, HDFS, needs a Hadoop client configuration in the pod; it is not
offered (put the data on a dataset claim instead).
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from trainstack.core.base_model import StrictModel, constraint
from trainstack.core.limits import INT32_MAX
from trainstack.training_job.roles import Resources
from trainstack.training_job.types import AbsolutePath, DnsName

GIT_SYNC_IMAGE = "registry.cn-zhangjiakou.aliyuncs.com/acs/git-sync:v3.3.5"
RSYNC_IMAGE = "registry.cn-zhangjiakou.aliyuncs.com/acs/rsync:v3.1.0-aliyun"
SYNC_ROOT = "/code"
"""Where the init container writes (Arena's ``GIT_SYNC_ROOT``)."""


class GitSource(StrictModel):
    """A git repository, cloned by git-sync once per pod start."""

    repository: str = Field(
        min_length=1,
        pattern=r"^(https?://|ssh://|git@)\S+$",
        description="URL of the repository (https://, ssh:// or git@host:path).",
        examples=["https://github.com/kubeflow/training-operator.git"],
    )
    branch: str | None = Field(
        default=None, min_length=1, description="Branch to check out; null: master."
    )
    revision: str | None = Field(
        default=None,
        min_length=1,
        description="Commit or tag to check out (on the branch); null: its HEAD. Pin a commit "
        "for reproducible runs.",
    )
    depth: int | None = Field(
        default=None,
        ge=1,
        le=INT32_MAX,
        description="Shallow clone with this many commits; null: all.",
    )
    directory: str | None = Field(
        default=None,
        min_length=1,
        pattern=r"^[^/]+$",
        description="Directory of the checkout under codeSync.mountPath; null: the "
        "repository's name (the last part of its URL without .git), as Arena does.",
    )
    credentials_secret: DnsName | None = Field(
        default=None,
        description="Secret with keys username and password (a token) for a private "
        "repository over https; null: anonymous.",
    )


class RsyncSource(StrictModel):
    """An rsync source, copied once per pod start."""

    source: str = Field(
        min_length=1,
        pattern=r"^\S+$",
        description="What rsync copies, e.g. rsync://server/module/project/ or "
        "server::module/project.",
    )


class CodeSync(StrictModel):
    """Fetch the code into every pod of the job before training starts (opt-in)."""

    # the schema says what the model says: a mode needs its source
    model_config = {
        "json_schema_extra": {
            "allOf": [
                {
                    "if": {"properties": {"mode": {"const": mode}}, "required": ["mode"]},
                    "then": {"required": [mode]},
                }
                for mode in ("git", "rsync")
            ]
        }
    }

    mode: Literal["none", "git", "rsync"] = Field(
        default="none", description="none, git (git-sync) or rsync."
    )
    git: GitSource | None = Field(default=None, description="The repository (mode git).")
    rsync: RsyncSource | None = Field(default=None, description="The source (mode rsync).")
    mount_path: AbsolutePath = Field(
        default="/code",
        description="Where the code appears in the training containers (Arena: <workingDir>/code).",
    )
    image: str | None = Field(
        default=None,
        min_length=1,
        pattern=r"^\S+$",
        description=f"Image of the init container; null: {GIT_SYNC_IMAGE} (git) or "
        f"{RSYNC_IMAGE} (rsync), Arena's.",
    )
    resources: Resources = Field(
        default_factory=Resources, description="CPU and memory of the init container."
    )

    @model_validator(mode="after")
    def _source_of_its_mode(self) -> CodeSync:
        sources = {"git": self.git, "rsync": self.rsync}
        for mode, source in sources.items():
            if mode != self.mode and source is not None:
                raise constraint(mode, "a source", f"nothing with mode {self.mode}")
        if self.mode != "none" and sources[self.mode] is None:
            raise constraint(self.mode, None, f"the source to sync with mode {self.mode}")
        return self

    @property
    def enabled(self) -> bool:
        """Whether pods get the init container."""
        return self.mode != "none"
