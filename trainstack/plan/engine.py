"""Run the Pulumi program under the SDK's mock engine and record every registration.

The mocks play the engine of a ``pulumi preview``: inputs are known, and what the
cloud computes at creation (IDs, file systems' mount target domains...) stays unknown.
Running a program under mocks and resetting the SDK between runs takes its internals (no
public API does it): ``tests/plan/test_sdk_canaries.py`` names each one a release changes.
"""

from __future__ import annotations

import contextlib
import logging
import os
import runpy
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pulumi
from google.protobuf import json_format
from pulumi.runtime import mocks, rpc, settings, stack, sync_await
from pulumi.runtime.config import set_all_config

from trainstack.config.clusters.registry import offline_invokes
from trainstack.core.errors import PlanError
from trainstack.plan.event_loops import enter_worker_loop, report_each_failure_once
from trainstack.plan.files import STACK_TYPE
from trainstack.plan.masking import Masker
from trainstack.plan.model import PlannedResource
from trainstack.plan.monitor_states import GET_RESOURCE, get_packed, pack_state

# Invokes the program makes, answered offline with placeholders instead of cloud calls
# (each kind of cluster declares those of its components).
_INVOKE_RESULTS = offline_invokes()


# The program's own log lines (warnings it also reports to `pulumi up`) are not printed
# by the plan: the plan reports the same findings itself, once, in its summary.
_QUIET = logging.getLogger("trainstack.plan.program")
_QUIET.addHandler(logging.NullHandler())
_QUIET.propagate = False


STACK_REFERENCE = "pulumi:pulumi:StackReference"


class _PreviewMocks(pulumi.runtime.Mocks):
    """Resources echo their inputs (as a preview does); their IDs are unknown.

    A StackReference is answered with the outputs of the referenced stack's own offline
    plan (``stack_outputs``, by stack name): values that stack computes in the cloud
    arrive as ``[computed]``, exactly as a plan shows them.
    """

    def __init__(self, stack_outputs: dict[str, dict[str, Any]]) -> None:
        super().__init__()
        self._stack_outputs = stack_outputs

    def new_resource(
        self, args: pulumi.runtime.MockResourceArgs
    ) -> tuple[str | None, dict[str, Any]]:
        if args.typ == STACK_REFERENCE:
            name = str(args.inputs.get("name") or args.resource_id or "")
            outputs = self._stack_outputs.get(name.rsplit("/", 1)[-1])
            if outputs is None:
                raise PlanError(f"stack reference {name!r}: that stack was not planned first")
            return name, {"name": name, "outputs": dict(outputs), "secretOutputNames": []}
        return "", dict(args.inputs)

    def call(
        self, args: pulumi.runtime.MockCallArgs
    ) -> tuple[dict[str, Any], list[tuple[str, str]] | None]:
        return dict(_INVOKE_RESULTS.get(args.token, {})), []


class _EngineMonitor(mocks.MockMonitor):
    """The SDK's mock monitor, keeping the stack's outputs (masked) for StackReferences.

    Its gRPC methods are untyped in the SDK: the calls to them ignore ``no-untyped-call``.
    """

    def __init__(self, digest_key: bytes | None, stack_outputs: dict[str, dict[str, Any]]) -> None:
        super().__init__(_PreviewMocks(stack_outputs))
        self.recorded: list[PlannedResource] = []
        self.outputs: dict[str, Any] = {}
        self._digest_key = digest_key

    def RegisterResource(self, request: Any) -> Any:  # noqa: N802 (gRPC method name)
        enter_worker_loop()
        response = super().RegisterResource(request)  # type: ignore[no-untyped-call]
        pack_state(self.resources, response)
        return response

    def ReadResource(self, request: Any) -> Any:  # noqa: N802 (gRPC method name)
        enter_worker_loop()
        return super().ReadResource(request)  # type: ignore[no-untyped-call]

    def Invoke(self, request: Any) -> Any:  # noqa: N802 (gRPC method name)
        answer = get_packed(self.resources, request) if request.tok == GET_RESOURCE else None
        if answer is not None:
            return answer
        enter_worker_loop()
        return super().Invoke(request)  # type: ignore[no-untyped-call]

    def RegisterResourceOutputs(self, request: Any) -> Any:  # noqa: N802 (gRPC method name)
        if request.urn.endswith(f"::{STACK_TYPE}::" + request.urn.split("::")[-1]):
            outputs = rpc.deserialize_properties(request.outputs, keep_unknowns=True)
            self.outputs = Masker(self._digest_key).mask(outputs)
        return super().RegisterResourceOutputs(request)  # type: ignore[no-untyped-call]


class _RecordingMonitor(_EngineMonitor):
    """The engine's monitor that also keeps each registration as the program sent it."""

    def RegisterResource(self, request: Any) -> Any:  # noqa: N802 (gRPC method name)
        self._record(request, _inputs(request.object), resource_options(request))
        return super().RegisterResource(request)

    def ReadResource(self, request: Any) -> Any:  # noqa: N802 (gRPC method name)
        # A read (e.g. a StackReference) changes nothing, but a reviewer sees what it reads.
        inputs = rpc.deserialize_properties(request.properties, keep_unknowns=True)
        options = {"read": True, "provider": _provider_urn(request.provider)}
        self._record(request, inputs, options)
        return super().ReadResource(request)

    def _record(self, request: Any, inputs: Any, options: dict[str, Any]) -> None:
        masker = Masker(self._digest_key)
        self.recorded.append(
            PlannedResource(
                urn=self.make_urn(request.parent, request.type, request.name),
                type=request.type,
                name=request.name,
                parent=request.parent,
                inputs=masker.mask(inputs),
                secret_digests=masker.digests,
                options=options,
            )
        )


