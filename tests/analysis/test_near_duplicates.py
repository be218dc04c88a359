"""Near-duplicate search: prefix filtering and the size filter find every pair of items that a
comparison of all item pairs finds, whichever way the candidate pairs are enumerated."""

from __future__ import annotations

from array import array
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lsp_agents.core.analysis import item_pairs
from lsp_agents.core.analysis.document import Document
from lsp_agents.core.analysis.shingles import Shingles, Unpacked
from lsp_agents.core.fs import FileData

WORDS = "the agent must run tests before every commit and never push to main use pnpm".split()

words = st.lists(st.sampled_from(WORDS), min_size=3, max_size=14)
kind = st.sampled_from(["- ", "", "## "])


def render(blocks: list[tuple[str, list[str]]]) -> str:
    return "\n\n".join(kind + " ".join(words) for kind, words in blocks) + "\n"


@st.composite
def reworded(draw: st.DrawFn) -> tuple[str, str]:
    """Two texts, the second mostly the first's items with a word changed, added or dropped
    (near duplicates of every size ratio), some kept and some new."""
    first = draw(st.lists(st.tuples(kind, words), min_size=1, max_size=8))
    later = []
    for block_kind, block in first:
        change = draw(st.sampled_from(["keep", "replace", "add", "drop", "new", "omit"]))
        at = draw(st.integers(0, len(block) - 1))
        if change == "replace":
            block = [*block[:at], draw(st.sampled_from(WORDS)), *block[at + 1 :]]
        elif change == "add":  # at the end too: one 3-gram more is a similarity equal to the size ratio
            at = draw(st.integers(0, len(block)))
            block = [*block[:at], *draw(st.lists(st.sampled_from(WORDS), min_size=1, max_size=3)), *block[at:]]
        elif change == "drop" and len(block) > 3:
            block = block[:at] + block[at + 1 :]
        elif change == "new":
            block = draw(words)
        if change != "omit":
            later.append((draw(kind) if change == "new" else block_kind, block))
    return render(first), render(later or first)


def document(path: str, content: str) -> Document:
    data = content.encode()
    return Document(path, FileData(path, data, len(data)))


def every_item_pair(
    mine: Unpacked, later: Document, shared: set[int], threshold: float, same: bool
) -> Iterator[tuple[int, int, frozenset[int], frozenset[int]]]:
    """The reference: all pairs of items, no filtering."""
    theirs = later.shingles.unpacked(threshold)
    for index, grams in enumerate(theirs.sets):
        for candidate, other in enumerate(mine.sets):
            if not same or candidate < index:
                yield index, candidate, grams, other


def comparisons(first: str, later: str, threshold: float) -> dict[str, list]:
    """`compare_pair` of two texts (one text with itself when they are equal) with the later
    document's prefix index, item by item, and against every pair of items."""
    results = {}
    for mode in ("prefix index", "item by item", "every pair"):
        with pytest.MonkeyPatch.context() as patch:
            if mode == "item by item":
                patch.setattr(Shingles, "kept_unpacked", lambda self, threshold: None)
            else:
                patch.setattr(Shingles, "kept_unpacked", lambda self, threshold: self.unpacked(threshold))
            if mode == "every pair":  # no document-level test either: every pair of documents shares a hash
                patch.setattr(Shingles, "heads", lambda self, threshold: array("I", [0]))
                patch.setattr(item_pairs, "_item_pairs", every_item_pair)
            a = document("/w/AGENTS.md", first)
            b = a if later == first else document("/w/pkg/AGENTS.md", later)
            result = item_pairs.compare_pair(a, b, threshold)
            results[mode] = result if isinstance(result, str) else [(m.later, m.first, m.similarity, m.exact) for m in result]
    return results


@settings(max_examples=300, deadline=None)
@given(texts=reworded(), threshold=st.sampled_from([0.5, 0.7, 0.8, 0.9]), itself=st.booleans())
def test_candidate_pairs_miss_nothing(texts: tuple[str, str], threshold: float, itself: bool) -> None:
    first, later = texts
    results = comparisons(first + later, first + later, threshold) if itself else comparisons(first, later, threshold)
    assert results["prefix index"] == results["item by item"] == results["every pair"]


def test_one_word_more_at_the_end_is_as_similar_as_the_sizes_allow() -> None:
    """4 of 5 3-grams shared: the similarity equals the size ratio, and both equal the threshold."""
    results = comparisons("- run the tests before every commit\n", "- run the tests before every commit and\n", 0.8)
    assert results["prefix index"] == results["item by item"] == results["every pair"] == [(0, 0, 0.8, False)]


def test_a_reworded_rule_is_found_both_ways() -> None:
    first = "- run the tests before every commit and never push to main\n"
    later = "- always run the tests before every commit and never push to main\n"
    results = comparisons(first, later, 0.7)
    assert [m[:2] for m in results["item by item"]] == [(0, 0)] and not results["item by item"][0][3]
    assert results["prefix index"] == results["item by item"] == results["every pair"]
