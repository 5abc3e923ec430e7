"""Run the Pulumi program under the SDK's mock engine and record every registration.

The mocks play the engine of a ``pulumi preview``: inputs are known, and what the
cloud computes at creation (IDs, NAS mount target domains...) stays unknown.
"""

from __future__ import annotations

import contextlib
import logging
import os
import runpy
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pulumi
from google.protobuf import json_format
from pulumi.runtime import mocks, settings, stack, sync_await
from pulumi.runtime.config import set_all_config

from trainstack.plan.masking import Masker
from trainstack.plan.model import PlannedResource

# Invokes the program makes, answered offline with placeholders instead of cloud calls.
_INVOKE_RESULTS: dict[str, dict[str, Any]] = {
    "alicloud:cs/getClusterCredential:getClusterCredential": {
        "kubeConfig": "[kubeconfig fetched from ACK at deploy time]",
    },
}


# The program's own log lines (warnings it also reports to `pulumi up`) are not printed
# by the plan: the plan reports the same findings itself, once, in its summary.
_QUIET = logging.getLogger("trainstack.plan.program")
_QUIET.addHandler(logging.NullHandler())
_QUIET.propagate = False


class _PreviewMocks(pulumi.runtime.Mocks):
    """Resources echo their inputs (as a preview does); their IDs are unknown."""

    def new_resource(self, args: pulumi.runtime.MockResourceArgs) -> tuple[str | None, dict]:
        return "", dict(args.inputs)

    def call(self, args: pulumi.runtime.MockCallArgs) -> tuple[dict, list[tuple[str, str]] | None]:
        return dict(_INVOKE_RESULTS.get(args.token, {})), []


class _RecordingMonitor(mocks.MockMonitor):
    """A mock monitor that keeps each registration as the program sent it."""

    def __init__(self, digest_key: bytes | None) -> None:
        super().__init__(_PreviewMocks())
        self.recorded: list[PlannedResource] = []
        self._digest_key = digest_key

    def RegisterResource(self, request: Any) -> Any:  # noqa: N802 (gRPC method name)
        inputs = _inputs(request.object)
        masker = Masker(self._digest_key)
        self.recorded.append(
            PlannedResource(
                urn=self.make_urn(request.parent, request.type, request.name),
                type=request.type,
                name=request.name,
                parent=request.parent,
                inputs=masker.mask(inputs),
                secret_digests=masker.digests,
            )
        )
        return super().RegisterResource(request)


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
    preview: bool = True,
) -> list[PlannedResource]:
    """Run ``program`` for ``stack_name`` with ``config``; return what it registered.

    ``preview``: the engine plays ``pulumi preview`` (outputs the cloud computes stay
    unknown), else ``pulumi up`` (they resolve, so what waits for them runs: tests of the
    deployment path use it).
    """
    monitor = _RecordingMonitor(digest_key)
    _reset_runtime()
    set_all_config(dict(config), sorted(secret_keys))
    pulumi.runtime.set_mocks(
        monitor.mocks,
        project=project,
        stack=stack_name,
        preview=preview,
        monitor=monitor,
        logger=_QUIET,
    )

    def run() -> None:
        runpy.run_path(str(program), run_name="__main__")

    with _inside(program.parent):
        sync_await._sync_await(stack.run_pulumi_func(run))
    return sorted(monitor.recorded, key=lambda resource: resource.urn)


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
