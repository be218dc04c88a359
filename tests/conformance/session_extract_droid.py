"""What session_extract.py keeps of a droid run beyond its listings (FINDINGS.md §11m).

- `mentions`: the two `<system-reminder>` parts droid adds to the first user message for each path
  the message sent tags with `@` ("User tagged file: …" or "User tagged directory: …", then the
  contents), joined by newlines, as lsp-agents prints its `mentions` reminder.
- `builtin_view`: the message of one of droid's built-in commands with a prompt of its own, its vendor
  text replaced by lsp-agents' placeholder (`droid_builtins.prompt`), what the CLI takes from the line
  and the workspace (the arguments, the settings file, the `origin` remote's URL) kept as sent.
"""

from __future__ import annotations

import re

from lsp_agents.core.agents.droid_builtins import prompt
from lsp_agents.core.agents.typed_commands import JS_WHITESPACE, droid_escape

TAG_PART = re.compile(r"<system-reminder>\nUser tagged (?:file|directory): ")


def mentions(body: dict) -> str | None:
    """The tagged-path parts of the first user message (each tag part and the part after it)."""
    content = body["messages"][1]["content"]
    parts = [p["text"] for p in content if p.get("type") == "text"] if isinstance(content, list) else []
    kept = [text for i, part in enumerate(parts) if TAG_PART.match(part) for text in parts[i : i + 2]]
    return "\n".join(kept) if kept else None


def builtin_view(message: str, typed: str) -> str:
    """`message` as the session extract keeps it when the line typed ran a built-in with a prompt."""
    name, _, arguments = typed.removeprefix("/").partition(" ")
    command, request = name.lower(), arguments.strip(JS_WHITESPACE)
    views = {"statusline": _statusline, "readiness-report": _readiness, "readiness-fix": _readiness}
    return views[command](message, command, request) if command in views else message


def _statusline(message: str, command: str, request: str) -> str:
    spot, escaped = prompt(command), droid_escape(request)
    head, _, closing = message.partition("\n</system-reminder>\n\n")
    settings = re.search(r"/\S*/settings\.json", head)
    kept = f"<system-reminder>\n{spot}{settings[0] if settings else ''}{spot}\n</system-reminder>\n\n"
    return kept + (f"{spot}{escaped}{spot}" if request and escaped in closing else spot)


def _readiness(message: str, command: str, request: str) -> str:
    spot, escaped = prompt(command), droid_escape(request)
    url = re.search(r"\*\*Repository(?: to evaluate)?:\*\* ([^\n]*)", message)
    head = f"{spot}{url[1] if url else ''}{spot}"
    if not request:
        return head
    if command == "readiness-report":
        return head + f"{escaped}\n</system-reminder>" if message.endswith(f"{escaped}\n</system-reminder>") else head
    return head + escaped + spot if f'"{escaped}"' in message else head
