"""The server process's memory: it lives as long as the editor session, after one large analysis."""

from __future__ import annotations

import ctypes
import gc
import sys

from lsp_agents.core.text import forget_parsed_texts

M_ARENA_MAX = -8  # glibc's mallopt parameter


def _glibc() -> ctypes.CDLL | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(None)
        return libc if hasattr(libc, "mallopt") and hasattr(libc, "malloc_trim") else None
    except OSError:
        return None


def one_malloc_arena() -> None:
    """Have glibc serve every thread from one heap. By default each thread that allocates gets
    an arena of its own; the indexing and analysis threads' arenas keep about 10 MiB the main
    heap would have reused. The threads take turns under the GIL anyway, so nothing waits."""
    libc = _glibc()
    if libc is not None:  # not glibc (musl, macOS, Windows): nothing to limit
        libc.mallopt(M_ARENA_MAX, 1)


def settle_after_analysis() -> None:
    """Drop what only the full analysis needed (the parsers' memo of every text), collect,
    and hand the freed pages back to the system."""
    forget_parsed_texts()
    gc.collect()
    libc = _glibc()
    if libc is not None:
        libc.malloc_trim(0)
