"""SIGTERM and SIGHUP unwind like Ctrl-C; deferred blocks hold them until they end."""

from __future__ import annotations

import os
import signal
import threading

import pytest

from trainstack.console.signals import Interrupted, deferred, unwinding


@pytest.mark.parametrize("number", [signal.SIGTERM, signal.SIGHUP])
def test_a_termination_signal_raises_interrupted(number: int) -> None:
    before = signal.getsignal(number)
    with pytest.raises(Interrupted, match=f"interrupted by signal {number}"):
        with unwinding():
            os.kill(os.getpid(), number)  # handled at the next bytecode
    assert signal.getsignal(number) == before


@pytest.mark.parametrize("other_threads", [0, 2])
def test_a_deferred_block_finishes_before_the_signal_is_handled(other_threads: int) -> None:
    """Also while other threads run (the kernel may hand the signal to any of them)."""
    stop = threading.Event()
    for _ in range(other_threads):
        threading.Thread(target=stop.wait, daemon=True).start()
    steps: list[str] = []
    with pytest.raises(Interrupted):
        with unwinding():
            with deferred():
                os.kill(os.getpid(), signal.SIGTERM)
                steps.append("after the signal, still inside")
            steps.append("never reached: the signal is handled when the block ends")
    stop.set()
    assert steps == ["after the signal, still inside"]


def test_ctrl_c_held_by_a_deferred_block_is_a_keyboard_interrupt_after_it() -> None:
    steps: list[str] = []
    with pytest.raises(KeyboardInterrupt):
        with deferred():
            os.kill(os.getpid(), signal.SIGINT)
            steps.append("inside")
    assert steps == ["inside"]
