"""What a duplicate's quick fix may delete: only lines that the copy which stays still holds.

Items are compared in a form that leaves lines out (a bullet's sub-items, a section's code
blocks, short bullets and labels), and a near duplicate differs in words. So a copy's lines are
checked one by one, normalised as items are, against the other copy: an item goes whole only
when every line of it is there (a section with its heading only when the heading is there too),
else a section keeps what it says alone and loses only its bullets and paragraphs that are
repeated, and a bullet or paragraph stays.
"""

from __future__ import annotations

from dataclasses import dataclass

from lsp_agents.core.analysis.document import Document, normalize
from lsp_agents.core.analysis.document_items import Item
from lsp_agents.core.model import Span


@dataclass(frozen=True, slots=True)
class Deletion:
    """The lines to delete (whole lines, in order, apart) and what they are, for the fix's title."""

    what: str  # "the duplicate section", "the duplicate lines", "only the 2 repeated bullets"…
    spans: tuple[Span, ...]


def plan(doc: Document, item: Item, kept_doc: Document, kept_item: Item) -> Deletion | None:
    """What deleting `item` of `doc` may remove while `kept_item` of `kept_doc` stays (None: nothing)."""
    kept = _lines(kept_doc, kept_item, _excluded(doc, item, kept_doc))
    if _held(doc, item.first, item.last, kept):
        heading = _whole_section(doc, item)
        if heading is not None and normalize(doc.line(heading)) in kept:
            return Deletion("the duplicate section", (_span(doc, heading, item.last),))
        return Deletion("the duplicate lines", (_span(doc, item.first, item.last),))
    if item.kind != "section":
        return None
    parts = [
        part
        for part in doc.items
        if part.kind != "section"
        and item.first <= part.first <= item.last
        and _held(doc, part.first, min(part.last, item.last), kept)
    ]
    if not parts:
        return None
    kinds = {part.kind for part in parts}
    word = kinds.pop() if len(kinds) == 1 else "item"
    what = f"only the repeated {word}" if len(parts) == 1 else f"only the {len(parts)} repeated {word}s"
    blocks: list[list[int]] = []
    for part in parts:
        last = min(part.last, item.last)
        if blocks and all(not doc.line(n).strip() for n in range(blocks[-1][1] + 1, part.first)):
            blocks[-1][1] = last  # only blank lines between: one deletion, no blank lines piling up
        else:
            blocks.append([part.first, last])
    return Deletion(what, tuple(_span(doc, first, last) for first, last in blocks))


def _excluded(doc: Document, item: Item, kept_doc: Document) -> range:
    """The lines of `kept_doc` that deleting `item` removes (both copies in one file)."""
    return range(item.first, item.last + 1) if kept_doc.path == doc.path else range(0)


def _lines(doc: Document, item: Item, excluded: range) -> set[str]:
    """The normalised lines of a copy that stays: a section body's heading with it."""
    first = item.first - 1 if item.kind == "section" else item.first
    return {normalize(doc.line(n)) for n in range(first, item.last + 1) if n not in excluded}


def _held(doc: Document, first: int, last: int, kept: set[str]) -> bool:
    """Whether every non-blank line from `first` to `last` is in `kept` (normalised)."""
    return all(not (line := doc.line(n)).strip() or normalize(line) in kept for n in range(first, last + 1))


def _whole_section(doc: Document, item: Item) -> int | None:
    """The heading line of the section whose whole body `item` is (no subsection follows), if any."""
    if item.kind != "section":
        return None
    return next((s.line for s in doc.sections if s.line == item.first - 1 and s.last == item.last), None)


def _span(doc: Document, first: int, last: int) -> Span:
    """Lines `first` to `last` whole, without the blank lines Markdown counts into a list item
    (deleting those would join the next paragraph to the list), and with one of the blank lines
    around them when both sides have one (no gap of two is left)."""
    while last > first and not doc.line(last).strip():
        last -= 1
    if last + 2 < doc.line_count and not doc.line(last + 1).strip() and (first == 0 or not doc.line(first - 1).strip()):
        last += 1
    if last + 1 < doc.line_count:
        return Span(first, 0, last + 1, 0)
    return doc.line_span(first, last)
