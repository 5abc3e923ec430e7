"""Canaries for the Pulumi SDK internals the offline plan calls (none is public API).

The plan runs the program under the SDK's mock monitor and drives its runtime by hand
(plan/engine.py, plan/masking.py, config/pulumi_config.py; tests/components/mock_engine.py
for the component tests). An SDK release may rename or reshape any of these without
notice: each test here names the one it lost, the parameters the project passes, and the
place that relies on it, instead of a plan failing somewhere inside the engine.
"""

from __future__ import annotations

import importlib
import inspect
from importlib import metadata
from typing import Any

import pytest

SDK = f"pulumi {metadata.version('pulumi')}"

FUNCTIONS: dict[str, tuple[tuple[str, ...], str]] = {
    # name: (the parameters the project passes, by name and in order; where)
    "pulumi.runtime.sync_await._sync_await": (("awaitable",), "plan/engine.py run_program"),
    "pulumi.runtime.stack.run_pulumi_func": (("func",), "plan/engine.py run_program"),
    "pulumi.runtime.sync_await._ensure_event_loop": (
        (),
        "plan/event_loops.py report_each_failure_once",
    ),
    "pulumi.runtime.settings.get_root_resource": ((), "plan/engine.py run_program"),
    "pulumi.runtime.settings.set_root_resource": (("root",), "plan/engine.py _reset_runtime"),
    "pulumi.runtime.rpc.deserialize_properties": (
        ("props_struct", "keep_unknowns"),
        "plan/engine.py _EngineMonitor, _RecordingMonitor",
    ),
    "pulumi.runtime.rpc.is_rpc_secret": (("value",), "plan/masking.py Masker"),
    "pulumi.runtime.rpc.unwrap_rpc_secret": (("value",), "plan/masking.py Masker"),
    "pulumi.runtime.config.set_all_config": (
        ("config", "secret_keys"),
        "plan/engine.py run_program",
    ),
    "pulumi.runtime.config.is_config_secret": (("k",), "config/pulumi_config.py engine_config"),
    "pulumi.runtime.config.get_config_env": ((), "config/pulumi_config.py engine_environment"),
    "pulumi.runtime.config.get_config_secret_keys_env": (
        (),
        "config/pulumi_config.py engine_environment",
    ),
    "pulumi.runtime.mocks.MockMonitor": (("mocks",), "plan/engine.py _EngineMonitor"),
    "pulumi.runtime.mocks.MockMonitor.make_urn": (
        ("self", "parent", "type_", "name"),
        "plan/engine.py _RecordingMonitor",
    ),
    "pulumi.runtime.mocks.MockMonitor.RegisterResource": (
        ("self", "request"),
        "plan/engine.py _EngineMonitor",
    ),
    "pulumi.runtime.mocks.MockMonitor.ReadResource": (
        ("self", "request"),
        "plan/engine.py _EngineMonitor",
    ),
    "pulumi.runtime.mocks.MockMonitor.Invoke": (
        ("self", "request"),
        "plan/engine.py _EngineMonitor",
    ),
    "pulumi.runtime.mocks.MockMonitor.RegisterResourceOutputs": (
        ("self", "request"),
        "plan/engine.py _EngineMonitor",
    ),
}
"""Functions and classes (a class by its constructor's parameters)."""

KEYWORDS: dict[str, tuple[set[str], str]] = {
    # name: (keyword arguments the project passes, where)
    "pulumi.runtime.set_mocks": (
        {"project", "stack", "preview", "monitor", "organization", "logger"},
        "plan/engine.py run_program",
    ),
}

