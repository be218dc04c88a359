"""Pairs of repeated items between two documents (or within one), for `duplicates`.

Near-duplicates use the Jaccard similarity of word 3-gram sets; candidates come from an index of
each item's smallest hashes (prefix filtering), so items that cannot reach the threshold are
never measured. An item that points from its file's own place or is about the file itself is
not a repeat: the same words in two directories say two things there.
"""

from __future__ import annotations

import bisect
import os
import re
from collections import Counter
from collections.abc import Collection, Iterator
from dataclasses import dataclass, replace
from typing import Literal

from lsp_agents.core.analysis.deletion import Deletion, plan
from lsp_agents.core.analysis.document import Document, normalize
from lsp_agents.core.analysis.document_items import Item, Section
from lsp_agents.core.analysis.globs import in_rule_folder
from lsp_agents.core.analysis.shingles import Unpacked, prefix_length
from lsp_agents.core.text import rust_trim

# Words that point from the file's own place ("this folder", "../AGENTS.md"): the same sentence in
# two directories says two things.
_HERE = re.compile(
    r"\bthis (?:folder|directory|dir|package|module|subproject|project|app|crate|workspace)\b|\bin here\b"
    r"|(?:^|[\s(\[\"'])\.{1,2}/"
)

# An item about the file that holds it, its upkeep ("update this file when routes change", "bump
# the last-reviewed date") or a field of its header ("Owners: …", "Status: …"): each file of a
# per-directory template keeps its own, so the same words in two directories are two records.
_RECORD_FIELD = r"^(?:owners?|maintainers?|status|last[- ](?:reviewed|updated|modified|verified|edited)|authors?)\s*:"
_ABOUT_ITSELF = re.compile(
    r"\bthis (?:file|document|doc|page|(?:agents|claude|gemini|qwen|agent)\.md)\b"
    rf"|{_RECORD_FIELD}"
    r"|\b(?:bump|update|refresh|set)\b.*\blast[- ](?:reviewed|updated|modified|verified|edited)\b"
)
# An item that only sends the reader elsewhere ("See [src/config.ts](…) for the schema"): one file
# repeats it under each heading it serves, on purpose.
_CROSS_REFERENCE = re.compile(r"^(?:see|refer to|consult)\s")
# A numbered list's item ("3. Fix it and go back to phase 5"): a step of a procedure, which the same
# file's other procedures may take too.
_NUMBERED_ITEM = re.compile(r"^\s{0,3}\d{1,9}[.)]\s")

# Labelled fields two headings of one level must both fill to be entries of one form.
FORM_FIELDS = 3

# A line of a file's own record ("**Last Updated:** 2025-10-22", "Status: Active"); this many of
# them in one section make it the file's metadata.
_RECORD_LINE = re.compile(_RECORD_FIELD)
RECORD_FIELDS = 2
# A field whose value is a date or a version ("**Version:** 3.0.0", "Updated: 2026-04-05"): a
# paragraph of nothing else is the file's record, wherever it stands (a header, a footer).
_DATED_FIELD = re.compile(r"^[^:]{1,40}:\s*(?:.*\D)?(?:\d{4}-\d{2}-\d{2}|v?\d+\.\d+(?:\.\d+)?)\b")


@dataclass(frozen=True, slots=True)
class Match:
    later: int  # item index in the later document
    first: int  # item index in the first document
    similarity: float
    exact: bool  # the same normalised text, not only similar
    # What the fix may delete of the later copy while the first stays, and of the first while the
    # later stays: part of the comparison, since it depends on the lines of both documents.
    deletions: tuple[Deletion | None, Deletion | None] = (None, None)


