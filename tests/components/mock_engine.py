"""One component built from minimal arguments under the SDK's mocks, pulumi-eks style.

A test says what the engine would answer (invokes by token, the outputs of the stacks a
StackReference reads, the stack's Pulumi config and which of its keys are secret), builds
one component with :func:`build`, and asserts on what it registered, which invokes it made
and the values of its outputs (:func:`value`). No stack file, example stack or plan is
involved, so editing an example stack never breaks these tests.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

import pulumi
import pulumi_kubernetes as k8s
from pulumi.runtime.mocks import MockMonitor

T = TypeVar("T")
STACK_REFERENCE = "pulumi:pulumi:StackReference"
# How the engine's wire format marks a secret value: a signature key and the secret's
# signature, the same constants in every Pulumi SDK and provider (the property-value
# protocol), so they are written here rather than read from the SDK's private names.
_SIGNATURE_KEY = "4dabf18193072939515e22adb298388d"
_SECRET_SIGNATURE = "1b47061264138c4ac30d75fd1eb44270"


def secret(value: Any) -> dict[str, Any]:
    """An input as a registration carries a secret (it stays one on its way to the engine)."""
    return {_SIGNATURE_KEY: _SECRET_SIGNATURE, "value": value}


@dataclass(frozen=True)
class Registration:
    """One resource as the component registered it."""

    type: str
    name: str
    urn: str
    parent: str
    """The parent's URN ("" for none)."""
    inputs: dict[str, Any]
    protect: bool = False
    retain_on_delete: bool = False
    depends_on: tuple[str, ...] = ()
    """The URNs of the explicit dependencies and those of its inputs, as the engine gets them."""
    provider: str = ""
    """The provider reference (``<urn>::<id>``; empty: the default provider)."""
    aliases: tuple[str, ...] = ()


@dataclass
class Registered:
    """Everything one :func:`build` registered, in order, and the invokes it made."""

    resources: list[Registration] = field(default_factory=list)
    calls: list[str] = field(default_factory=list)
    """The token of each invoke made, in order (answered or not)."""

    def of_type(self, type_token: str) -> list[Registration]:
        """The resources of one type, in the order they were registered."""
        return [r for r in self.resources if r.type == type_token]

    def one(self, type_token: str) -> Registration:
        """The only resource of ``type_token`` (an assertion error if not exactly one)."""
        (found,) = self.of_type(type_token)
        return found

    def named(self, name: str) -> Registration:
        """The resource named ``name``."""
        (found,) = [r for r in self.resources if r.name == name]
        return found

    def children(self, parent: Registration) -> list[Registration]:
        """The resources whose parent is ``parent``."""
        return [r for r in self.resources if r.parent == parent.urn]


class _Mocks(pulumi.runtime.Mocks):
    """Resources echo their inputs (IDs ``<name>-id``); invokes and stack references are
    answered from what the test gave, and anything else asked of the engine fails loudly."""

    def __init__(
        self,
        invokes: Mapping[str, Mapping[str, Any]],
        stack_outputs: Mapping[str, dict[str, Any]],
        registered: Registered,
    ) -> None:
        super().__init__()
        self._invokes = invokes
        self._stack_outputs = stack_outputs
        self._registered = registered

    def new_resource(self, args: pulumi.runtime.MockResourceArgs) -> tuple[str | None, dict]:
        if args.typ == STACK_REFERENCE:
            name = str(args.inputs.get("name") or args.resource_id)
            if name not in self._stack_outputs:
                raise AssertionError(f"the test gave no outputs for stack reference {name!r}")
            outputs = dict(self._stack_outputs[name])
            return name, {"name": name, "outputs": outputs, "secretOutputNames": []}
        return f"{args.name}-id", dict(args.inputs)

    def call(self, args: pulumi.runtime.MockCallArgs) -> tuple[dict, list[tuple[str, str]] | None]:
        self._registered.calls.append(args.token)
        if args.token not in self._invokes:
            raise AssertionError(f"the test gave no answer for invoke {args.token}")
        return dict(self._invokes[args.token]), []


class _RecordingMonitor(MockMonitor):
    def __init__(self, mocks: _Mocks, registered: Registered) -> None:
        super().__init__(mocks)
        self._registered = registered

    def RegisterResource(self, request: Any) -> Any:  # noqa: N802 (gRPC method name)
        response = super().RegisterResource(request)
        if request.type != "pulumi:pulumi:Stack":
            urn = self.make_urn(request.parent, request.type, request.name)
            registration = self.resources.get(urn)
            self._registered.resources.append(
                Registration(
                    type=request.type,
                    name=request.name,
                    urn=urn,
                    parent=request.parent,
                    inputs=dict(registration.state) if registration else {},
                    protect=bool(request.protect),
                    retain_on_delete=bool(request.retainOnDelete),
                    depends_on=tuple(request.dependencies),
                    provider=request.provider,
                    aliases=tuple(alias.spec.name for alias in request.aliases),
                )
            )
        return response


def build(
    make: Callable[[], T],
    invokes: Mapping[str, Mapping[str, Any]] | None = None,
    stack_outputs: Mapping[str, dict[str, Any]] | None = None,
    preview: bool = True,
    config: Mapping[str, str] | None = None,
    secret_keys: tuple[str, ...] = (),
) -> tuple[T, Registered]:
    """Run ``make`` (which creates one component) under fresh mocks, with ``config`` as the
    stack's Pulumi config (``namespace:key`` to its value; the ``secret_keys`` among them read
    as secrets); wait for every registration; return what ``make`` returned and what was
    registered."""
    registered = Registered()
    mocks = _Mocks(invokes or {}, stack_outputs or {}, registered)
    # Every build starts from this config alone: none of an earlier test's is left.
    pulumi.runtime.set_all_config(dict(config or {}), list(secret_keys))
    monitor = _RecordingMonitor(mocks, registered)
    pulumi.runtime.set_mocks(mocks, project="test", stack="test", preview=preview, monitor=monitor)
    made: list[T] = []

    @pulumi.runtime.test
    def run() -> None:
        made.append(make())

    run()
    return made[0], registered


def provider() -> k8s.Provider:
    """A Kubernetes provider for the component's cluster objects (registered, never used)."""
    return k8s.Provider("cluster", kubeconfig="apiVersion: v1\nkind: Config\n")


def value(output: pulumi.Output[T]) -> T:
    """The value of a component's output (known once :func:`build` has returned)."""
    found: list[T] = []

    @pulumi.runtime.test
    def run() -> pulumi.Output[None]:
        return output.apply(found.append)

    run()
    if not found:
        raise AssertionError("the output is not known (unknown until the cloud computes it)")
    return found[0]
