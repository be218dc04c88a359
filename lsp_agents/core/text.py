"""Text rules the harnesses' own languages apply (Rust's and JavaScript's trim, token estimates),
and the memo of text parsers."""

from __future__ import annotations

import functools
import math
import os
from collections.abc import Callable
from typing import TypeVar

F = TypeVar("F", bound=Callable[..., object])
_TEXT_CACHES: list[functools._lru_cache_wrapper[object]] = []
_replaced_bytes = 0  # of texts replaced since the memo last started over


# Texts each parser remembers: more than the instruction and rule files of a very large workspace.
# Each harness reads every rule file on every cascade query, so a cache smaller than the number of
# rule files evicts each text before it is read again and parses them all every time (10,000 rule
# files: 20,000 YAML parses for one `cascade`, instead of 10,000 once).
MEMOIZED_TEXTS = 65_536
# The memo is keyed by text, so in a long-lived process it would keep every version of a file
# being edited (each keystroke a new text, and what was parsed from it) until it holds
# MEMOIZED_TEXTS of them: it starts over once this many bytes of texts have been replaced.
# Starting over costs the next query a parse of the files it reads (an incremental analysis
# keeps its own results, so it does not notice).
REPLACED_TEXT_BYTES = 256 * 1024


def memoized_by_text(function: F) -> F:
    """Memoize a pure parser of a file's text (frontmatter, imports, comment blocks): every
    harness parses the same files. The cache keeps texts alive; see `forget_parsed_texts`."""
    cached = functools.lru_cache(maxsize=MEMOIZED_TEXTS)(function)
    _TEXT_CACHES.append(cached)
    return cached  # type: ignore[return-value]  # the cache calls `function` as it is called: same signature


def forget_parsed_texts() -> None:
    """Empty the parsers' caches: after a full analysis, a long-lived process keeps only what
    it parses again (a few MiB of texts and results otherwise stay for the session)."""
    global _replaced_bytes
    _replaced_bytes = 0
    for cache in _TEXT_CACHES:
        cache.cache_clear()


def text_replaced(size: int) -> None:
    """A text of `size` bytes is no file's any more (an edited buffer, a changed file): once
    REPLACED_TEXT_BYTES of them are behind, the memo starts over."""
    global _replaced_bytes
    _replaced_bytes += size
    if _replaced_bytes > REPLACED_TEXT_BYTES:
        forget_parsed_texts()


# Unicode White_Space: what Rust's str::trim removes.
_RUST_WHITESPACE = frozenset(
    "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008"
    "\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)
# ECMAScript WhiteSpace + LineTerminator: what String.prototype.trim removes (note U+FEFF, no U+0085).
_JS_WHITESPACE = frozenset(
    "\t\n\x0b\x0c\r \xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008"
    "\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
)


def _strip(text: str, chars: frozenset[str]) -> str:
    start, end = 0, len(text)
    while start < end and text[start] in chars:
        start += 1
    while end > start and text[end - 1] in chars:
        end -= 1
    return text[start:end]


def rust_trim(text: str) -> str:
    return _strip(text, _RUST_WHITESPACE)


def js_trim(text: str) -> str:
    return _strip(text, _JS_WHITESPACE)


def js_trim_start(text: str) -> str:
    """JavaScript's `String.prototype.trimStart`."""
    return text.lstrip("".join(_JS_WHITESPACE))


def js_trim_end(text: str) -> str:
    """JavaScript's `String.prototype.trimEnd`."""
    return text.rstrip("".join(_JS_WHITESPACE))


# JavaScript's `\s`, as a regular-expression character class body.
JS_SPACE_CLASS = "".join(sorted(_JS_WHITESPACE)).replace("\\", "\\\\").replace("]", "\\]").replace("-", "\\-")


def approx_tokens(text_or_bytes: str | int) -> int:
    """About four characters a token: the usual rule of thumb for English prose and code."""
    size = text_or_bytes if isinstance(text_or_bytes, int) else len(text_or_bytes)
    return math.ceil(size / 4)


def utf16_sort_key(path: str) -> bytes:
    """JavaScript's default sort compares UTF-16 code units; big-endian UTF-16 bytes sort alike."""
    return path.encode("utf-16-be", errors="surrogatepass")


def node_readdir_key(name: str) -> bytes:
    """Node's `fs.readdir` order on Unix: libuv lists a directory with `scandir(3)` sorted by
    `strcmp` on the raw name bytes (`uv__fs_scandir_sort`, libuv src/unix/fs.c), whatever order the
    file system keeps; a name that is not valid UTF-8 compares by its own bytes too."""
    return os.fsencode(name)
