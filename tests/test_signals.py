"""SIGTERM and SIGHUP unwind like Ctrl-C; deferred blocks hold them until they end."""

from __future__ import annotations

import os
import signal

import pytest

from trainstack.errors import Interrupted
from trainstack.signals import deferred, unwinding


@pytest.mark.parametrize("number", [signal.SIGTERM, signal.SIGHUP])
def test_a_termination_signal_raises_interrupted(number: int) -> None:
    before = signal.getsignal(number)
    with pytest.raises(Interrupted, match=f"interrupted by signal {number}"):
        with unwinding():
            os.kill(os.getpid(), number)  # handled at the next bytecode
    assert signal.getsignal(number) == before


def test_a_deferred_block_finishes_before_the_signal_is_handled() -> None:
    steps: list[str] = []
    with pytest.raises(Interrupted):
        with unwinding():
            with deferred():
                os.kill(os.getpid(), signal.SIGTERM)
                steps.append("after the signal, still inside")
            steps.append("never reached: the signal is handled when the block ends")
    assert steps == ["after the signal, still inside"]
