"""The watchdog stops pure-Python work at its limit, and only there."""

from __future__ import annotations

import threading
import time
import types

import pytest

from lsp_agents.core import timelimit
from lsp_agents.core.timelimit import Deadline, TimeLimitExceeded, call_within


def spin() -> None:
    while True:
        pass


def test_a_runaway_loop_is_stopped_at_its_limit() -> None:
    with pytest.raises(TimeLimitExceeded, match="exceeded 200 ms"):
        call_within(0.2, spin)


def test_a_blocked_call_is_stopped_too() -> None:
    """A call that waits without computing uses no CPU time: the wall-time backstop ends it."""
    with pytest.raises(TimeLimitExceeded):
        call_within(0.05, lambda: [time.sleep(0.01) for _ in range(6000)])


def test_a_call_that_finishes_returns_and_leaves_nothing_pending() -> None:
    for _ in range(200):  # many short calls near no limit: no exception may leak out of one
        assert call_within(0.05, lambda: sum(range(1000))) == 499500
    time.sleep(0.1)  # a stray asynchronous exception would fire in this loop
    assert sum(1 for _ in range(100_000)) == 100_000


class _LockThatIsInterruptedOnce:
    """A lock whose first acquisition after `arm()` is hit by the limit's exception, as when the
    watchdog fires just as a call ends and the exception arrives while the call is disarmed."""

    def __init__(self, lock: threading.Lock) -> None:
        self.lock = lock
        self.armed = False

    def arm(self) -> None:
        self.armed = True

    def __enter__(self) -> None:
        self.lock.acquire()
        if self.armed and threading.current_thread() is threading.main_thread():
            self.armed = False
            self.lock.release()
            raise TimeLimitExceeded

    def __exit__(self, *exc: object) -> None:
        self.lock.release()


def test_an_exception_arriving_while_a_call_ends_leaves_nothing_armed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Were the call left armed, the watchdog would fire at whatever the thread ran next."""
    lock = _LockThatIsInterruptedOnce(threading.Lock())
    monkeypatch.setattr(timelimit._WATCHDOG, "_lock", lock)
    assert call_within(0.2, lambda: lock.arm() or "done") == "done"
    assert not timelimit._WATCHDOG._armed
    start = time.monotonic()
    while time.monotonic() - start < 0.6:  # past the limit and its refiring: nothing may arrive
        sum(range(1000))


def test_threads_are_bounded_independently() -> None:
    outcome: dict[str, object] = {}

    def worker() -> None:
        try:
            call_within(0.2, spin)
        except TimeLimitExceeded:
            outcome["worker"] = "stopped"

    thread = threading.Thread(target=worker)
    thread.start()
    outcome["main"] = call_within(5, lambda: time.sleep(0.5) or "done")
    thread.join(5)
    assert outcome == {"worker": "stopped", "main": "done"}


def test_nested_calls_run_under_the_outer_limit() -> None:
    with pytest.raises(TimeLimitExceeded):
        call_within(0.2, lambda: call_within(60, spin))


def test_an_analysis_deadline_counts_the_work_done_not_the_time_waited(monkeypatch: pytest.MonkeyPatch) -> None:
    """Waiting (a busy machine, a slow disk) does not bring the deadline nearer; computing does.
    On clocks of the test's own, so that how busy the machine is cannot decide it."""
    clock = types.SimpleNamespace(wall=1_000.0, cpu=5.0)
    monkeypatch.setattr(timelimit, "time", types.SimpleNamespace(monotonic=lambda: clock.wall, process_time=lambda: clock.cpu))
    deadline = Deadline(0.3)
    clock.wall += 0.5  # past the limit in wall time, far from it in CPU time
    assert not deadline.passed()
    clock.wall, clock.cpu = clock.wall + 1, clock.cpu + 0.25
    assert not deadline.passed()
    clock.wall, clock.cpu = clock.wall + 1, clock.cpu + 0.1  # the work done passes the limit
    assert deadline.passed()
    waiting = Deadline(0.3)
    clock.wall += 0.3 * timelimit.WALL_FACTOR  # work that never gets the CPU is still stopped in wall time
    assert waiting.passed()


def test_an_analysis_deadline_reads_the_process_clock_sparingly(monkeypatch: pytest.MonkeyPatch) -> None:
    """The process's CPU clock is a slow call (it sums every thread's time): thousands of units
    asking the deadline in a row read it a few times, not once each."""
    reads = []
    process_time = time.process_time
    monkeypatch.setattr(time, "process_time", lambda: reads.append(1) or process_time())
    deadline = Deadline(60)
    for _ in range(5_000):
        assert not deadline.passed()
    assert len(reads) < 50


def test_a_cancelled_deadline_has_passed() -> None:
    deadline = Deadline(None)
    assert not deadline.passed()
    deadline.cancel()
    assert deadline.passed()
