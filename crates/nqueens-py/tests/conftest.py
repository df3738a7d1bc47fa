import signal
import threading
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


class CtrlC:
    """Presses Ctrl-C `after` seconds from now: a helper thread sends SIGINT to the main thread
    and records when (`sent`). Call `join()` once the interrupted call has returned."""

    def __init__(self, after):
        self.sent = None
        self._thread = threading.Thread(target=self._press, args=(after,))
        self._thread.start()

    def _press(self, after):
        time.sleep(after)
        self.sent = time.monotonic()
        signal.pthread_kill(threading.main_thread().ident, signal.SIGINT)

    def join(self):
        self._thread.join()


@pytest.fixture
def ctrl_c():
    """`ctrl_c(seconds)` presses Ctrl-C that many seconds from now (see `CtrlC`)."""
    return CtrlC
