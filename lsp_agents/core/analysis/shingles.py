"""Word 3-grams of a document's items, packed: what near-duplicates are measured on.

Near-duplicate items are found by prefix filtering (`prefix_length`): two sets at least
`threshold` similar share one of their smallest hashes, so only items sharing a prefix hash are
compared.
"""

from __future__ import annotations

import re
from array import array
from collections import deque
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

if TYPE_CHECKING:
    from lsp_agents.core.analysis.document_items import Item

_WORD = re.compile(r"\w+")
SHINGLE = 3
UNPACKED = 32  # documents whose 3-grams stay unpacked for comparisons (a chain is at most a few dozen)


def prefix_length(size: int, threshold: float) -> int:
    """How many of a set's smallest hashes any set at least `threshold` similar must share one of.

    Similarity t needs at least t * n common elements with a set of n, so such a set holds one of
    the n - ceil(t * n) + 1 smallest (prefix filtering); floor instead of ceil keeps it safe from
    rounding at the cost of one more element.
    """
    return size - int(threshold * size) + 1


class Shingles:
    """Word 3-gram hashes of a document's items, packed into arrays (a language server keeps
    them for every instruction file; as Python sets they took half of its memory).

    `grams` holds each item's distinct 3-grams in ascending order, item after item; `counts[j]`
    is how many item j has. To be compared with, a document is unpacked (`unpacked`): its items'
    sets and an index of their prefixes; the UNPACKED documents compared last keep that form,
    since comparisons come in runs along a chain.
    """

    __slots__ = ("_heads", "_unpacked", "counts", "grams")
    _recent: ClassVar[deque[Shingles]] = deque()

    def __init__(self, grams: array[int], counts: array[int]) -> None:
        self.grams = grams
        self.counts = counts
        self._unpacked: Unpacked | None = None
        self._heads: tuple[float, array[int]] | None = None

    @classmethod
    def of(cls, items: Sequence[Item]) -> Shingles:
        grams, counts = array("I"), array("I")
        for item in items:
            words = _WORD.findall(item.text)
            # 32 bits a 3-gram: two of an item's few dozen collide once in billions of comparisons;
            # an item of fewer words is one gram of them all
            runs = zip(*(words[k:] for k in range(SHINGLE)), strict=False) if len(words) >= SHINGLE else (tuple(words),)
            distinct = {hash(gram) & 0xFFFFFFFF for gram in runs}
            counts.append(len(distinct))
            grams.extend(sorted(distinct))
        return cls(grams, counts)

    def per_item(self) -> Iterator[tuple[int, array[int]]]:
        """(item index, its 3-grams in ascending order)."""
        start = 0
        for index, count in enumerate(self.counts):
            yield index, self.grams[start : start + count]
            start += count

    def heads(self, threshold: float) -> array[int]:
        """The prefix hashes of all items: a document sharing none of them with another's
        prefixes has no near-duplicate there (one C-level test instead of one per item)."""
        if self._heads is None or self._heads[0] != threshold:
            heads = array("I", {g for _index, grams in self.per_item() for g in grams[: prefix_length(len(grams), threshold)]})
            self._heads = (threshold, heads)
        return self._heads[1]

    def kept_unpacked(self, threshold: float) -> Unpacked | None:
        """The unpacked form if this document still has it; unpacks nothing."""
        return self._unpacked if self._unpacked is not None and self._unpacked.threshold == threshold else None

    def unpacked(self, threshold: float) -> Unpacked:
        if self._unpacked is not None and self._recent[-1] is not self:
            self._recent.remove(self)  # the least recently compared are packed first: a root file stays unpacked
            self._recent.append(self)
        if self._unpacked is None or self._unpacked.threshold != threshold:
            sets: list[frozenset[int]] = []
            prefixes: dict[int, list[int]] = {}
            for index, grams in self.per_item():
                sets.append(frozenset(grams))
                for gram in grams[: prefix_length(len(grams), threshold)]:
                    prefixes.setdefault(gram, []).append(index)
            if self._unpacked is None:
                self._recent.append(self)
                if len(self._recent) > UNPACKED:
                    self._recent.popleft()._unpacked = None
            self._unpacked = Unpacked(threshold, sets, prefixes)
        return self._unpacked


@dataclass(frozen=True, slots=True)
class Unpacked:
    """A document's items as sets, and which items hold each prefix hash (for `threshold`)."""

    threshold: float
    sets: list[frozenset[int]]
    prefixes: dict[int, list[int]]
