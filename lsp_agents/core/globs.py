"""Bounded glob matching for patterns that come from untrusted workspace files.

Patterns from frontmatter and configs (`paths:`, `applyTo`, opencode `instructions`) can be
arbitrarily expensive; every entry point here bounds pattern length, brace expansion, the
number of directory entries a scan may visit and the total time a compiled pattern may spend
matching (a pattern like `*a*a*a*a*a*b` backtracks catastrophically), and raises `GlobError`
past a bound. Matching uses pathspec's gitignore patterns, run by the `regex` engine for its
timeouts; a glob is an anchored gitignore pattern.
"""

from __future__ import annotations

import functools
import itertools
import os
import re
import time
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

import braceexpand
from pathspec.patterns.gitignore.basic import GitIgnoreBasicPattern

from lsp_agents.core.fs import FileSystem

if TYPE_CHECKING:
    import regex

MAX_PATTERN_LENGTH = 1024
MAX_BRACE_EXPANSIONS = 1000
MAX_SCAN_ENTRIES = 20_000
MATCH_TIMEOUT_SECONDS = 0.05  # one path against one pattern takes microseconds unless pathological
MATCH_BUDGET_SECONDS = 2.0  # all the matching one compiled set of patterns may do
_GLOB_CHARS = re.compile(r"[*?\[{]")


class GlobError(ValueError):
    """A pattern that cannot be evaluated within the bounds, or at all."""


def expand_braces(pattern: str) -> list[str]:
    if len(pattern) > MAX_PATTERN_LENGTH:
        raise GlobError(f"pattern longer than {MAX_PATTERN_LENGTH} characters")
    if "{" not in pattern:
        return [pattern]
    try:
        expanded = list(itertools.islice(braceexpand.braceexpand(pattern), MAX_BRACE_EXPANSIONS + 1))
    except (braceexpand.UnbalancedBracesError, ValueError) as exc:
        raise GlobError(f"invalid braces: {exc}") from exc
    if len(expanded) > MAX_BRACE_EXPANSIONS:
        raise GlobError(f"brace expansion gives more than {MAX_BRACE_EXPANSIONS} patterns")
    return expanded


class GlobMatcher:
    """A predicate on '/'-separated relative paths with bounded matching time.

    One match over MATCH_TIMEOUT_SECONDS, or MATCH_BUDGET_SECONDS of matching in total, raises
    GlobError: the caller reports the pattern as not evaluable instead of hanging on it.
    """

    def __init__(self, regexes: list[regex.Pattern]) -> None:
        self._regexes = regexes
        self._remaining = MATCH_BUDGET_SECONDS

    def __call__(self, rel: str) -> bool:
        for compiled in self._regexes:
            if self._remaining <= 0:
                raise GlobError(f"matching took longer than {MATCH_BUDGET_SECONDS} s in all")
            started = time.perf_counter()
            try:
                hit = compiled.match(rel, timeout=min(MATCH_TIMEOUT_SECONDS, self._remaining))
            except TimeoutError:
                self._remaining = 0
                raise GlobError(f"matching one path took longer than {MATCH_TIMEOUT_SECONDS} s") from None
            finally:
                self._remaining -= time.perf_counter() - started
            if hit:
                return True
        return False


def compile_patterns(patterns: Iterable[str], *, anchored: bool, ignore_case: bool = False) -> Callable[[str], bool]:
    """A predicate on '/'-separated relative paths: gitignore semantics, anchored if asked.

    An unanchored pattern without a slash matches at any depth (gitignore); an anchored one only
    from the base, like a shell glob. The predicate raises GlobError past its time budget.
    """
    return GlobMatcher(_compiled(tuple(patterns), anchored, ignore_case))


@functools.lru_cache(maxsize=4096)
def _compiled(patterns: tuple[str, ...], anchored: bool, ignore_case: bool) -> list[regex.Pattern]:
    """The regexes of a pattern list, compiled once: the same `paths:` list is matched from every
    launch directory. A GlobError is raised again on each call (errors are not cached)."""
    import regex  # imported on first use: a tenth of the language server's start-up otherwise

    regexes = []
    expanded: list[str] = []
    for raw in patterns:
        expanded += expand_braces(raw)
        if len(expanded) > MAX_BRACE_EXPANSIONS:  # every path is matched against each of them
            raise GlobError(f"more than {MAX_BRACE_EXPANSIONS} patterns in one list")
    for pattern in expanded:
        if anchored and not pattern.startswith("/"):
            pattern = "/" + pattern
        try:
            compiled = GitIgnoreBasicPattern(pattern)
        except Exception as exc:  # pathspec raises several types for malformed patterns
            raise GlobError(f"invalid pattern {pattern!r}: {exc}") from exc
        if compiled.regex is not None and compiled.include:
            try:
                regexes.append(regex.compile(compiled.regex.pattern, regex.IGNORECASE if ignore_case else 0))
            except regex.error as exc:
                raise GlobError(f"invalid pattern {pattern!r}: {exc}") from exc
    return regexes


def scan(fs: FileSystem, base: str, pattern: str, *, reverse_listing: bool = False) -> list[str]:
    """Absolute paths of the regular files under `base` that the glob `pattern` matches.

    In directory order as the OS lists it (reversed with `reverse_listing`, as Bun's glob returns
    it); dot files count; symlinked directories are not entered (no loops).
    """
    matches = compile_patterns([pattern], anchored=True)
    alternatives = expand_braces(pattern)
    budget = [MAX_SCAN_ENTRIES]
    found: dict[str, None] = {}
    for alternative in alternatives:
        segments = [s for s in alternative.strip("/").split("/") if s not in ("", ".")]
        static = list(itertools.takewhile(lambda s: not _GLOB_CHARS.search(s), segments[:-1]))
        start = os.path.join(base, *static)
        if ".." in static or not fs.is_dir(start):
            continue
        rest = segments[len(static):]
        depth = None if any("**" in s for s in rest) else len(rest)
        for path in _walk(fs, start, depth, budget, reverse_listing):
            rel = os.path.relpath(path, base).replace(os.sep, "/")
            if matches(rel):
                found[path] = None
    return list(found)


def _walk(fs: FileSystem, directory: str, depth: int | None, budget: list[int], reverse: bool):
    names = fs.list_dir(directory)
    for name in reversed(names) if reverse else names:
        budget[0] -= 1
        if budget[0] < 0:
            raise GlobError(f"pattern visits more than {MAX_SCAN_ENTRIES} directory entries")
        path = os.path.join(directory, name)
        if fs.is_file(path):
            if depth is None or depth >= 1:
                yield path
        elif fs.is_dir(path) and not os.path.islink(path) and (depth is None or depth > 1):
            yield from _walk(fs, path, None if depth is None else depth - 1, budget, reverse)
