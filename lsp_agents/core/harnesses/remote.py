"""Fetching remote instruction URLs, only ever when the user opted in (fetchRemoteInstructions)."""

from __future__ import annotations

TIMEOUT_SECONDS = 5.0  # opencode's own timeout
MAX_BYTES = 4 * 1024 * 1024


def fetch_remote(url: str) -> str | None:
    """The body of `url` as text, or None on any failure (opencode then drops the entry)."""
    import urllib.request  # here only: with http and ssl it slows every start-up

    try:
        with urllib.request.urlopen(url, timeout=TIMEOUT_SECONDS) as response:  # noqa: S310 (http/https only)
            if response.status != 200:
                return None
            body: bytes = response.read(MAX_BYTES)
            return body.decode("utf-8", errors="replace")
    except (OSError, ValueError):  # URLError is an OSError
        return None
