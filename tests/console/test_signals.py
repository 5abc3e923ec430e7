"""Ctrl-C, SIGTERM and SIGHUP stop a command: unwinding first, the guard if that is lost.

Each case runs a small program in a process of its own (a stop ends the process it
happens in) and waits for the program to say it is ready before signalling it: no sleep
guesses when the signal lands.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.stack_helpers import REPO

_PRELUDE = """
import os, sys, time
from pathlib import Path
from trainstack.console import signals
marker = Path(sys.argv[1])
def ready():
    sys.stdout.write("ready\\n"); sys.stdout.flush()
"""


def _python(code: str, *args: str, cwd: Path | None = None) -> subprocess.Popen[str]:
    """``python -c code args`` with the repository importable, its output piped."""
    return subprocess.Popen(
        [sys.executable, "-c", code, *args],
        cwd=cwd,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _run(tmp_path: Path, body: str, signal_number: int) -> tuple[int, str, str]:
    """Run ``body``, signal it once it printed ``ready``; (status, stderr, marker text)."""
    marker = tmp_path / "marker"
    process = _python(_PRELUDE + body, str(marker))
    assert process.stdout is not None
    assert process.stdout.readline() == "ready\n"
    process.send_signal(signal_number)
    _, stderr = process.communicate(timeout=30)
    return process.returncode, stderr, marker.read_text() if marker.exists() else ""


@pytest.mark.parametrize("number", [signal.SIGTERM, signal.SIGHUP])
def test_a_termination_signal_unwinds_the_main_thread(tmp_path: Path, number: int) -> None:
    body = """
with signals.stopping_on_signals():
    try:
        ready()
        time.sleep(30)
    except signals.Interrupted as stop:
        marker.write_text(f"unwound by {stop.signal_number}")
        signals.announce(stop.signal_number)
        os._exit(128 + stop.signal_number)
"""
    status, stderr, marker = _run(tmp_path, body, number)
    assert (status, marker) == (128 + number, f"unwound by {number}")
    assert stderr == f"error: stopped by signal {number}\n"


def test_whoever_announces_second_exits_only_after_the_line_is_written() -> None:
    """The guard and the main thread can both announce the stop and exit at once; the one
    that comes second must not end the process while the first is still writing."""
    body = """
import os, threading, time
from trainstack.console import signals
real_write = os.write
writing = threading.Event()
def slow_write(fd, data):
    writing.set()
    time.sleep(0.5)
    return real_write(fd, data)
os.write = slow_write
threading.Thread(target=signals.announce, args=(15,), daemon=True).start()
writing.wait()
signals.announce(15)
os._exit(143)
"""
    ended = subprocess.run(
        [sys.executable, "-c", body],
        env={**os.environ, "PYTHONPATH": str(REPO)},
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert (ended.returncode, ended.stderr) == (143, "error: stopped by signal 15\n")


@pytest.mark.parametrize("number", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP])
def test_a_signal_while_the_modules_load_ends_the_process_at_once_raising_nothing(
    tmp_path: Path, number: int
) -> None:
    """Before the command runs (its imports): no exception lands in the code that runs,
    whatever catches it there; the process ends with 128+N and says why once."""
    body = """
signals.end_at_once()
try:
    ready()
    time.sleep(30)
except BaseException:
    marker.write_text("an exception was raised")
"""
    status, stderr, marker = _run(tmp_path, body, number)
    assert (status, marker) == (128 + number, "")
    expected = "" if number == signal.SIGINT else f"error: stopped by signal {number}\n"
    assert stderr == expected


@pytest.mark.parametrize("number", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP])
def test_a_lost_stop_is_ended_by_the_guard_after_its_cleanups(tmp_path: Path, number: int) -> None:
    """The exception is swallowed (as inside an asyncio task): the guard still ends the
    process, runs what was registered with on_stop, and says why once."""
    body = """
signals.install()
with signals.on_stop(lambda: marker.write_text("cleaned up")):
    while True:
        try:
            ready()
            time.sleep(30)
        except BaseException:
            pass  # lost: the program goes on as if nothing happened
