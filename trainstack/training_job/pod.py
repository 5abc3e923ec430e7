"""Pod settings a role may override: probes and the user and group its containers run as.

The job-level defaults live in ``security.py`` (``security.runAsUser``...); each role's
``security`` overrides them for that role's pods only (null keeps the job's).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, StringConstraints, model_validator

from trainstack.core.base_model import StrictModel, constraint
from trainstack.core.limits import INT32_MAX, INT64_MAX
from trainstack.training_job.security import Capability

PortNumber = Annotated[int, Field(ge=1, le=65535)]
PortName = Annotated[str, StringConstraints(pattern=r"^[a-z0-9]([-a-z0-9]{0,13}[a-z0-9])?$")]


class ExecAction(StrictModel):
    """Run a command in the container: exit status 0 is success."""

    command: list[str] = Field(min_length=1, description="The command (exec form).")


class TcpSocketAction(StrictModel):
    """Open a TCP connection to the container."""

    port: PortNumber | PortName = Field(description="Port number or name.")


class HttpGetAction(StrictModel):
    """An HTTP GET to the container: a status from 200 to 399 is success."""

    path: str = Field(default="/", pattern=r"^/", description="Path of the request.")
    port: PortNumber | PortName = Field(description="Port number or name.")
    scheme: Literal["HTTP", "HTTPS"] | None = Field(
        default=None, description="HTTP or HTTPS; null: HTTP."
    )


_ACTIONS = ("exec", "tcpSocket", "httpGet")


class Probe(StrictModel):
    """A readiness or liveness probe: exactly one of exec, tcpSocket and httpGet."""

    model_config = {"json_schema_extra": {"oneOf": [{"required": [action]} for action in _ACTIONS]}}

    exec: ExecAction | None = Field(default=None, description="Run a command.")
    tcp_socket: TcpSocketAction | None = Field(default=None, description="Open a TCP port.")
    http_get: HttpGetAction | None = Field(default=None, description="Send an HTTP GET.")
    initial_delay_seconds: int | None = Field(
        default=None, ge=0, le=INT32_MAX, description="Wait this long after the start; null: 0."
    )
    period_seconds: int | None = Field(
        default=None, ge=1, le=INT32_MAX, description="Probe every this many seconds; null: 10."
    )
    timeout_seconds: int | None = Field(
        default=None,
        ge=1,
        le=INT32_MAX,
        description="Give up on one probe after this long; null: 1.",
    )
    success_threshold: int | None = Field(
        default=None, ge=1, le=INT32_MAX, description="Successes in a row that count; null: 1."
    )
    failure_threshold: int | None = Field(
        default=None, ge=1, le=INT32_MAX, description="Failures in a row that count; null: 3."
    )

    @model_validator(mode="after")
    def _one_action(self) -> Probe:
        given = [
            name
            for name, value in zip(
                _ACTIONS, (self.exec, self.tcp_socket, self.http_get), strict=True
            )
            if value is not None
        ]
        if len(given) != 1:
            raise constraint("", given, f"exactly one of {', '.join(_ACTIONS)}")
        return self


class RoleCapabilities(StrictModel):
    """Capabilities added to this role's containers instead of the job's."""

    add: list[Capability] | None = Field(
        default=None,
        description="Capabilities to add to this role; null: security.capabilities.add.",
        examples=[["SYS_PTRACE"]],
    )


class RoleSecurity(StrictModel):
    """The user, group and capabilities of one role's pods; null keeps the job's."""

    run_as_user: int | None = Field(
        default=None,
        ge=0,
        le=INT64_MAX,
        description="User ID of the containers; null: security.runAsUser.",
    )
    run_as_group: int | None = Field(
        default=None,
        ge=0,
        le=INT64_MAX,
        description="Group ID of the containers; null: security.runAsGroup.",
    )
    run_as_non_root: bool | None = Field(
        default=None,
        description="Refuse to start a container whose user is root; null: security.runAsNonRoot.",
    )
    fs_group: int | None = Field(
        default=None,
        ge=0,
        le=INT64_MAX,
        description="Group that owns the pod's volumes; null: security.fsGroup.",
    )
    capabilities: RoleCapabilities = Field(
        default_factory=RoleCapabilities, description="Capabilities of this role."
    )
