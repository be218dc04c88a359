"""Time limits for pure-Python work that cannot watch a clock itself.

Hostile workspace content (thousands of imports, huge chains, pathological Markdown) can make
one analysis unit or one request run for minutes, deep inside code that has no natural place to
check a deadline. `call_within` runs a function and, if it is still running when its time is up,
a watchdog thread raises `TimeLimitExceeded` inside it (CPython's asynchronous exception,
delivered between two bytecodes, so only code that changes nothing outside its own result
should be bounded this way). It works in any thread: the CLI's main thread, forked analysis
workers and the language server's worker and event-loop threads.

The time is the bounded thread's CPU time where the platform gives it (Linux): what a unit may
do does not depend on what else the machine is busy with, so the same workspace gives the same
findings on a loaded CI runner as on a quiet laptop. A call blocked without computing (a read
that never returns) is stopped after WALL_FACTOR times its limit in wall time.

A thread runs at most one bounded call at a time: a nested `call_within` runs its function
under the outer limit only.
"""

from __future__ import annotations

import ctypes
import os
import threading
import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")
_POLL_SECONDS = 0.01
_IDLE_SECONDS = 2.0  # the watchdog thread ends after this long without bounded calls
_REFIRE_SECONDS = 0.2  # raised again while the call goes on (C code in between can drop it)
WALL_FACTOR = 10.0  # wall time a call may take, in multiples of its limit, when it is CPU-timed
# A deadline reads the process's CPU time at most this often: that clock sums the time of every
# thread of the process, a call that took 0.1-0.4 ms in analysis workers (against 4 us for one
# thread's clock), asked before each of thousands of units.
_PROCESS_CLOCK_READ_SECONDS = 0.01


class TimeLimitExceeded(BaseException):
    """Raised inside a bounded call whose time is up. A BaseException, like KeyboardInterrupt, so
    that the `except Exception` of the code it interrupts does not swallow it."""


class _Limit:
    """One bounded call: its CPU clock (None where threads have none) and its two deadlines."""

    __slots__ = ("clock", "closing", "cpu_end", "wall_end")

    def __init__(self, ident: int, seconds: float) -> None:
        self.clock = _cpu_clock(ident)
        self.closing = False  # the call is over: the watchdog fires at it no more
        now = time.monotonic()
        if self.clock is None:
            self.cpu_end, self.wall_end = float("inf"), now + seconds
        else:
            self.cpu_end, self.wall_end = time.clock_gettime(self.clock) + seconds, now + seconds * WALL_FACTOR

    def passed(self, now: float) -> bool:
        return self.time_left(now) <= 0

    def time_left(self, now: float) -> float:
        """Wall seconds before the call can have passed a limit: a thread's CPU time grows no
        faster than the clock, so the watchdog may sleep that long without missing it."""
        left = self.wall_end - now
        if self.clock is not None:
            left = min(left, self.cpu_end - time.clock_gettime(self.clock))
        return left

    def refire(self, now: float) -> None:
        self.cpu_end, self.wall_end = float("inf"), now + _REFIRE_SECONDS


def _cpu_clock(ident: int) -> int | None:
    """The CPU-time clock of a thread, or None (macOS and Windows have no such clock for Python)."""
    try:
        return time.pthread_getcpuclockid(ident)
    except (AttributeError, OSError):
        return None


