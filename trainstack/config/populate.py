"""How a data stack's file system is filled and checked: ``fileSystems[].populate``.

A Kubernetes Job on one cluster stack (``stack``: the data stack says which) mounts the
file system read-write and runs the populate script (``components/populate/``) in
``image`` once: it fetches ``source`` (:mod:`trainstack.config.populate_sources`), runs
the optional ``command``, then verifies ``layout`` (names, counts, non-empty files, the
total size) and writes the manifest (``.trainstack-manifest``: size, sha256 with
``verify: full``, and path of every file the layout matches, sorted) with its digest
(``.trainstack-manifest.sha256``), and only then the marker ``.trainstack-populated``
holding the digest of the spec (:func:`populate_digest`). The same spec never runs twice;
files it did not write (or wrote for another spec) are refused unless ``overwrite`` is
true (``existing`` writes only the manifest and the marker: it does not refuse the
files it finds). A changed spec is a new digest: ``trainstack diff`` lists it under data at risk.
Credentials are Kubernetes Secrets referenced by name and key (or the cluster's RRSA),
never values in the stack file.
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Annotated, Literal

from pydantic import Field, StringConstraints, field_validator, model_validator

from trainstack.config.populate_names import Glob, SecretKey
from trainstack.config.populate_sources import (
    ConvertSource,
    ExistingSource,
    HttpSource,
    OssSource,
    Source,
)
from trainstack.core.base_model import StrictModel, constraint
from trainstack.core.names import PLACEHOLDER_PATTERN, DnsLabel

EnvName = Annotated[str, StringConstraints(pattern=r"^[A-Za-z_][A-Za-z0-9_]{0,127}$")]
Image = Annotated[
    str, StringConstraints(pattern=rf"^([a-z0-9][A-Za-z0-9._/:@-]{{0,254}}|{PLACEHOLDER_PATTERN})$")
]
StackName = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_-][A-Za-z0-9_.-]{0,99}$")]
Amount = Annotated[str, StringConstraints(pattern=r"^[0-9]+(\.[0-9]+)?(m|Ki|Mi|Gi|Ti)?$")]
POPULATE_DIGEST = "trainstack.io/populate-digest"
"""The annotation of a populate Job (and of the Job waiting for it): the spec's digest."""
# Names of plain variables that would carry a credential: those come from a Secret.
_CREDENTIAL_NAME = re.compile(r"(KEY|PASSWORD|PASSWD|TOKEN|SECRET|CREDENTIAL)", re.IGNORECASE)
RESERVED_PREFIX = "TRAINSTACK_"
"""The Job's own variables (data directory, digest, overwrite: components/populate_job.py).
The user's come after them in the container's ``env``, and the kubelet keeps the last of
a name, so ``TRAINSTACK_POPULATE_OVERWRITE`` there would defeat ``overwrite: false``."""
SHELL_CONTROLLED = ("PATH", "IFS", "ENV", "BASH_ENV", "SHELLOPTS", "LD_PRELOAD", "LD_LIBRARY_PATH")
"""Variables that change what the Job's own script runs before the user's command (its
check for foreign files): ``PATH`` chooses its ``ls``, ``IFS`` its word splitting (POSIX
Shell Command Language, 2.5.3 Shell Variables), bash sources ``BASH_ENV`` before a script
(Bash Reference Manual, 6.2 Bash Startup Files) and ``SHELLOPTS`` sets its options, and
``LD_PRELOAD``/``LD_LIBRARY_PATH`` load a library into every program (ld.so(8))."""

__all__ = [
    "ConvertSource",
    "ExistingSource",
    "HttpSource",
    "Layout",
    "LayoutFiles",
    "OssSource",
    "Populate",
    "populate_digest",
]


class SecretEnv(StrictModel):
    """An environment variable read from a Kubernetes Secret in the Job's namespace."""

    name: EnvName = Field(description="The variable, e.g. `MIRROR_TOKEN`.")
    secret: DnsLabel = Field(description="Name of the Secret (created outside trainstack).")
    key: SecretKey = Field(description="Key of the Secret holding the value.")


class PopulateResources(StrictModel):
    """What the Job's container requests (and is limited to)."""

    cpu: Amount = Field(default="4", description="CPU request and limit.")
    memory: Amount = Field(default="16Gi", description="Memory request and limit.")


class LayoutFiles(StrictModel):
    """Files the experiments read: a pattern and how many files it must match."""

    glob: Glob = Field(
        description="Files relative to the file system's root, e.g. "
        "`imagenet/imagenet_data/train/train-*` (`*`, `?` within one name)."
    )
    count: int = Field(ge=1, le=10_000_000, description="Exactly this many files match.")


class Layout(StrictModel):
    """What verify checks, and what the manifest lists: the files matching ``files``."""

    files: list[LayoutFiles] = Field(
        min_length=1, max_length=64, description="Patterns and their file counts."
    )
    min_bytes: int = Field(ge=1, description="The matched files total at least this many bytes.")
    max_bytes: int | None = Field(
        default=None, ge=1, description="... and at most this many (unset: no upper bound)."
    )

    @model_validator(mode="after")
    def _range(self) -> Layout:
        if self.max_bytes is not None and self.max_bytes < self.min_bytes:
            raise constraint("maxBytes", self.max_bytes, f"at least minBytes ({self.min_bytes})")
        globs = [item.glob for item in self.files]
        if len(set(globs)) != len(globs):
            raise constraint("files", "a glob twice", "each glob once")
        return self

    def lines(self) -> str:
        """The layout as the script reads it: ``<count> <glob>`` lines."""
        return "".join(f"{item.count} {item.glob}\n" for item in self.files)


