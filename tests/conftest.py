"""Shared fixtures: the real project, its example stacks, and throw-away stack files."""

from __future__ import annotations

import logging
import os
import signal
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.experiment_helpers import Deployer, make_deployer
from tests.stack_helpers import REPO
from trainstack.core.project import Project
from trainstack.core.yaml.io import dump_yaml
from trainstack.plan import engine
from trainstack.plan.cache import CACHE_DIR_ENV
from trainstack.plan.crd_dir import crd_dir_from
from trainstack.plan.model import Plan
from trainstack.plan.runner import plan_stack

EXAMPLE_STACKS = ("imagenet", "aiacc", "baseline", "onprem")
AUTO_WORKERS_ENV = "PYTEST_XDIST_AUTO_NUM_WORKERS"


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """``-n auto`` (``make test``): one worker more than the CPUs this process may use.

    Many tests spend seconds waiting, not computing: on a server that trickles or goes
    silent, on a deadline after a signal, on a process they started. With one worker
    per CPU a CPU sits idle meanwhile; a third worker on two CPUs ran a sample of such
    modules in 63-93 s instead of 86-114 s (docs/development.md). ``$PYTEST_XDIST_AUTO_NUM_WORKERS``
    still decides when set (pytest-xdist's own hook reads it).
    """
    if os.environ.get(AUTO_WORKERS_ENV):
        return None
    return len(os.sched_getaffinity(0)) + 1


@pytest.fixture(scope="session", autouse=True)
def _plan_cache_outside_the_repository(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Diffs of the tests (and the processes they start) cache plans in a directory of the
    test session, never in the repository's build/cache."""
    os.environ[CACHE_DIR_ENV] = str(tmp_path_factory.mktemp("plan-cache"))


@pytest.fixture(scope="session", autouse=True)
def _ctrl_c_reaches_the_commands_started() -> None:
    """A suite started in the background (`make test &`, nohup, CI runners) ignores SIGINT,
    and a process inherits an ignored signal: the commands the tests start and stop with
    Ctrl-C would never see it. Python's own handler is not inherited (exec resets it to the
    default), so installing it gives them the Ctrl-C of an interactive terminal."""
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


# What Python's default warning filters leave out of a process's stderr.
_NOT_SHOWN_BY_DEFAULT = (
    DeprecationWarning,
    PendingDeprecationWarning,
    ImportWarning,
    ResourceWarning,
)


@pytest.fixture()
def stderr_as_a_process_has_it(
    caplog: pytest.LogCaptureFixture, recwarn: pytest.WarningsRecorder
) -> Iterator[None]:
    """For tests that run a command in this process where a process of its own used to
    run it, and check its stderr whole (one line, no secret, no raw control character):
    the warnings and log records a process would print there go to pytest here, so the
    test has none (Python's defaults: warnings but those filtered out, records from
    ``WARNING`` up; ``logging.lastResort`` prints those when nothing is configured)."""
    yield
    records = caplog.get_records("call")  # the call's (the fixture ends at teardown)
    assert [r.getMessage() for r in records if r.levelno >= logging.WARNING] == []
    shown = [w for w in recwarn if not issubclass(w.category, _NOT_SHOWN_BY_DEFAULT)]
    assert [
        warnings.formatwarning(w.message, w.category, w.filename, w.lineno) for w in shown
    ] == []


@pytest.fixture(scope="session")
def project() -> Project:
    """The repository's own Pulumi project."""
    return Project.load(REPO)


@pytest.fixture(scope="session")
def example_plans(project: Project) -> dict[str, Plan]:
    """The offline plans of the example stacks, computed once per test session.

    With ``TRAINSTACK_CRD_DIR`` set, each plan checks its custom resources against the CRD
    schemas of the operators the stack installs (a plan that would not conform fails).
    """
    return {
        stack: plan_stack(project, stack, crd_dir=crd_dir_from(None)) for stack in EXAMPLE_STACKS
    }


StackWriter = Callable[[dict[str, Any]], Project]


@pytest.fixture()
def write_stack(tmp_path: Path) -> StackWriter:
    """Write ``config`` as ``Pulumi.test.yaml`` in a temporary stack directory.

    The returned project runs the repository's real program with that stack file; the
    example data stack (``imagenet``) is there too, for stack-reference datasets.
    """

    def write(config: dict[str, Any]) -> Project:
        (tmp_path / "Pulumi.test.yaml").write_text(dump_yaml({"config": config}))
        data_stack = tmp_path / "Pulumi.imagenet.yaml"
        if not data_stack.exists():
            data_stack.write_text((REPO / "stacks" / "Pulumi.imagenet.yaml").read_text())
        return Project(root=REPO, name="trainstack", stack_config_dir=tmp_path)

    return write


@pytest.fixture()
def deploy(tmp_path: Path) -> Deployer:
    """Resolve and check experiment files written into a temporary project."""
    return make_deployer(tmp_path)


@pytest.fixture()
def dependencies(monkeypatch: pytest.MonkeyPatch) -> dict[str, list[str]]:
    """URN -> the URNs it waits for, as the program registers them."""
    recorded: dict[str, list[str]] = {}
    monitor_class = engine._RecordingMonitor

    class Recording(monitor_class):  # type: ignore[misc, valid-type]
        def RegisterResource(self, request: Any) -> Any:  # noqa: N802 (gRPC method name)
            urn = self.make_urn(request.parent, request.type, request.name)
            recorded[urn] = list(request.dependencies)
            return super().RegisterResource(request)

    monkeypatch.setattr(engine, "_RecordingMonitor", Recording)
    return recorded
