"""pygls' JSON-RPC protocol, made to answer every request and to fall silent at `exit`.

pygls drops a request whose params do not fit the method's type: it logs a traceback and sends
nothing, so the editor waits for an answer forever. Here such a request is answered with an
InvalidParams error, a malformed notification is ignored, and each is logged in one line.

pygls also files the future of every handler it runs (builtin document handlers, coroutines) under
its message id, and only a request's answer takes it out again: each notification, under a fresh
id, stayed for the whole session (2 KiB a keystroke). Here every future leaves once it is done.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any

from lsprotocol.types import ResponseError
from pygls.protocol import JsonRPCNotification, JsonRPCRequestMessage, LanguageServerProtocol

log = logging.getLogger(__name__)
INVALID_PARAMS = -32602


@dataclass(frozen=True, slots=True)
class Malformed:
    """A request (`id` set) or notification whose params do not fit its method."""

    id: Any
    method: str
    problem: str


def _summary(exc: BaseException) -> str:
    """The first line of a structuring error (cattrs nests the details)."""
    text = str(exc).strip().splitlines()
    return text[0][:200] if text else type(exc).__name__


def _nothing() -> None:
    pass


class AgentsProtocol(LanguageServerProtocol):
    exited = False  # the client sent `exit`: its end of the pipe is gone
    # What `exit` starts before pygls ends the session: the server ends its work there if
    # `shutdown` did not (the server sets it; the protocol does not know the server's type).
    on_exit: Callable[[], None] = staticmethod(_nothing)

    def _send_data(self, data: Any) -> None:
        """Nothing after `exit`. Work still winding down then (an analysis thread's last
        progress report, a cancelled task's cleanup) would write to a closed stream, and each
        failure would log a traceback chained to all the previous ones."""
        if not self.exited:
            super()._send_data(data)

    def _execute_handler(
        self,
        msg_id: str | int,
        handler: Callable[..., Any],
        callback: Callable[[Future[Any]], None],
        args: tuple[Any, ...] | None = None,
        kwargs: dict[str, Any] | None = None,
    ) -> None:
        """pygls' own, with the handler's future forgotten once done (a request's answer would
        forget it too, a notification's nothing would). A cancelled one is left alone: a cancel
        notification took it out already, and `shutdown` cancels them while it walks them all."""

        def forget_then(future: Future[Any]) -> None:
            if not future.cancelled() and self._request_futures.get(msg_id) is future:
                del self._request_futures[msg_id]
            callback(future)

        super()._execute_handler(msg_id, handler, forget_then, args, kwargs)

    def structure_message(self, data: Any) -> Any:
        # Called as json's object_hook, for every object of a message: only whole messages
        # (requests and notifications from the client) are structured here.
        if not isinstance(data, dict) or "jsonrpc" not in data or "method" not in data or "error" in data:
            return super().structure_message(data)
        method = data["method"] if isinstance(data["method"], str) else repr(data["method"])
        default = JsonRPCRequestMessage if "id" in data else JsonRPCNotification
        try:
            return self._converter.structure(data, self.get_message_type(method) or default)
        except Exception as exc:  # noqa: BLE001 - any failure to read the client's message is answered as malformed
            return Malformed(data.get("id"), method, _summary(exc))

    def handle_message(self, message: Any) -> None:
        if not isinstance(message, Malformed):
            if getattr(message, "method", None) == "exit":
                self.exited = True
                self.on_exit()
            super().handle_message(message)
            return
        if message.id is None:
            log.warning("ignored a malformed %s notification: %s", message.method, message.problem)
            return
        log.warning("answered a malformed %s request with an error: %s", message.method, message.problem)
        error = ResponseError(code=INVALID_PARAMS, message=f"invalid params for {message.method}: {message.problem}")
        self._send_response(message.id, error=error)