def compare(first: Document, later: Document, threshold: float, *, same: bool) -> list[Match]:
    """Items of `later` that repeat an item of `first` (an earlier item when both are one document).

    Near-duplicates are looked for only among the items that share a prefix hash (prefix
    filtering: an item that shares none cannot reach the threshold), then measured exactly.
    """
    exact, first_items, later_items = first.exact, first.items, later.items
    best: dict[int, tuple[float, int]] = {}
    # Only the prefix hashes both documents hold can pair items (one C-level intersection; most
    # pairs share none, and their documents are not unpacked into sets).
    shared = set(first.shingles.heads(threshold)).intersection(later.shingles.heads(threshold))
    for index, candidate, grams, other in (
        _item_pairs(first.shingles.unpacked(threshold), later, shared, threshold, same) if shared else ()
    ):
        if first_items[candidate].kind != later_items[index].kind:
            continue
        count = len(other.intersection(grams))
        similarity = count / (len(other) + len(grams) - count)
        current = best.get(index)  # ties are broken here, so the order of the pairs does not matter
        if similarity >= threshold and (current is None or (similarity, -candidate) > (current[0], -current[1])):
            best[index] = (similarity, candidate)
    matches = []
    # Exact repeats: only the texts both documents hold are looked at (a C-level intersection).
    repeated = later.repeated.keys() if same else later.exact.keys() & exact.keys()
    hits = {index: exact[text] for text in repeated for index in later.repeated.get(text, (later.exact[text],))}
    for index in sorted(hits.keys() | best.keys()):
        hit = hits.get(index)
        if hit is not None and (not same or hit < index):
            matches.append(Match(index, hit, 1.0, True))
        elif index in best:
            matches.append(Match(index, best[index][1], best[index][0], False))
    parallel = _parallel(later, matches) if same else frozenset()
    matches = [m for m in matches if _repeats(first, later, m, parallel)]
    return [_with_deletions(first, later, m) for m in _outside_duplicate_sections(first, later, matches)]


def _with_deletions(first: Document, later: Document, match: Match) -> Match:
    item, other = later.items[match.later], first.items[match.first]
    return replace(match, deletions=(plan(later, item, first, other), plan(first, other, later, item)))


def _item_pairs(
    mine: Unpacked, later: Document, shared: set[int], threshold: float, same: bool
) -> Iterator[tuple[int, int, Collection[int], frozenset[int]]]:
    """(later item, first item, their 3-grams) for each pair of items that can be `threshold`
    similar: their prefixes share a hash, and the ratio of their sizes (a bound of the
    similarity) reaches it; the first item is an earlier one when both are one document.

    From the later document's prefix index when it is unpacked (it is compared with every file
    before it), else item by item: a file compared once with each of many (after an edit of the
    root file) is not unpacked."""
    theirs = later.shingles.kept_unpacked(threshold)
    if theirs is not None:
        pairs = {
            (index, candidate)
            for gram in shared
            for index in theirs.prefixes[gram]
            for candidate in mine.prefixes[gram]
            if not same or candidate < index
        }
        found: Iterator[tuple[int, int, Collection[int], frozenset[int]]] = (
            (index, candidate, theirs.sets[index], mine.sets[candidate]) for index, candidate in pairs
        )
    else:
        found = (
            (index, candidate, grams, mine.sets[candidate])
            for index, grams in later.shingles.per_item()
            if not shared.isdisjoint(head := grams[: prefix_length(len(grams), threshold)])
            for candidate in {c for gram in head if gram in shared for c in mine.prefixes[gram] if not same or c < index}
        )
    return (pair for pair in found if min(len(pair[2]), len(pair[3])) / max(len(pair[2]), len(pair[3])) >= threshold)


def _parallel(doc: Document, matches: list[Match]) -> frozenset[tuple[int, int]]:
    """The sets of scopes of one file (`_scope_set`) whose parts repeat two items or more: lists
    written once per scope (a checklist per file type, rules per language, the same parameter of
    each tool), not an instruction written twice."""
    sets = Counter(scopes for m in matches if doc.items[m.later].kind != "section" and (scopes := _scope_set(doc, m)) is not None)
    return frozenset(scopes for scopes, count in sets.items() if count > 1)


def _scope_set(doc: Document, match: Match) -> tuple[int, int] | None:
    """The set of scopes the two copies of a repeat in one file belong to: the labels under one
    heading ("For agent files:", "For hooks:"; as (heading, -1)), or the sibling headings under one
    parent ("### Python", "### Rust" under "## Style"; as (parent, level)). None when the copies
    sit under headings of different levels or parents ("Setup", and "Rollback" under "Deployment")."""
    sections = doc.sections
    later, first = _heading(doc, doc.items[match.later]), _heading(doc, doc.items[match.first])
    if later == first:
        return later, -1
    if min(later, first) < 0 or sections[later].level != sections[first].level:
        return None
    parent = _parent(sections, later)
    return (parent, sections[later].level) if parent == _parent(sections, first) else None


def _per_scope(doc: Document, match: Match, parallel: Collection[tuple[int, int]]) -> bool:
    """Whether a repeat within one file is written once per scope: part of lists that repeat
    other items too (`_parallel`), the record of each entry ("**Maintainer:** … **Last
    Verified:** …" under each heading: `_records_itself`), or a field of two entries of one form
    (`_one_form`)."""
    return _scope_set(doc, match) in parallel or _records_itself(doc, doc.items[match.later]) or _one_form(doc, match)


