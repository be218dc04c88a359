"""`@path` references in instruction files, in the dialects the harnesses use.

Claude Code looks for `@path` in the Markdown *text* only (not in code spans, fenced or indented
code, or HTML), so its finder walks markdown-it-py tokens. Gemini CLI scans the raw content and
skips backtick regions only, and rewrites the content in place, so its finder returns offsets;
Qwen Code skips Markdown's code instead. The Copilot CLI finds an `@` where Claude Code does and
ends the path differently. All report source positions (0-based line and character) for the editor.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence
from dataclasses import dataclass

from markdown_it import MarkdownIt
from markdown_it.token import Token

from lsp_agents.core.text import memoized_by_text

_MARKDOWN = MarkdownIt("commonmark")
_CLAUDE_REF = re.compile(r"(?:^|(?<=\s))@((?:[^\s\\]|\\ )+)")
_CLAUDE_VALID_START = re.compile(r"^(?:\./|~/|/(?!/)|[A-Za-z0-9._-])")
_COMMENT = re.compile(r"<!--[\s\S]*?-->")
_BACKTICK_RUN = re.compile(r"`+")


@dataclass(frozen=True, slots=True)
class ImportRef:
    """One `@path` as written. `start`/`end` are offsets into the text, `line`/`character` its position."""

    path: str
    start: int
    end: int
    line: int
    character: int
    in_link: bool = False  # the text of a Markdown link (`[@docs/a.md](docs/a.md)`): Claude Code still imports it


def _position(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset)
    return line, offset - (text.rfind("\n", 0, offset) + 1)


@memoized_by_text
def claude_import_refs(text: str) -> tuple[ImportRef, ...]:
    """Claude's imports: `@` at the start of a text run or after white space, in plain text only,
    and in what an HTML comment block holds beside its comments (`<!-- x --> @a.md`).

    Memoized: a pure function of the text, asked again on every query of the same file.
    """
    if "@" not in text:
        return ()
    lines = text.splitlines(keepends=True)
    line_starts = [0]
    for line in lines:
        line_starts.append(line_starts[-1] + len(line))
    refs: list[ImportRef] = []
    for token in _MARKDOWN.parse(text):
        if token.map is None:
            continue
        if token.type == "inline":
            runs = _text_runs(token.children or ())
        elif token.type == "html_block" and token.content.lstrip().startswith("<!--") and "-->" in token.content:
            runs = [(_COMMENT.sub("", token.content), False)]  # what is left beside the comments
        else:
            continue
        search_from = line_starts[token.map[0]]
        block_end = line_starts[min(token.map[1], len(lines))]
        for run, in_link in runs:
            for raw, path in _claude_paths(run):
                offset = text.find("@" + raw, search_from, block_end)
                if offset < 0:
                    continue
                search_from = offset + 1 + len(raw)
                refs.append(ImportRef(path, offset, search_from, *_position(text, offset), in_link=in_link))
    return tuple(refs)


def _text_runs(children: Sequence[Token]) -> list[tuple[str, bool]]:
    """(content, inside a link's text) of each text run of an inline token."""
    runs, depth = [], 0
    for child in children:
        if child.type == "link_open":
            depth += 1
        elif child.type == "link_close":
            depth = max(0, depth - 1)
        elif child.type == "text":
            runs.append((child.content, depth > 0))
    return runs


def _claude_paths(content: str) -> list[tuple[str, str]]:
    """(as written, path) of each `@path` in a run of text."""
    found = []
    for match in _CLAUDE_REF.finditer(content):
        raw = match.group(1)
        path = raw.split("#", 1)[0].replace("\\ ", " ")
        if path and _CLAUDE_VALID_START.match(path):
            found.append((raw, path))
    return found


def backtick_regions(text: str) -> list[tuple[int, int]]:
    r"""The spans Gemini's `/(`+)([\s\S]*?)\1/g` matches, found in linear time: that regex
    backtracks quadratically (or worse) on a long run of unmatched backticks.

    A match starts at the first backtick run that has a closer: its opening is the longest n
    (up to the run's length k) such that n backticks follow, either later in the same run
    (k >= 2n) or at the start of a later run at least n long; the match ends after them."""
    runs = [(m.start(), m.end() - m.start()) for m in _BACKTICK_RUN.finditer(text)]
    longest_after = [0] * (len(runs) + 1)  # longest run strictly after each run
    for index in range(len(runs) - 1, -1, -1):
        longest_after[index] = max(runs[index][1], longest_after[index + 1])
    regions = []
    index, offset = 0, 0  # the current run, and how much of it an earlier match used up
    while index < len(runs):
        start, length = runs[index][0] + offset, runs[index][1] - offset
        opening = max(length // 2, min(length, longest_after[index + 1]))
        if opening == 0:
            break  # a single backtick and no later run: nothing matches from here on
        if length >= 2 * opening:
            end, index, offset = start + 2 * opening, index, offset + 2 * opening
        else:
            index += 1
            while runs[index][1] < opening:
                index += 1
            end, offset = runs[index][0] + opening, opening
        regions.append((start, end))
        if offset >= runs[index][1]:
            index, offset = index + 1, 0
    return regions


# The Copilot CLI's import path, from the `@` Claude's syntax finds (plain text, at a line start or
# after white space): the characters up to white space or one of " ' ` < >, less any trailing
# . , ; : ! ? ) ] } (`@a.md, first` and `@a.md"x` import a.md; `@a.md#x`, `@a.md*` and `@a\ b.md`
# import nothing: no fragment, no escape). Its native loader cannot be read; the captures
# copilot-cli-import-punctuation, -import-bounds and -duplicate-text pin these rules.
_COPILOT_IMPORT_PATH = re.compile(r"[^\s\"'`<>]+")
_COPILOT_IMPORT_TRAILING = ".,;:!?)]}"


def copilot_import_refs(text: str) -> tuple[ImportRef, ...]:
    """The Copilot CLI's imports of `text` in order, each `end` right after its path."""
    found = []
    for ref in claude_import_refs(text):
        token = _COPILOT_IMPORT_PATH.match(text, ref.start + 1)
        path = token.group().rstrip(_COPILOT_IMPORT_TRAILING) if token else ""
        if path:
            found.append(ImportRef(path, ref.start, ref.start + 1 + len(path), ref.line, ref.character, ref.in_link))
    return tuple(found)


@memoized_by_text
def gemini_import_refs(text: str) -> tuple[ImportRef, ...]:
    """Gemini's imports: `@` at the start or after white space, path to the next white space,
    starting with `.`, `/` or a letter; matches inside backtick regions are skipped."""
    return _at_refs(text, backtick_regions(text))


@memoized_by_text
def qwen_import_refs(text: str) -> tuple[ImportRef, ...]:
    """Qwen Code's imports: Gemini's syntax, but the code it skips is Markdown's (code blocks and
    code spans, as its Markdown lexer finds them) rather than every backtick region."""
    return _at_refs(text, markdown_code_regions(text)) if "@" in text else ()  # most files import nothing: no parse


_IMPORT_SPACE = " \t\n\r"  # the only white space both scanners know


def _at_refs(text: str, code_regions: list[tuple[int, int]]) -> tuple[ImportRef, ...]:
    """`@` references outside `code_regions` (sorted, not overlapping: found by bisection)."""
    starts = [start for start, _stop in code_regions]
    refs: list[ImportRef] = []
    index = text.find("@")
    while index >= 0:
        if index == 0 or text[index - 1] in _IMPORT_SPACE:
            end = index + 1
            while end < len(text) and text[end] not in _IMPORT_SPACE:
                end += 1
            path = text[index + 1 : end]
            if path and (path[0] in "./" or ("a" <= path[0].lower() <= "z")):
                at = bisect.bisect_right(starts, index) - 1
                if at < 0 or index >= code_regions[at][1]:
                    refs.append(ImportRef(path, index, end, *_position(text, index)))
        index = text.find("@", index + 1)
    return tuple(refs)


def markdown_code_regions(text: str) -> list[tuple[int, int]]:
    """Offsets of the code blocks (fenced and indented) and code spans of a Markdown text."""
    lines = text.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))
    regions = []
    for token in _MARKDOWN.parse(text):
        if token.map is None:
            continue
        first, last = starts[token.map[0]], starts[min(token.map[1], len(lines))]
        if token.type in ("fence", "code_block"):
            regions.append((first, last))
        elif token.type == "inline":
            cursor = first
            for child in token.children or ():
                if child.type != "code_inline":
                    continue
                at = text.find(child.markup, cursor, last)
                close = text.find(child.markup, at + len(child.markup), last) if at >= 0 else -1
                if close >= 0:
                    regions.append((at, close + len(child.markup)))
                    cursor = close + len(child.markup)
    return regions
