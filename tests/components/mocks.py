"""One component built alone under Pulumi's mocks, as pulumi-eks tests its node groups:
minimal arguments, the answers to the invokes it makes set by each test, and assertions
on what it registered (no stack file, no whole program)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

import pulumi
from pulumi.runtime import mocks, rpc, settings
from pulumi.runtime.config import set_all_config
from pulumi.runtime.stack import run_pulumi_func
from pulumi.runtime.sync_await import _sync_await

Made = TypeVar("Made")


def secret(value: Any) -> dict[str, Any]:
    """An input as a registration carries a secret (it stays one)."""
    return {rpc._special_sig_key: rpc._special_secret_sig, "value": value}


@dataclass(frozen=True)
class Registered:
    """One registration: its URN (parents' types in it), type, name and inputs."""

    urn: str
    type: str
    name: str
    inputs: dict[str, Any]


class Recorder(pulumi.runtime.Mocks):
    """Echoes inputs as outputs (IDs ``<name>-id``) and answers only the invokes it was given:
    one it was not is an error naming it."""

    def __init__(self, invokes: Mapping[str, Mapping[str, Any]]) -> None:
        self.invokes = invokes
        self.calls: list[str] = []

    def new_resource(self, args: pulumi.runtime.MockResourceArgs) -> tuple[str, dict]:
        return f"{args.name}-id", dict(args.inputs)

    def call(self, args: pulumi.runtime.MockCallArgs) -> tuple[dict, list[tuple[str, str]]]:
        self.calls.append(args.token)
        if args.token not in self.invokes:
            raise AssertionError(f"unexpected invoke {args.token}: give the test its answer")
        return dict(self.invokes[args.token]), []


@dataclass(frozen=True)
class Built:
    """What :func:`build` made, what registered (by URN: registration order varies with the
    SDK's threads), and which invokes were made."""

    made: Any
    registered: tuple[Registered, ...]
    calls: tuple[str, ...]

    def of_type(self, type_token: str) -> list[Registered]:
        """The registrations of ``type_token``, in order."""
        return [r for r in self.registered if r.type == type_token]

    def value(self, output: pulumi.Output[Made]) -> Made:
        """The resolved value of one of the made component's outputs."""
        return _sync_await(output.future())  # type: ignore[return-value]


def build(
    make: Callable[[], Any],
    invokes: Mapping[str, Mapping[str, Any]] | None = None,
    config: Mapping[str, str] | None = None,
    secret_keys: tuple[str, ...] = (),
) -> Built:
    """Run ``make`` (it creates the component) as ``pulumi up`` would, under mocks."""
    recorder = Recorder(invokes or {})
    monitor = mocks.MockMonitor(recorder)
    settings.set_root_resource(None)  # type: ignore[arg-type]
    settings.SETTINGS.rpc_manager.clear()
    settings.SETTINGS.outputs.clear()
    set_all_config(dict(config or {}), list(secret_keys))
    pulumi.runtime.set_mocks(
        recorder, project="trainstack", stack="test", preview=False, monitor=monitor
    )
    made: list[Any] = []
    _sync_await(run_pulumi_func(lambda: made.append(make())))
    registered = tuple(
        Registered(urn, urn.split("::")[-2].split("$")[-1], urn.split("::")[-1], dict(r.state))
        for urn, r in sorted(monitor.resources.items())
    )
    return Built(made[0], registered, tuple(recorder.calls))
