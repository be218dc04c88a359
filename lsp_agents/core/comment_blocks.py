"""Claude Code's removal of HTML comments from memory files, as its Markdown lexer sees them.

Claude lexes a file that contains `<!--` (the lexer turns every CRLF or lone CR into LF, so the
whole file comes back with LF line ends) and rebuilds it from the top-level tokens. An HTML block
that starts with a comment and contains `-->` is the comment's lines *plus the empty lines right
after it*; every `<!--…-->` in it is cut, and what remains is kept only when it is not blank
(`<!-- a --> text` keeps ` text`). Comments inside list items, block quotes, code, or inline in
a paragraph stay as written, as does a comment that is never closed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from markdown_it import MarkdownIt

from lsp_agents.core.text import js_trim, memoized_by_text

_MARKDOWN = MarkdownIt("commonmark")
_COMMENT = re.compile(r"<!--[\s\S]*?-->")
_LINE_BREAK = re.compile(r"\r\n?")


@dataclass(frozen=True, slots=True)
class CommentBlock:
    """A top-level comment block of the LF-normalised text: `start`/`end` offsets of its raw
    text (trailing empty lines included), and what is left once its comments are cut."""

    start: int
    end: int
    residue: str

    @property
    def kept(self) -> bool:
        return bool(js_trim(self.residue))


def normalize_line_breaks(text: str) -> str:
    return _LINE_BREAK.sub("\n", text) if "\r" in text else text


@memoized_by_text
def comment_blocks(text: str) -> tuple[CommentBlock, ...]:
    """The comment blocks of `text` (already LF-normalised), in order."""
    if "<!--" not in text:
        return ()
    lines = text.split("\n")
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line) + 1)
    blocks = []
    for token in _MARKDOWN.parse(text):
        if token.type != "html_block" or token.level != 0 or not token.map:
            continue
        if not token.content.lstrip().startswith("<!--") or "-->" not in token.content:
            continue
        first, last = token.map
        while last < len(lines) - 1 and lines[last] == "":  # the empty lines after it go with it
            last += 1
        start, end = starts[first], min(starts[last], len(text))
        blocks.append(CommentBlock(start, end, _COMMENT.sub("", text[start:end])))
    return tuple(blocks)


@memoized_by_text
def strip_comment_blocks(text: str) -> str:
    """`text` as Claude sends it: comment blocks cut, line breaks normalised if it has `<!--`."""
    if "<!--" not in text:
        return text
    text = normalize_line_breaks(text)
    pieces, last = [], 0
    for block in comment_blocks(text):
        pieces.append(text[last : block.start])
        if block.kept:
            pieces.append(block.residue)
        last = block.end
    pieces.append(text[last:])
    return "".join(pieces)