VALUES: dict[str, tuple[type | None, str]] = {
    # name: (its type, or None for any; where)
    "pulumi.runtime.rpc.UNKNOWN": (str, "plan/masking.py Masker"),
    "pulumi.output.Unknown": (type, "plan/masking.py Masker"),
    "pulumi.runtime.config.CONFIG": (None, "config/pulumi_config.py engine_config"),
    "pulumi.runtime.settings.SETTINGS": (None, "plan/engine.py _reset_runtime"),
    # The monitor's registrations: its state replaced (`_replace`) by the packed answer.
    "pulumi.runtime.mocks.MockMonitor.ResourceRegistration._replace": (
        None,
        "plan/monitor_states.py pack_state",
    ),
    "pulumi.runtime.proto.resource_pb2.ResourceInvokeResponse": (
        None,
        "plan/monitor_states.py get_packed",
    ),
}


def _find(dotted: str) -> Any:
    """The object at ``dotted`` (module path, then attributes), or a failure naming it."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            found: Any = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for attribute in parts[cut:]:
            if not hasattr(found, attribute):
                pytest.fail(f"{SDK} has no {dotted} (no {attribute!r} in {found!r})")
            found = getattr(found, attribute)
        return found
    pytest.fail(f"{SDK} has no module for {dotted}")


@pytest.mark.parametrize("dotted", FUNCTIONS)
def test_the_sdk_function_takes_the_parameters_the_plan_passes(dotted: str) -> None:
    expected, where = FUNCTIONS[dotted]
    found = _find(dotted)
    assert callable(found), f"{SDK}: {dotted} is no longer callable ({where} calls it)"
    signature = inspect.signature(found)
    names = tuple(signature.parameters)[: len(expected)]
    assert names == expected, (
        f"{SDK}: {dotted}{signature} no longer starts with the parameters {expected} "
        f"that {where} passes"
    )


@pytest.mark.parametrize("dotted", KEYWORDS)
def test_the_sdk_function_takes_the_keywords_the_plan_passes(dotted: str) -> None:
    expected, where = KEYWORDS[dotted]
    signature = inspect.signature(_find(dotted))
    missing = expected - set(signature.parameters)
    assert not missing, f"{SDK}: {dotted}{signature} lacks {sorted(missing)} ({where} passes them)"


@pytest.mark.parametrize("dotted", VALUES)
def test_the_sdk_value_is_there(dotted: str) -> None:
    kind, where = VALUES[dotted]
    found = _find(dotted)
    if kind is not None:
        assert isinstance(found, kind), (
            f"{SDK}: {dotted} is a {type(found)}, {where} reads a {kind}"
        )


def test_the_runtime_settings_hold_what_a_plan_clears_between_runs() -> None:
    """``_reset_runtime`` clears the previous run's RPC manager and outputs, and
    ``config/pulumi_config.py`` reads the config ``ContextVar``; ``run_program`` empties
    the mock monitor's ``resources`` after a run."""
    from pulumi.runtime import config, mocks, settings

    for name in ("rpc_manager", "outputs"):
        held = getattr(settings.SETTINGS, name, None)
        assert callable(getattr(held, "clear", None)), (
            f"{SDK}: pulumi.runtime.settings.SETTINGS.{name}.clear() is gone "
            "(plan/engine.py _reset_runtime calls it)"
        )
    assert callable(getattr(config.CONFIG, "get", None)), (
        f"{SDK}: pulumi.runtime.config.CONFIG.get() is gone (config/pulumi_config.py reads it)"
    )

    class _NoMocks(mocks.Mocks):
        def new_resource(self, args: Any) -> tuple[str | None, dict]:
            return None, {}

        def call(self, args: Any) -> tuple[dict, list[tuple[str, str]] | None]:
            return {}, None

    monitor = mocks.MockMonitor(_NoMocks())
    for name in ("mocks", "resources"):
        assert hasattr(monitor, name), (
            f"{SDK}: a MockMonitor has no {name!r} (plan/engine.py run_program uses it)"
        )
    assert callable(getattr(monitor.resources, "clear", None)), (
        f"{SDK}: MockMonitor.resources.clear() is gone (plan/engine.py run_program calls it)"
    )
