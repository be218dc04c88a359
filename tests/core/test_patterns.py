"""Workspace patterns run by RE2 mean what pathspec's own (backtracking) matching means.

The alphabet is small and the strings short, so that pathspec's `re` matching stays fast and
every gitignore construct (wildcards, classes, negation, anchoring, escapes, directory slashes)
meets paths it may or may not match.
"""

from __future__ import annotations

import re

import pathspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lsp_agents.core.globs import compile_patterns
from lsp_agents.core.patterns import IgnorePatterns

SEGMENT = st.sampled_from(["a", "b", "ab", "*", "?", "**", "a*", "*b", "[ab]", "[!a]", "\\*", "a?b", ""])
PATTERN = st.one_of(
    st.builds(
        lambda negated, rooted, segments, slash: "!" * negated + "/" * rooted + "/".join(segments) + "/" * slash,
        st.booleans(),
        st.booleans(),
        st.lists(SEGMENT, min_size=1, max_size=3),
        st.booleans(),
    ),
    st.text(alphabet="ab*?/![]\\-.# ", min_size=1, max_size=8),  # escapes, ranges, comments, invalid lines
)
PATH = st.builds(
    lambda names, directory: "/".join(names) + "/" * directory,
    st.lists(st.sampled_from(["a", "b", "ab", "ba", "a.b", "*", "aab", "AB"]), min_size=1, max_size=4),
    st.booleans(),
)
# pathspec compiles `[[` with `re`, which warns about a future meaning of nested sets.
pytestmark = pytest.mark.filterwarnings("ignore:Possible nested set:FutureWarning")
BOUNDED = settings(max_examples=400, derandomize=True, database=None, deadline=None)


def _pathspec(lines: list[str]) -> pathspec.PathSpec | None:
    """pathspec's reading of the lines; None when it refuses one (it refuses the whole list, where
    discovery skips that line: git ignores a pattern it cannot read)."""
    try:
        return pathspec.PathSpec.from_lines("gitignore", lines, backend="simple")
    except (ValueError, re.error):  # an invalid pattern, or a class range such as [?-.]
        return None


@BOUNDED
@given(st.lists(PATTERN, min_size=1, max_size=4), st.lists(PATH, min_size=1, max_size=4))
def test_ignore_patterns_decide_as_pathspec_does(lines: list[str], paths: list[str]) -> None:
    reference = _pathspec(lines)
    if reference is None:
        return
    ours = IgnorePatterns(lines)
    for path in paths:
        assert ours.match(path) == reference.match_file(path), (lines, path)


@BOUNDED
@given(st.lists(PATTERN.filter(lambda p: not p.startswith("!")), min_size=1, max_size=3), PATH, st.booleans(), st.booleans())
def test_globs_match_as_pathspec_does(globs: list[str], path: str, anchored: bool, ignore_case: bool) -> None:
    """A glob list matches when one of its globs does (anchored: as if it began with '/'), in any
    case with `ignore_case` (Copilot's applyTo)."""
    lines = ["/" + g if anchored and not g.startswith("/") else g for g in globs]
    reference = _pathspec(lines)
    if reference is None:
        return
    flags = re.IGNORECASE if ignore_case else 0
    expected = any(p.include and p.regex is not None and re.match(p.regex.pattern, path, flags) for p in reference.patterns)
    assert compile_patterns(globs, anchored=anchored, ignore_case=ignore_case)(path) == expected, (globs, path)