def _one_form(doc: Document, match: Match) -> bool:
    """Whether the two copies sit under two headings of one level whose own list items fill
    FORM_FIELDS labelled fields or more alike ("**MCP Tool:**", "**CLI Command:**", "**Usage:**"
    under each tool of a reference): entries of one form, each complete on its own wherever the
    reference groups them, so the same parameter or note in two of them is the form's, not an
    instruction written twice."""
    later, first = _heading(doc, doc.items[match.later]), _heading(doc, doc.items[match.first])
    sections = doc.sections
    if min(later, first) < 0 or later == first or sections[later].level != sections[first].level:
        return False
    return len(doc.field_labels[later] & doc.field_labels[first]) >= FORM_FIELDS


def _two_entries(doc: Document, match: Match) -> bool:
    """Whether the two copies sit under one label written twice ("❌ Don't use for:" in each
    specialist's entry) over lists that mostly differ: a field of entries of one form, whose list
    belongs to its own entry. A label pasted again with its list is a copy."""
    (_, label, line), (_, other_label, other_line) = doc.contexts[match.later], doc.contexts[match.first]
    if other_line < 0 or line in (-1, other_line) or label != other_label:
        return False
    later_list, first_list = doc.label_lists[line], doc.label_lists[other_line]
    return 2 * len(later_list & first_list) <= len(later_list)


def _heading(doc: Document, item: Item) -> int:
    """The index in `doc.sections` of the heading `item` sits under (a section's own), or -1."""
    before = item.first - 1 if item.kind == "section" else item.first
    return bisect.bisect_right([s.line for s in doc.sections], before) - 1


def _parent(sections: list[Section], index: int) -> int:
    """The index of the heading that section `index` sits under, or -1."""
    level = sections[index].level
    return next((i for i in range(index - 1, -1, -1) if sections[i].level < level), -1)


def _repeats(first: Document, later: Document, match: Match, parallel: Collection[tuple[int, int]]) -> bool:
    """Whether the same words say the same thing twice. Not in a pointer file (CLAUDE.md and
    GEMINI.md saying alike that they extend AGENTS.md), nor when they are scoped differently:
    within one file under two labels or sibling headings whose lists repeat other items too,
    an entry's record or a field of two entries of one form (`_per_scope`: a checklist per file
    type, the same parameter of two tools of a reference), a cross-reference ("See … for
    …", `_CROSS_REFERENCE`) or a step of two numbered procedures (`_two_steps`) under two headings
    of one file, one label's list in two entries of one file (`_two_entries`), a checklist item under
    another heading in any file, an item about "this folder" or a relative path in files of two
    directories, or one about the file itself (its upkeep, a field of its header, its metadata)
    in files of two directories or two rule files. Nor two items alike but for their code
    (`_differ_in_code_only`), nor two copies a tool wrote into the blocks it keeps in two files
    (between its markers: edited by hand, the copy comes back when the tool runs again)."""
    item, other = later.items[match.later], first.items[match.first]
    if first.path != later.path and (tool := later.managed_by(item.first)) and tool == first.managed_by(other.first):
        return False
    if not match.exact and _differ_in_code_only(first, other, later, item):
        return False
    if first.path != later.path and (first.only_points or later.only_points):
        return False  # a pointer file's one sentence ("extends [AGENTS.md]") is boilerplate about its target
    context, other_context = later.contexts[match.later][:2], first.contexts[match.first][:2]  # heading, label
    scoped = (
        item.checklist
        or other.checklist
        or (
            first.path == later.path
            and (_per_scope(later, match, parallel) or _CROSS_REFERENCE.match(item.text) or _two_steps(first, other, later, item))
        )
    )
    if scoped and context != other_context:
        return False
    if first.path == later.path:
        return not _two_entries(later, match)
    two_directories = os.path.dirname(first.path) != os.path.dirname(later.path)
    if two_directories and _HERE.search(item.text):
        return False
    return not ((two_directories or _two_rules(first, later)) and _about_itself(later, item))


def _two_steps(first: Document, other: Item, later: Document, item: Item) -> bool:
    """Two items of numbered lists: the same step of two procedures ("3. Go back to phase 5 and fix
    it" under "Build errors" and under "Runtime errors")."""
    return all(
        one.kind == "bullet" and _NUMBERED_ITEM.match(doc.line(one.first)) is not None
        for doc, one in ((first, other), (later, item))
    )


