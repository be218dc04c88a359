"""The blocks a document is read into: its items (what duplicates are found in) and its sections."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Item:
    """A bullet, a paragraph or a section body: the unit duplicates are found in.

    `first`/`last` are 0-based lines (inclusive) of the whole block, so deleting them deletes it.
    """

    kind: str  # bullet | paragraph | section
    text: str  # normalised
    first: int
    last: int
    size: int  # bytes of the source lines
    # A task-list item ("- [ ] …") or an item of a list under a checklist's heading: a check of
    # what its list is about.
    checklist: bool = False


@dataclass(frozen=True, slots=True)
class Section:
    level: int
    heading: str  # normalised
    line: int
    last: int  # last line of the body (inclusive)
