"""How a data stack's file system is filled: ``fileSystems[].populate``.

A Kubernetes Job on one cluster stack (``stack``: the data stack says which) mounts the
file system read-write and runs ``command`` in ``image`` once. Once: the Job's script
(``components/populate_marker.py``) writes a marker holding the digest of the spec
(:func:`populate_digest`: image, command, environment, secret references) after the
command succeeds, skips the command when the marker holds the same digest, and refuses
to run over files it did not write (or wrote for another spec) unless ``overwrite`` is
true. A changed spec is a new digest: ``trainstack diff`` lists it under data at risk.
Credentials (ImageNet needs an account) are Kubernetes Secrets referenced by name and
key, never values in the stack file.
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Annotated

from pydantic import Field, StringConstraints, field_validator

from trainstack.core.base_model import StrictModel, constraint
from trainstack.core.names import PLACEHOLDER_PATTERN, DnsLabel

EnvName = Annotated[str, StringConstraints(pattern=r"^[A-Za-z_][A-Za-z0-9_]{0,127}$")]
Image = Annotated[
    str, StringConstraints(pattern=rf"^([a-z0-9][A-Za-z0-9._/:@-]{{0,254}}|{PLACEHOLDER_PATTERN})$")
]
StackName = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_-][A-Za-z0-9_.-]{0,99}$")]
SecretKey = Annotated[str, StringConstraints(pattern=r"^[-._a-zA-Z0-9]{1,253}$")]
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


class SecretEnv(StrictModel):
    """An environment variable read from a Kubernetes Secret in the Job's namespace."""

    name: EnvName = Field(description="The variable, e.g. `IMAGENET_ACCESS_KEY`.")
    secret: DnsLabel = Field(description="Name of the Secret (created outside trainstack).")
    key: SecretKey = Field(description="Key of the Secret holding the value.")


class PopulateResources(StrictModel):
    """What the Job's container requests (and is limited to)."""

    cpu: Amount = Field(default="4", description="CPU request and limit.")
    memory: Amount = Field(default="16Gi", description="Memory request and limit.")


class Populate(StrictModel):
    """A Job that fills the file system once: image, command, environment, secrets."""

    stack: StackName = Field(
        description="The cluster stack whose cluster runs the Job (it must mount the whole "
        "file system as a dataset); other stacks mounting it wait for it to finish."
    )
    image: Image = Field(description="Container image with the tools and a POSIX `/bin/sh`.")
    command: list[Annotated[str, StringConstraints(max_length=4096)]] = Field(
        min_length=1,
        max_length=64,
        description="The command (and its arguments); it writes under `$TRAINSTACK_DATA_DIR` "
        "(the file system's directory, mounted read-write).",
    )
    env: dict[EnvName, Annotated[str, StringConstraints(max_length=4096)]] = Field(
        default_factory=dict,
        description="Plain environment variables (no credentials: use secretEnv).",
    )
    secret_env: list[SecretEnv] = Field(
        default_factory=list,
        description="Variables read from Kubernetes Secrets by name and key (credentials).",
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
        description="Non-root user ID the Job runs as (it must be able to write the "
        "file system's directory).",
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
    """The sha256 of what decides the data: image, command, environment and the secret
    references (names, never values). Resources, deadline, user, ``overwrite`` and the
    stack that runs it do not change what is written, so they do not change it."""
    decisive = spec.model_dump(
        mode="json", by_alias=True, include={"image", "command", "env", "secret_env"}
    )
    text = json.dumps(decisive, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()