class _Watchdog:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._armed: dict[int, _Limit] = {}  # thread id -> its call's limit
        self._thread: threading.Thread | None = None
        self._wake = threading.Event()  # a call armed with a limit shorter than the watchdog's sleep
        self._sleeping_until = 0.0

    def reset_after_fork(self) -> None:
        """A forked child has no watchdog thread and must not inherit a lock held by it."""
        self._lock = threading.Lock()
        self._armed = {}
        self._thread = None
        self._wake = threading.Event()
        self._sleeping_until = 0.0
        # An exception fired at the parent's call just before the fork must not hit the child.
        ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(threading.get_ident()), None)

    def call(self, seconds: float, function: Callable[[], T]) -> T:
        me = threading.get_ident()
        with self._lock:
            limit = None if me in self._armed else _Limit(me, seconds)  # nested: the outer limit applies
            if limit is not None:
                self._armed[me] = limit
                if self._thread is None:
                    self._thread = threading.Thread(target=self._watch, name="lsp-agents-watchdog", daemon=True)
                    self._thread.start()
                elif self._sleeping_until > time.monotonic() + seconds:
                    self._wake.set()
        if limit is None:
            return function()
        try:
            try:
                return function()
            finally:
                self._disarm(me, limit)
        except TimeLimitExceeded:
            raise TimeLimitExceeded(f"exceeded {seconds * 1000:.0f} ms") from None

    def _disarm(self, me: int, limit: _Limit) -> None:
        """End a call's watch, whatever arrives meanwhile. The exception fired at the call can
        arrive between any two bytecodes, also here: were the call left armed, the watchdog
        would go on firing at the thread's later code. Once `closing` is set nothing more is
        fired at the call; one fired just before can still arrive, and is caught here."""
        while True:
            try:
                limit.closing = True
                with self._lock:
                    self._armed.pop(me, None)
                    # An exception fired but not yet delivered must not hit the caller's later code.
                    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(me), None)
                return
            except TimeLimitExceeded:
                continue

    def _watch(self) -> None:
        """Fire at every call past its limit. The watchdog sleeps until the first armed call can
        have passed its limit (not polling: thousands of short calls go by without waking it),
        woken early when a call is armed with a shorter one, and ends after _IDLE_SECONDS
        without calls."""
        idle_since = time.monotonic()
        while True:
            now = time.monotonic()
            with self._lock:
                if self._thread is not threading.current_thread():
                    return
                if self._armed:
                    idle_since = now
                elif now - idle_since > _IDLE_SECONDS:
                    self._thread = None
                    return
                pause = self._fire(now)
                self._sleeping_until = now + pause
            self._wake.wait(pause)
            self._wake.clear()

    def _fire(self, now: float) -> float:
        """Raise TimeLimitExceeded in every call past its limit; the time until the next can be."""
        pause = _IDLE_SECONDS
        for ident, limit in self._armed.items():
            if limit.closing:
                continue
            if limit.passed(now):
                limit.refire(now)
                ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(ident), ctypes.py_object(TimeLimitExceeded))
            pause = min(pause, limit.time_left(now))
        return max(pause, _POLL_SECONDS)


_WATCHDOG = _Watchdog()
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_WATCHDOG.reset_after_fork)


def call_within(seconds: float, function: Callable[[], T]) -> T:
    """`function()`, or TimeLimitExceeded once it has run for `seconds`."""
    return _WATCHDOG.call(seconds, function)


class Deadline:
    """A time limit on a whole piece of work (an analysis) made of bounded units, in the CPU time
    of the process doing it (its worker, in the server and in `check`): like a unit's limit, it
    does not depend on what else the machine is busy with. Work that waits without computing is
    stopped after WALL_FACTOR times the limit in wall time."""

    def __init__(self, seconds: float | None) -> None:
        self.seconds = seconds
        self.cancelled = False
        self._cpu_end = None if seconds is None else time.process_time() + seconds
        self._wall_end = None if seconds is None else time.monotonic() + seconds * WALL_FACTOR
        self._next_cpu_read = 0.0

    def cancel(self) -> None:
        """End the work now (from any thread): it is over as if the deadline had passed."""
        self.cancelled = True

    def passed(self) -> bool:
        if self.cancelled:
            return True
        if self._cpu_end is None or self._wall_end is None:
            return False
        now = time.monotonic()
        if now >= self._wall_end:
            return True
        if now < self._next_cpu_read:  # noticed at most _PROCESS_CLOCK_READ_SECONDS late
            return False
        self._next_cpu_read = now + _PROCESS_CLOCK_READ_SECONDS
        return time.process_time() >= self._cpu_end
