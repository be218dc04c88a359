"""Bounded glob matching for patterns that come from untrusted workspace files.

Patterns from frontmatter and configs (`paths:`, `applyTo`, opencode `instructions`) are workspace
text. A glob is an anchored gitignore pattern, matched by RE2 in time linear in the path
(`core.patterns`: a backtracking engine takes exponential time on `*a*a*a*a*a*b`). Each pattern is
bounded in length and brace expansion, and a list in its expansions (GlobError past a bound: the
caller reports the globs as not evaluable); past MAX_LIST_PATTERNS patterns a list's rest is
ignored (`GlobMatcher.ignored`), and a scan visits at most MAX_SCAN_ENTRIES directory entries.
"""

from __future__ import annotations

import functools
import itertools
import os
import re
from collections.abc import Iterable, Iterator

import braceexpand

from lsp_agents.core.fs import FileSystem
from lsp_agents.core.model import HarnessWarning, WarningKind
from lsp_agents.core.patterns import MAX_LIST_PATTERNS, MAX_PATTERN_LENGTH, RegexSet, cap, translate

MAX_BRACE_EXPANSIONS = 1000
MAX_SCAN_ENTRIES = 20_000
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
    except ValueError as exc:  # braceexpand's UnbalancedBracesError is one (its type stub leaves it out)
        raise GlobError(f"invalid braces: {exc}") from exc
    if len(expanded) > MAX_BRACE_EXPANSIONS:
        raise GlobError(f"brace expansion gives more than {MAX_BRACE_EXPANSIONS} patterns")
    return expanded


class GlobMatcher:
    """A predicate on '/'-separated relative paths: whether any of the patterns matches.
    `ignored` says which patterns of the list were left out (past MAX_LIST_PATTERNS), or is None."""

    __slots__ = ("_regexes", "ignored")

    def __init__(self, regexes: RegexSet, ignored: str | None) -> None:
        self._regexes = regexes
        self.ignored = ignored

    def __call__(self, rel: str) -> bool:
        return bool(self._regexes.matching(rel))

    def warning(self, path: str) -> HarnessWarning | None:
        """The line that reports, for the file `path` holding the globs, the patterns left out."""
        if not self.ignored:
            return None
        return HarnessWarning(f"warning: {path}: globs not evaluated in part: {self.ignored}", WarningKind.GLOBS_NOT_EVALUATED)


def compile_patterns(patterns: Iterable[str], *, anchored: bool, ignore_case: bool = False) -> GlobMatcher:
    """A predicate on '/'-separated relative paths: gitignore semantics, anchored if asked.

    An unanchored pattern without a slash matches at any depth (gitignore); an anchored one only
    from the base, like a shell glob. Raises GlobError for a pattern past the bounds.
    """
    return _compiled(tuple(patterns), anchored, ignore_case)


@functools.lru_cache(maxsize=4096)
def _compiled(patterns: tuple[str, ...], anchored: bool, ignore_case: bool) -> GlobMatcher:
    """The matcher of a pattern list, compiled once: the same `paths:` list is matched from every
    launch directory. A GlobError is raised again on each call (errors are not cached)."""
    capped = cap(patterns, MAX_LIST_PATTERNS, keep_long=True)
    expanded: list[str] = []
    for raw in capped.patterns:
        expanded += expand_braces(raw)
        if len(expanded) > MAX_BRACE_EXPANSIONS:  # every path is matched against each of them
            raise GlobError(f"more than {MAX_BRACE_EXPANSIONS} patterns in one list")
    regexes = []
    for pattern in expanded:
        try:
            translated = translate("/" + pattern if anchored and not pattern.startswith("/") else pattern)
        except ValueError as exc:
            raise GlobError(f"invalid pattern {pattern!r}: {exc}") from exc
        if translated is not None and translated[1]:  # a negated glob adds nothing to a list of alternatives
            regexes.append(translated[0])
    return GlobMatcher(RegexSet(regexes, ignore_case=ignore_case, anchor_start=True), capped.ignored)


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
        rest = segments[len(static) :]
        depth = None if any("**" in s for s in rest) else len(rest)
        for path in _walk(fs, start, depth, budget, reverse_listing):
            rel = os.path.relpath(path, base).replace(os.sep, "/")
            if matches(rel):
                found[path] = None
    return list(found)


def _walk(fs: FileSystem, directory: str, depth: int | None, budget: list[int], reverse: bool) -> Iterator[str]:
    names = fs.list_dir(directory)
    for name in reversed(names) if reverse else names:
        budget[0] -= 1
        if budget[0] < 0:
            raise GlobError(f"pattern visits more than {MAX_SCAN_ENTRIES} directory entries")
        path = os.path.join(directory, name)
        if fs.is_file(path):
            if depth is None or depth >= 1:
                yield path
        elif fs.is_dir(path) and not fs.is_link(path) and (depth is None or depth > 1):
            yield from _walk(fs, path, None if depth is None else depth - 1, budget, reverse)
