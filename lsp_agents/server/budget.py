"""Every request answered, and soon: `guarded` wraps each handler so that a failure or a
computation past its budget answers a default instead; `RequestBudget` says how long the next
request may compute."""

from __future__ import annotations

import asyncio
import functools
import logging
import os
import time
from collections.abc import Callable, Iterable
from typing import Any, Protocol, TypeVar

from lsp_agents.core.timelimit import TimeLimitExceeded, call_within
from lsp_agents.server.folder import Folder
from lsp_agents.server.uris import path_of

# A request computes at most this long (wall time, shared with a running analysis thread), so
# every request is answered within a second whatever the workspace holds.
REQUEST_SECONDS = 0.5
MIN_REQUEST_SECONDS = 0.05  # what a request gets at the end of a long run of requests back to back
BURST_GAP_SECONDS = 0.005  # a request starting this soon after the last one ended continues its run
# Names of requests (`lspAgents.cascade`, `hover`…), comma-separated, whose first call is answered
# as if its budget had run out: how tests check that an editor recovers from a budget miss.
MISS_BUDGET_VARIABLE = "LSP_AGENTS_MISS_BUDGET"
log = logging.getLogger(__name__)
Handler = TypeVar("Handler", bound=Callable[..., Any])  # any handler pygls calls: `guarded` keeps its signature


class Answering(Protocol):
    """What `guarded` needs of the server a handler answers for."""

    @property
    def request_budget(self) -> RequestBudget: ...

    def folder_for(self, path: str) -> Folder | None: ...


def request_subject(ls: Answering, args: tuple[object, ...]) -> str:
    """The file a request is about, as the log names it: the document of a feature's params or
    the `uri` of a command's argument, relative to its workspace folder."""
    for arg in args:
        document = getattr(arg, "text_document", None)
        uri = getattr(document, "uri", None) if document is not None else arg.get("uri") if isinstance(arg, dict) else None
        path = path_of(uri) if isinstance(uri, str) else None
        if path is not None:
            folder = ls.folder_for(path)
            return os.path.relpath(path, folder.root) if folder is not None else path
    return "no file"


def guarded(default: object = None) -> Callable[[Handler], Handler]:
    """A failing feature logs (stderr and window/logMessage) and answers `default`, so one bad
    request or unreadable file never takes the server down or leaves the editor without a reply.

    A synchronous handler (every request but the long-running commands) computes for at most
    REQUEST_SECONDS; past that it answers `default` too. Asynchronous handlers only wait on work
    that runs elsewhere and is bounded there."""

    def decorate(handler: Handler) -> Handler:
        if asyncio.iscoroutinefunction(handler):

            @functools.wraps(handler)
            async def run_async(ls: Answering, *args: object) -> object:
                try:
                    return await handler(ls, *args)
                except Exception:
                    log.exception("%s failed", handler.__name__)
                    return default

            return run_async  # type: ignore[return-value]  # functools.wraps: it stands for the handler

        @functools.wraps(handler)
        def run(ls: Answering, *args: object) -> object:
            seconds = ls.request_budget.start()
            try:
                if ls.request_budget.forced_miss(handler.__name__):
                    raise TimeLimitExceeded(f"forced by {MISS_BUDGET_VARIABLE}")
                return call_within(seconds, lambda: handler(ls, *args))
            except TimeLimitExceeded:
                log.warning(
                    "%s for %s: not computed within %.0f ms; answered without it",
                    handler.__name__,
                    request_subject(ls, args),
                    seconds * 1000,
                )
                return default
            except Exception:
                log.exception("%s failed", handler.__name__)
                return default
            finally:
                ls.request_budget.end()

        return run  # type: ignore[return-value]  # functools.wraps: it stands for the handler

    return decorate


class RequestBudget:
    """How long the next synchronous request may compute: REQUEST_SECONDS, less what the requests
    handled back to back before it took (never under MIN_REQUEST_SECONDS). Requests run one at a
    time on the event loop, so a batch of heavy ones would otherwise wait half a second each:
    this way the last of them is answered about a second after the first arrived."""

    def __init__(self, forced_misses: Iterable[str] = ()) -> None:
        self._run_start = 0.0
        self._last_end = float("-inf")
        self._forced_misses = set(forced_misses)

    def forced_miss(self, request: str) -> bool:
        """Whether `request` is to miss its budget now: once, if MISS_BUDGET_VARIABLE names it."""
        if request not in self._forced_misses:
            return False
        self._forced_misses.discard(request)
        return True

    def start(self) -> float:
        now = time.monotonic()
        if now - self._last_end > BURST_GAP_SECONDS:
            self._run_start = now
        return max(MIN_REQUEST_SECONDS, REQUEST_SECONDS - (now - self._run_start))

    def end(self) -> None:
        self._last_end = time.monotonic()