"""
    status, stderr, marker = _run(tmp_path, body, number)
    assert (status, marker) == (128 + number, "cleaned up")
    expected = "" if number == signal.SIGINT else f"error: stopped by signal {number}\n"
    assert stderr == expected


def test_what_the_main_thread_registers_while_the_guard_works_is_cleaned_up_too(
    tmp_path: Path,
) -> None:
    """The main thread goes on while the guard runs the cleanups (its stop was lost): what
    it registered after the guard's first look (a scratch directory of a diff's revision)
    is run by the guard's second pass."""
    body = """
signals.install()
def first():
    # as if the main thread registered one more meanwhile
    signals._cleanups[10**9] = lambda: marker.write_text("second pass")
with signals.on_stop(first):
    while True:
        try:
            ready()
            time.sleep(30)
        except BaseException:
            pass
"""
    status, _, marker = _run(tmp_path, body, signal.SIGTERM)
    assert (status, marker) == (128 + signal.SIGTERM, "second pass")


def test_a_cleanup_registered_after_a_stop_began_raises_the_stop(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from trainstack.console import signals

    monkeypatch.setattr(signals, "_stop", signal.SIGTERM)
    entered = []
    with pytest.raises(signals.Interrupted):
        with signals.on_stop(lambda: None):
            entered.append(True)
    assert entered == []  # the block never starts: what it made is removed on the way out
    assert signals._cleanups == {}


def test_a_stopped_program_never_commits(tmp_path: Path) -> None:
    """raise_if_stopping: work that would commit after a lost stop ends instead."""
    body = """
signals.install()
try:
    ready()
    time.sleep(30)
except BaseException:
    pass
try:
    signals.raise_if_stopping()
    marker.write_text("committed")
except signals.Interrupted:
    marker.write_text("refused")
    os._exit(3)
"""
    status, _, marker = _run(tmp_path, body, signal.SIGTERM)
    assert (status, marker) == (3, "refused")


def test_a_deferred_block_finishes_before_the_signal_is_handled(tmp_path: Path) -> None:
    """Also while other threads run (the kernel may hand the signal to any of them)."""
    body = """
import threading
for _ in range(2):
    threading.Thread(target=time.sleep, args=(30,), daemon=True).start()
steps = []
try:
    with signals.stopping_on_signals():
        with signals.deferred():
            ready()
            while not signals.signal_arrived():
                time.sleep(0.01)
            steps.append("after the signal, still inside")
        steps.append("never reached: the signal is handled when the block ends")
except signals.Interrupted:
    marker.write_text(repr(steps))
    os._exit(0)
"""
    status, _, marker = _run(tmp_path, body, signal.SIGTERM)
    assert (status, marker) == (0, repr(["after the signal, still inside"]))


def test_ctrl_c_held_by_a_deferred_block_is_a_keyboard_interrupt_after_it(
    tmp_path: Path,
) -> None:
    body = """
steps = []
try:
    with signals.deferred():
        ready()
        while not signals.signal_arrived():
            time.sleep(0.01)
        steps.append("inside")
except KeyboardInterrupt:
    marker.write_text(repr(steps))
"""
    status, _, marker = _run(tmp_path, body, signal.SIGINT)
    assert (status, marker) == (0, repr(["inside"]))


def test_the_guard_waits_for_a_deferred_block(tmp_path: Path) -> None:
    """A swap is never cut: the guard ends the process only once the block is done."""
    body = """
signals.install()
try:
    with signals.deferred():
        ready()
        while not signals.signal_arrived():
            time.sleep(0.01)
        time.sleep(signals.GRACE_SECONDS * 3)  # longer than the grace period
        marker.write_text("block done")
except BaseException:
    pass
time.sleep(30)
"""
    status, _, marker = _run(tmp_path, body, signal.SIGTERM)
    assert (status, marker) == (128 + signal.SIGTERM, "block done")


_LOADING_SLOWLY = """
import importlib.abc, runpy, sys, time

class LoadsSlowly(importlib.abc.MetaPathFinder):
    # Holds the import of the command line's modules until the test has signalled: the
    # signal lands while they load however fast they load on this machine.
    def find_spec(self, name, path, target=None):
        if name == "trainstack.cli":
            sys.stdout.write("loading\\n")
            sys.stdout.flush()
            time.sleep(30)
        return None

sys.meta_path.insert(0, LoadsSlowly())
sys.argv = ["trainstack", "operators"]
runpy.run_module("trainstack", run_name="__main__")
"""


def test_ctrl_c_while_the_command_line_loads_ends_quietly(tmp_path: Path) -> None:
    """``python -m trainstack`` imports its command line after setting the signals: a
    Ctrl-C while that import is under way ends the process with 130, no traceback."""
    process = _python(_LOADING_SLOWLY, cwd=tmp_path)
    assert process.stdout is not None
    assert process.stdout.readline() == "loading\n"
    process.send_signal(signal.SIGINT)
    _, stderr = process.communicate(timeout=30)
    assert process.returncode == 130
    assert "Traceback" not in stderr
    assert "KeyboardInterrupt" not in stderr


_AROUND_THE_COMMAND = """
import runpy, sys, time
import trainstack.cli as cli
def waits(*args):
    sys.stderr.write("ready\\n"); sys.stderr.flush()
    time.sleep(30)
setattr(cli, sys.argv[1], waits)
sys.argv = ["trainstack", "operators"]
runpy.run_module("trainstack", run_name="__main__")
"""


@pytest.mark.parametrize("number", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP])
@pytest.mark.parametrize("step", ["tune_garbage_collector", "exit_at_once"])
def test_a_signal_just_before_or_after_the_command_ends_the_process_without_a_traceback(
    tmp_path: Path, number: int, step: str
) -> None:
    """The executable sets the handlers that unwind a command a moment before the command's
    own handling begins (the garbage collector's tuning), and they stay set after it ends
    (the exit): a stop there raised out of the executable, a traceback and status 1 (a
    plan stopped at a random moment, tests/hostile/test_signals.py, showed it under
    load). It ends the process as during the imports: 128+N, the line once, and what the
    command printed is kept."""
    process = _python(_AROUND_THE_COMMAND, step, cwd=tmp_path)
    assert process.stderr is not None
    assert process.stderr.readline() == "ready\n"
    process.send_signal(number)
    stdout, stderr = process.communicate(timeout=30)
    assert process.returncode == 128 + number, stderr
    assert stderr == ("" if number == signal.SIGINT else f"error: stopped by signal {number}\n")
    assert bool(stdout) == (step == "exit_at_once"), stdout  # the command ran only then


