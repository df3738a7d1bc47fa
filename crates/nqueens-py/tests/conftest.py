import signal
import time

import pytest

import nqueens

# The Ctrl-C tests send SIGINT to this process. Python turns SIGINT into KeyboardInterrupt only
# if SIGINT was not ignored when it started, and a shell without job control starts background
# commands (`cmd &` in a script, nohup) with SIGINT ignored: install Python's usual handler, so
# the tests behave the same however the suite was started.
signal.signal(signal.SIGINT, signal.default_int_handler)


def wait_for_idle(timeout=5.0):
    """Waits until no search thread of the package is running; returns whether it happened."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if nqueens._live_searches() == 0:
            return True
        time.sleep(0.01)
    return nqueens._live_searches() == 0


@pytest.fixture
def idle():
    assert wait_for_idle(), "a search thread of an earlier test is still running"
    return wait_for_idle