class Populate(StrictModel):
    """A Job that fills the file system once from a source, verifies it, writes a manifest."""

    stack: StackName = Field(
        description="The cluster stack whose cluster runs the Job (it must mount the whole "
        "file system as a dataset); other stacks mounting it wait for it to finish."
    )
    image: Image = Field(
        description="Container image with a POSIX `/bin/sh`, coreutils (`sha256sum`) and "
        "the source's tools: `ossutil` 1.7 (oss), `curl` (http), git and TensorFlow 1.x "
        "(convert)."
    )
    source: Source = Field(
        description="Where the data comes from: `kind: oss | http | convert | existing`."
    )
    layout: Layout = Field(description="The files experiments read, checked before the marker.")
    verify: Literal["quick", "full"] = Field(
        default="full",
        description="`quick`: names, counts, non-empty, total size; `full`: also the "
        "sha256 of every file, recorded in the manifest.",
    )
    command: list[Annotated[str, StringConstraints(max_length=4096)]] | None = Field(
        default=None,
        min_length=1,
        max_length=64,
        description="Optional extra step after the source (e.g. a working copy of the "
        "training scripts), run with `$TRAINSTACK_DATA_DIR` set; its files are not "
        "verified unless the layout names them.",
    )
    env: dict[EnvName, Annotated[str, StringConstraints(max_length=4096)]] = Field(
        default_factory=dict,
        description="Plain environment variables of the command (no credentials).",
    )
    secret_env: list[SecretEnv] = Field(
        default_factory=list,
        description="Variables of the command read from Kubernetes Secrets by name and key.",
    )
    resources: PopulateResources = Field(
        default_factory=PopulateResources, description="CPU and memory of the Job's container."
    )
    deadline_hours: int = Field(
        default=24,
        ge=1,
        le=168,
        description="The Job is stopped, and `pulumi up` fails, after this many hours.",
    )
    run_as_user: int = Field(
        default=1000,
        ge=1,
        description="Non-root user (and group) ID the Job runs as; a one-shot init step "
        "with only CAP_CHOWN gives it the file system's root directory.",
    )
    overwrite: bool = Field(
        default=False,
        description="Allow the Job to run over files it did not write, or wrote for another "
        "spec (their content may be replaced). Off: it refuses and changes nothing.",
    )

    @field_validator("env")
    @classmethod
    def _no_credentials(cls, env: dict[str, str]) -> dict[str, str]:
        for name in env:
            _check_not_reserved(name, name)
            if _CREDENTIAL_NAME.search(name):
                raise constraint(
                    name,
                    "a value (not shown)",
                    "no credential in the stack file: read it from a Kubernetes Secret "
                    f"(`secretEnv: [{{name: {name}, secret: <Secret>, key: <key>}}]`)",
                )
        return env

    @model_validator(mode="after")
    def _command_inputs(self) -> Populate:
        if self.command is None and (self.env or self.secret_env):
            raise constraint(
                "env" if self.env else "secretEnv", "set without command", "only with command"
            )
        return self

    @field_validator("secret_env")
    @classmethod
    def _no_reserved_secret(cls, refs: list[SecretEnv]) -> list[SecretEnv]:
        for index, ref in enumerate(refs):
            _check_not_reserved(f"[{index}].name", ref.name)
        return refs

    @property
    def digest(self) -> str:
        """See :func:`populate_digest`."""
        return populate_digest(self)

    def summary(self) -> list[str]:
        """What the plan shows of it: the source, the expected layout, the verify mode."""
        layout = self.layout
        total = f"{layout.min_bytes} to {layout.max_bytes or 'any'} bytes in all"
        return [
            f"source: {self.source.describe()}",
            *(f"layout: {item.count} x {item.glob}" for item in layout.files),
            f"layout: {total}, each file non-empty",
            f"verify: {self.verify}"
            + (" (sha256 of every file in the manifest)" if self.verify == "full" else ""),
        ]


def _check_not_reserved(field: str, name: str) -> None:
    """Refuses a name the Job sets itself or that its script's shell reads."""
    if name.upper().startswith(RESERVED_PREFIX) or name in SHELL_CONTROLLED:
        raise constraint(
            field,
            repr(name),
            f"a name not starting with {RESERVED_PREFIX} (the Job's own variables) and none "
            f"of {', '.join(SHELL_CONTROLLED)} (they change the Job's own script); set such a "
            "variable inside `command` instead (`sh -c 'PATH=... exec tool'`)",
        )


def populate_digest(spec: Populate) -> str:
    """The sha256 of what decides the data and its check: image, source, layout, verify,
    command, environment and the secret references (names, never values). Resources,
    deadline, user, ``overwrite`` and the stack that runs it do not change what is
    written, so they do not change it."""
    decisive = spec.model_dump(
        mode="json",
        by_alias=True,
        include={"image", "source", "layout", "verify", "command", "env", "secret_env"},
    )
    text = json.dumps(decisive, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()