def resource_options(request: Any) -> dict[str, Any]:
    """The resource options of a registration, as the engine would apply them.

    ``dependsOn`` lists the explicit dependencies only: the request's dependencies less
    those that come from inputs (the engine orders by both). ``customTimeouts`` appears
    only on resources that set one.
    """
    implicit = {urn for deps in request.propertyDependencies.values() for urn in deps.urns}
    options: dict[str, Any] = {
        "protect": bool(request.protect),
        "retainOnDelete": bool(request.retainOnDelete),
        "deleteBeforeReplace": bool(request.deleteBeforeReplace),
        "dependsOn": sorted(set(request.dependencies) - implicit),
        "provider": _provider_urn(request.provider),
        "replaceOnChanges": sorted(request.replaceOnChanges),
        "ignoreChanges": sorted(request.ignoreChanges),
    }
    # customTimeouts only where a resource sets them (how long `pulumi up` awaits it).
    timeouts = request.customTimeouts
    set_timeouts = {
        key: getattr(timeouts, key)
        for key in ("create", "update", "delete")
        if getattr(timeouts, key, "")
    }
    if set_timeouts:
        options["customTimeouts"] = set_timeouts
    return options


def _provider_urn(reference: str) -> str | None:
    """The provider's URN from a ``<urn>::<id>`` reference (its ID is unknown in a preview)."""
    return reference.rsplit("::", 1)[0] if reference else None


@dataclass(frozen=True)
class ProgramRun:
    """What the program registered, sorted by URN, and the stack's outputs (masked)."""

    resources: list[PlannedResource]
    outputs: dict[str, Any]


def _inputs(struct: Any) -> dict[str, Any]:
    """A registration's inputs, as the engine receives them.

    Not ``rpc.deserialize_properties``: it drops nulls at every depth, while the engine
    passes nested nulls on (a chart value set to null is how Helm deletes a default). An
    unset input (a null at the top level) is left out, as Pulumi treats it.
    """
    decoded = json_format.MessageToDict(struct)
    return {key: value for key, value in decoded.items() if value is not None}


def run_program(
    program: Path,
    project: str,
    stack_name: str,
    config: dict[str, str],
    secret_keys: set[str],
    digest_key: bytes | None = None,
    stack_outputs: dict[str, dict[str, Any]] | None = None,
    preview: bool = True,
    record: bool = True,
) -> ProgramRun:
    """Run ``program`` for ``stack_name`` with ``config``; return what it registered.

    ``stack_outputs``: the outputs of the stacks the program reads through
    StackReferences, by stack name (their own offline plans). ``preview``: the engine
    plays ``pulumi preview`` (outputs the cloud computes stay unknown), else ``pulumi up``
    (they resolve, so what waits for them runs: tests of the deployment path use it).
    ``record``: keep every registration (else only the outputs: the engine's own cost,
    which the plan benchmark compares the plan with).
    """
    monitor = (_RecordingMonitor if record else _EngineMonitor)(digest_key, stack_outputs or {})
    _reset_runtime()
    set_all_config(dict(config), sorted(secret_keys))
    pulumi.runtime.set_mocks(
        monitor.mocks,
        project=project,
        stack=stack_name,
        preview=preview,
        monitor=monitor,
        # What `pulumi login --local` (and a personal Pulumi Cloud account) calls it.
        organization="organization",
        logger=_QUIET,
    )

    def run() -> None:
        runpy.run_path(str(program), run_name="__main__")
        # `pulumi up` registers the stack's outputs after the program; under the mocks the
        # root stack registered its (empty) outputs when it was made, so the plan
        # registers the exports again (they reach RegisterResourceOutputs as in a real run).
        root = settings.get_root_resource()
        if isinstance(root, pulumi.ComponentResource):
            root.register_outputs(dict(getattr(root, "outputs", {}) or {}))

    report_each_failure_once()
    with _inside(program.parent):
        sync_await._sync_await(stack.run_pulumi_func(run))
    resources = sorted(monitor.recorded, key=lambda resource: resource.urn)
    outputs = monitor.outputs
    # The plan keeps only what was recorded: the SDK's own copies (every resource object
    # reachable from the root stack, the mock monitor's state per registration) would
    # otherwise stay alive beside it until the next run, about a third of a plan's memory.
    monitor.resources.clear()
    monitor.recorded = []
    _reset_runtime()
    return ProgramRun(resources, outputs)


def _reset_runtime() -> None:
    """Forget the previous run's stack so that several plans can run in one process."""
    settings.set_root_resource(None)  # type: ignore[arg-type]
    settings.SETTINGS.rpc_manager.clear()
    settings.SETTINGS.outputs.clear()


@contextlib.contextmanager
def _inside(project_root: Path) -> Iterator[None]:
    """Run as the Pulumi language host does: from the project root, importable from there."""
    previous_cwd = Path.cwd()
    root = str(project_root)
    sys.path.insert(0, root)
    os.chdir(project_root)
    try:
        yield
    finally:
        os.chdir(previous_cwd)
        with contextlib.suppress(ValueError):
            sys.path.remove(root)
