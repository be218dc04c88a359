"""TOML text parsed safely: every caller treats a parser that gives up the same way.

tomllib raises TOMLDecodeError on malformed text and RecursionError on arrays or tables nested
thousands deep (workspace text is untrusted: a `.codex/agents/*.toml` or a command file can be
either); both are one `InvalidToml` here, so no caller can forget the second.
"""

from __future__ import annotations

import tomllib
from typing import Any


class InvalidToml(ValueError):
    """Text the TOML parser rejects; `str()` says why (the parser's message names the line)."""


def parse_toml(text: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise InvalidToml(str(exc)) from None
    except RecursionError:
        raise InvalidToml("nested too deeply to parse") from None
