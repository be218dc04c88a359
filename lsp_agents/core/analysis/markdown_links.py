"""Markdown links `[text](target)` in an instruction file, found in linear time (workspace text is
untrusted): their targets, and the text with the targets cut."""

from __future__ import annotations

import re
from collections.abc import Iterator

_LINK_TARGET = re.compile(r"<?([^)\s>]{1,500})>?(?:\s+\"[^\"\n]{0,300}\")?\)")  # what follows `](`


def _links(text: str) -> Iterator[re.Match[str]]:
    """The `(target)` part of each Markdown link `[text](target)`, found from its `](` (linear:
    a `[` is looked for at most 300 characters back, on the same line)."""
    close = text.find("](")
    while close >= 0:
        opening = text.rfind("[", max(0, close - 300), close)
        if opening >= 0 and "]" not in text[opening + 1 : close] and "\n" not in text[opening + 1 : close]:
            match = _LINK_TARGET.match(text, close + 2)
            if match:
                yield match
        close = text.find("](", close + 2)


def link_targets(text: str) -> Iterator[tuple[int, str]]:
    """(offset, target) of each Markdown link."""
    for match in _links(text):
        yield match.start(1), match.group(1)


def without_link_targets(text: str) -> str:
    """The text with each link's `(target)` cut: a link counts as its text (a listed path is a label)."""
    if "](" not in text:
        return text
    pieces, last = [], 0
    for match in _links(text):
        pieces.append(text[last : match.start() - 1])
        last = match.end()
    return "".join(pieces) + text[last:]
