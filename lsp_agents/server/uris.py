"""`file:` URIs, as editors send them, and the local paths they name."""

from __future__ import annotations

import os
from urllib.parse import quote, unquote, urlsplit


def path_of(uri: str) -> str | None:
    """The local path of a `file:` URI, or None. Percent-escapes are decoded as bytes, so a
    file name that is not UTF-8 (`%FF`) comes back as the same name (a PEP 383 surrogate)."""
    if not isinstance(uri, str):
        return None
    try:
        parsed = urlsplit(uri)
    except ValueError:
        return None
    if parsed.scheme != "file" or parsed.netloc not in ("", "localhost") or not parsed.path.startswith("/"):
        return None
    path = unquote(parsed.path, errors="surrogateescape")
    return os.path.abspath(path) if "\0" not in path else None


def uri_of(path: str) -> str:
    """The `file:` URI of a path, percent-encoded from its bytes (a byte that is not UTF-8 is `%HH`)."""
    return "file://" + quote(os.fsencode(path))
