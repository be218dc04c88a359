"""What the server keeps per message: nothing, once the message is handled (the server lives as
long as the editor session, and an editor sends a didChange per keystroke).

The property is internal bookkeeping that no answer shows, so these tests run the real server's
stdio loop in this process, on byte streams, and look at its state when the input ends."""

from __future__ import annotations

import io
import json
from pathlib import Path

from lsp_agents.server import create_server

EDITS = 200


def framed(*messages: dict) -> bytes:
    """JSON-RPC messages as a client writes them on the server's stdin."""
    out = b""
    for message in messages:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        out += b"Content-Length: %d\r\n\r\n" % len(body) + body
    return out


def test_handled_notifications_leave_no_future_behind(tmp_path: Path) -> None:
    """pygls files the future of a notification's handler under a fresh id that nothing removes."""
    uri = (tmp_path / "AGENTS.md").as_uri()
    edits = [
        {
            "method": "textDocument/didChange",
            "params": {
                "textDocument": {"uri": uri, "version": version},
                "contentChanges": [
                    {
                        "range": {"start": {"line": 1, "character": 0}, "end": {"line": 1, "character": 0}},
                        "text": "x" if version % 2 else "",
                    }
                ],
            },
        }
        for version in range(2, EDITS + 2)
    ]
    stdin = framed(
        {"id": 1, "method": "initialize", "params": {"capabilities": {}}},
        {
            "method": "textDocument/didOpen",
            "params": {"textDocument": {"uri": uri, "languageId": "markdown", "version": 1, "text": "# Rules\n\n- one\n"}},
        },
        *edits,
        {"id": 2, "method": "textDocument/documentSymbol", "params": {"textDocument": {"uri": uri}}},
        {"method": "textDocument/didClose", "params": {"textDocument": {"uri": uri}}},
    )
    server, stdout = create_server(), io.BytesIO()
    server.start_io(io.BytesIO(stdin), stdout)
    assert b'"id": 2' in stdout.getvalue()  # every message was read and handled
    assert server.protocol._request_futures == {}