def _two_rules(first: Document, later: Document) -> bool:
    """Two rule files (`.cursor/rules/*.mdc`, `.windsurf/rules/*.md`…): each one a file of its own,
    with its own record."""
    return in_rule_folder(first.path) and in_rule_folder(later.path)


def _differ_in_code_only(first: Document, other: Item, later: Document, item: Item) -> bool:
    """Whether two items say the same words about different code: code is literal, so two
    formats (`type: description`, `[type] description`) or two commands are two things, whatever
    punctuation-blind word matching makes of them."""
    code, prose = later.code_and_prose(item)
    other_code, other_prose = first.code_and_prose(other)
    return code != other_code and prose == other_prose


def _about_itself(doc: Document, item: Item) -> bool:
    """A bullet about the file that holds it (`_ABOUT_ITSELF`), the paragraph that opens the file
    and says what it is ("This file provides guidance to Claude Code…", which a generator writes
    atop every file), or a section that records the file (`_records_itself`: a per-directory
    template's "Change protocol", a metadata footer), and every bullet of such a section; a
    paragraph of record fields alone ("**Version:** 3.0.0", "**Updated:** 2026-04-05"), header or
    footer. Not another paragraph further down: "This document covers…" opens a section copied
    whole as often as a file's own record."""
    if item.kind in ("bullet", "paragraph") and _ABOUT_ITSELF.search(item.text):
        return item.kind == "bullet" or _opens(doc, item)
    if item.kind == "paragraph" and _only_record_fields(doc, item):
        return True
    if item.kind == "section":
        return _records_itself(doc, item)
    return item.kind == "bullet" and any(
        _records_itself(doc, section)
        for section in doc.items
        if section.kind == "section" and section.first <= item.first <= section.last
    )


def _only_record_fields(doc: Document, paragraph: Item) -> bool:
    """Whether every line of a paragraph is a field of the file's record, or one dated or
    versioned (`_DATED_FIELD`)."""
    lines = [normalize(doc.line(n)) for n in range(paragraph.first, paragraph.last + 1)]
    return all(_RECORD_LINE.match(line) or _DATED_FIELD.match(line) for line in lines if line)


def _opens(doc: Document, item: Item) -> bool:
    """Whether no bullet or paragraph of the file comes before `item`."""
    return not any(other.first < item.first for other in doc.items if other.kind != "section")


def _records_itself(doc: Document, section: Item) -> bool:
    """A section most of whose bullets are about the file, or a metadata block: two fields of the
    file's record or more on lines of their own ("**Last Updated:** …", "**Status:** …", then the
    file's topics and references). What it lists describes that file."""
    lines = range(section.first, section.last + 1)
    fields = sum(_RECORD_LINE.match(normalize(doc.line(n))) is not None for n in lines)
    return fields >= RECORD_FIELDS or _mostly_about_itself(doc, section)


def _mostly_about_itself(doc: Document, section: Item) -> bool:
    bullets = [i for i in doc.items if i.kind == "bullet" and section.first <= i.first <= section.last]
    return bool(bullets) and 2 * sum(bool(_ABOUT_ITSELF.search(b.text)) for b in bullets) >= len(bullets)


def _outside_duplicate_sections(first: Document, later: Document, matches: list[Match]) -> list[Match]:
    """A repeated section is one finding: the items inside it are not reported again."""
    sections = [later.items[m.later] for m in matches if later.items[m.later].kind == "section"]
    if not sections:
        return matches
    return [
        m
        for m in matches
        if later.items[m.later].kind == "section" or not any(s.first <= later.items[m.later].first <= s.last for s in sections)
    ]


# What comparing two documents gives: "identical", or the pairs of items that match.
Comparison = tuple[Match, ...] | Literal["identical"]


def compare_pair(first: Document, later: Document, threshold: float) -> Comparison:
    """`compare`, or "identical" for two different files with the same non-blank content, unless
    that content points at files relative to each (`@AGENTS.md` in two directories imports two
    different files: the same words, not the same instructions). A tuple: the comparisons of a
    monorepo are cached by the ten thousand, and most find nothing (one shared empty tuple)."""
    if first.path != later.path and first.raw == later.raw and rust_trim(first.text):
        if first.pointers == later.pointers or os.path.dirname(first.path) == os.path.dirname(later.path):
            return "identical"
        return ()
    return tuple(compare(first, later, threshold, same=first.path == later.path))
