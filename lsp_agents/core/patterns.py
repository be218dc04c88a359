"""Linear-time matching of the patterns a workspace supplies, within caps.

`.gitignore` lines, the `exclude` and `launchDirectories` settings, rule globs (`paths:`, `globs`,
`applyTo`) and configs' `instructions` are workspace text. A backtracking engine such as Python's
`re` takes exponential time on `*a*a*a…*b` against a long name, and it holds the GIL for the whole
match: no other thread runs, and no watchdog can stop it. So pathspec only translates a pattern
into a regular expression (gitignore semantics), and RE2 runs it, in time linear in the path and
the expressions. pathspec's own matching is not used: it compiles every pattern with `re` as well
(four fifths of the time a 5,000-line `.gitignore` takes), and its RE2 backend puts all patterns in
one RE2 set at RE2's default memory budget, which refuses a set of 10,000 ordinary lines.

The caps bound how much pattern text one file or list brings (RE2's time is also proportional to
the expressions): past a cap the rest is ignored, and the caller reports `Capped.warning`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import re2
from pathspec.patterns.gitignore.basic import GitIgnoreBasicPattern

# The caps. The 97 `.gitignore` files of the real-world corpus (shared/realworld) hold at most 211
# lines, the longest 106 characters; rule headers and settings lists there hold a handful of
# patterns. Each cap is far above what a real repository writes, and low enough that the worst
# list of patterns still compiles in a fraction of a second.
MAX_PATTERN_LENGTH = 1_024  # characters: a path as deep as real trees go, with room to spare
MAX_FILE_PATTERNS = 10_000  # patterns in one ignore file: 50 times the largest seen
MAX_LIST_PATTERNS = 1_000  # patterns in one settings list or rule header (after brace expansion)

# RE2 compiles a set into one program within a memory budget and refuses a set past it; sets of
# at most this many bytes of expressions stay far below the budget (the DFA that runs a set takes
# its states from the same budget, and a set whose DFA runs out of memory matches nothing).
_SET_BYTES = 32 * 1024
_MAX_MEM = 64 * 1024 * 1024


@dataclass(frozen=True, slots=True)
class Capped:
    """Patterns within the caps, and what was left out as a phrase for a warning (None: nothing)."""

    patterns: tuple[str, ...]
    ignored: str | None = None


def cap(patterns: Iterable[str], limit: int, *, keep_long: bool = False) -> Capped:
    """The first `limit` patterns, those longer than MAX_PATTERN_LENGTH left out unless
    `keep_long` (the caller refuses them itself)."""
    kept: list[str] = []
    too_long = past = 0
    for pattern in patterns:
        if len(pattern) > MAX_PATTERN_LENGTH and not keep_long:
            too_long += 1
        elif len(kept) < limit:
            kept.append(pattern)
        else:
            past += 1
    left_out = ([f"{too_long:,} longer than {MAX_PATTERN_LENGTH:,} characters"] if too_long else []) + (
        [f"{past:,} past the first {limit:,}"] if past else []
    )
    return Capped(tuple(kept), f"patterns ignored: {' and '.join(left_out)}" if left_out else None)


class RegexSet:
    """Regular expressions (RE2 syntax) matched together, in time linear in the text.

    Split into RE2 sets of at most _SET_BYTES of expressions each (halved again when RE2 still
    refuses one as too large); an expression RE2 cannot compile never matches."""

    __slots__ = ("_anchor_start", "_options", "_sets")

    def __init__(self, regexes: Sequence[str], *, ignore_case: bool = False, anchor_start: bool = False) -> None:
        self._options = re2.Options()
        self._options.max_mem = _MAX_MEM
        self._options.log_errors = False  # RE2 would print each refusal on stderr
        self._options.never_capture = True
        self._options.case_sensitive = not ignore_case
        self._anchor_start = anchor_start
        self._sets: list[tuple[re2.Set, tuple[int, ...]]] = []  # a set, and the index of each of its expressions
        chunk: list[int] = []
        size = 0
        for at, regex in enumerate(regexes):
            size += len(regex.encode())
            if size > _SET_BYTES and chunk:
                self._compile(regexes, chunk)
                chunk, size = [], len(regex.encode())
            chunk.append(at)
        if chunk:
            self._compile(regexes, chunk)

    def _compile(self, regexes: Sequence[str], chunk: list[int]) -> None:
        compiled = re2.Set.MatchSet(self._options) if self._anchor_start else re2.Set.SearchSet(self._options)
        added = []
        for at in chunk:
            try:
                compiled.Add(regexes[at])
            except re2.error:
                continue
            added.append(at)
        try:
            compiled.Compile()
        except re2.error:
            if len(added) > 1:
                self._compile(regexes, added[: len(added) // 2])
                self._compile(regexes, added[len(added) // 2 :])
            return
        if added:
            self._sets.append((compiled, tuple(added)))

    def __bool__(self) -> bool:
        return bool(self._sets)

    def matching(self, text: str) -> list[int]:
        """The indices of the expressions that match `text` (anywhere in it, or at its start
        with `anchor_start`), in no particular order."""
        encoded = _utf8(text)
        found: list[int] = []
        for compiled, indices in self._sets:
            found += [indices[i] for i in compiled.Match(encoded) or ()]
        return found


def _utf8(text: str) -> bytes:
    """`text` for RE2. A file name that is not UTF-8 reaches here with each bad byte as a lone
    surrogate (os.fsdecode), which UTF-8 cannot encode: each becomes U+FFFD, as in the text of a
    pattern file read from the same bytes."""
    try:
        return text.encode()
    except UnicodeEncodeError:
        return "".join("\ufffd" if "\ud800" <= c <= "\udfff" else c for c in text).encode()


class IgnorePatterns:
    """Lines of gitignore syntax, as pathspec's PathSpec reads them: the last pattern that
    matches a path decides whether it is matched (`!` negates); blank lines, comments and
    invalid patterns do nothing. Past the caps (`limit` patterns, MAX_PATTERN_LENGTH) lines are
    ignored, and `warning` says so, naming `source`."""

    __slots__ = ("_include", "_regexes", "warning")

    def __init__(self, lines: Iterable[str], *, limit: int = MAX_LIST_PATTERNS, source: str = "patterns") -> None:
        capped = cap((line for line in lines if line.strip() and not line.startswith("#")), limit)
        self.warning = f"warning: {source}: {capped.ignored}" if capped.ignored else None
        regexes: list[str] = []
        self._include: list[bool] = []
        for line in capped.patterns:
            try:
                translated = translate(line)
            except ValueError:  # git, too, ignores a pattern it cannot read
                continue
            if translated is not None:
                regexes.append(translated[0])
                self._include.append(translated[1])
        self._regexes = RegexSet(regexes)

    def __bool__(self) -> bool:
        return bool(self._regexes)

    def match(self, path: str) -> bool:
        """Whether the '/'-separated relative path (with a trailing '/' for a directory) is matched."""
        if path.startswith("/"):
            path = path[1:]
        elif path.startswith("./"):
            path = path[2:]
        found = self._regexes.matching(path)
        return bool(found) and self._include[max(found)]


def translate(pattern: str) -> tuple[str, bool] | None:
    """pathspec's regular expression for one gitignore pattern and whether it includes (not `!`);
    None for a blank line or a comment. Raises ValueError for an invalid pattern (a trailing
    backslash, `!` alone…)."""
    regex, include = GitIgnoreBasicPattern.pattern_to_regex(pattern)
    return None if regex is None or include is None else (regex, include)