@pytest.mark.parametrize("number", [signal.SIGHUP, signal.SIGTERM, signal.SIGINT])
def test_a_scratch_directory_is_gone_when_a_signal_lands_while_it_is_removed(
    tmp_path: Path, number: int
) -> None:
    """The race a diff lost in a few of dozens of trials: the stop's exception cut the
    removal short, after the guard had forgotten the directory. The signal lands in the
    middle of the removal here (a slowed ``rmtree``), every time."""
    body = """
import shutil
real = shutil.rmtree
def slowed(path, *args, **kwargs):
    ready()
    time.sleep(2)
    real(path, *args, **kwargs)
with signals.stopping_on_signals():
    try:
        with signals.scratch_directory("ts-scratch-") as scratch:
            marker.write_text(str(scratch))
            for n in range(50):
                (scratch / str(n)).write_text("x")
            shutil.rmtree = slowed
    except (signals.Interrupted, KeyboardInterrupt):
        os._exit(3)
    os._exit(0)
"""
    status, _, scratch = _run(tmp_path, body, number)
    assert status == 3  # the stop came after the block, not lost
    assert scratch and not Path(scratch).exists()


def test_a_signal_while_a_directory_is_made_removes_it_and_stops(tmp_path: Path) -> None:
    """Made and registered in one held step: a stop landing right after ``mkdir`` (before a
    registration that came later) left a plan's staging directory behind in CI."""
    body = """
import tempfile
def make():
    path = Path(tempfile.mkdtemp(prefix="ts-made-"))
    marker.write_text(str(path))
    ready()
    while not signals.signal_arrived():
        time.sleep(0.01)
    return path
with signals.stopping_on_signals():
    try:
        with signals.made_and_removed(make, signals._remove_tree):
            os._exit(4)  # never: the stop is raised as the making ends
    except signals.Interrupted:
        os._exit(3)
"""
    status, _, made = _run(tmp_path, body, signal.SIGHUP)
    assert status == 3
    assert made and not Path(made).exists()


def test_a_held_block_waits_while_the_guard_cleans_up(tmp_path: Path) -> None:
    """Once the guard runs the cleanups, a swap or removal of the main thread (whose stop
    was lost) must not run beside them: the block waits, and the guard ends the process."""
    body = """
signals.install()
def slow_cleanup():
    time.sleep(1)
with signals.on_stop(slow_cleanup):
    try:
        ready()
        time.sleep(30)
    except BaseException:
        pass  # the stop's exception lost on the way
    time.sleep(signals.GRACE_SECONDS * 2)  # the guard is inside slow_cleanup now
    with signals.deferred():
        marker.write_text("ran beside the guard's cleanups")
    time.sleep(30)
"""
    status, _, marker = _run(tmp_path, body, signal.SIGTERM)
    assert (status, marker) == (128 + signal.SIGTERM, "")
