"""The same text loaded twice: `duplicate-instruction`, `near-duplicate-instruction`, `duplicate-file`.

Only what one harness loads together counts: a unit's loaded files are compared pairwise, and a
pair's comparison is cached (it depends on the two documents only), as are a file's facts after
the files before it (chains share their first files). Near-duplicates use the Jaccard
similarity of word 3-gram sets; candidates come from an index of each item's smallest hashes
(prefix filtering), so items that cannot reach the threshold are never measured.

The later copy is the one in the deeper directory (and, within one directory, the one loaded
later): opencode loads nearest first, Codex root first, and a nested file repeating the root is
the same finding for both.
"""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Collection, Iterator
from dataclasses import dataclass, replace
from typing import Literal

from lsp_agents.core.analysis.base import FILE_START, directory_label, finding, names, plural, shown
from lsp_agents.core.analysis.deletion import Deletion, plan
from lsp_agents.core.analysis.document import Document, DocumentOf, Item
from lsp_agents.core.analysis.facts import Env, Fact, PathCache, group
from lsp_agents.core.analysis.hygiene import DEPRECATED
from lsp_agents.core.analysis.shingles import Unpacked, prefix_length
from lsp_agents.core.fs import real_path
from lsp_agents.core.model import Finding, Fix, Related, TextEdit
from lsp_agents.core.text import approx_tokens, rust_trim
from lsp_agents.core.walk import is_within

# Words that point from the file's own place ("this folder", "../AGENTS.md"): the same sentence in
# two directories says two things.
_HERE = re.compile(
    r"\bthis (?:folder|directory|dir|package|module|subproject|project|app|crate|workspace)\b|\bin here\b"
    r"|(?:^|[\s(\[\"'])\.{1,2}/"
)

# An item about the file that holds it, its upkeep ("update this file when routes change", "bump
# the last-reviewed date") or a field of its header ("Owners: …", "Status: …"): each file of a
# per-directory template keeps its own, so the same words in two directories are two records.
_ABOUT_ITSELF = re.compile(
    r"\bthis (?:file|document|doc|page|(?:agents|claude|gemini|qwen|agent)\.md)\b"
    r"|^(?:owners?|maintainers?|status|last[- ](?:reviewed|updated|modified|verified|edited)|authors?)\s*:"
    r"|\b(?:bump|update|refresh|set)\b.*\blast[- ](?:reviewed|updated|modified|verified|edited)\b"
)


# Files of one rule folder that hold the same text are a family written from one template (rules
# generated per topic, each saying where its canonical source is and how it was made): the text is
# the template's boilerplate, changed in the generator, not a copy someone should delete.
TEMPLATE_FAMILY = 3


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
    matches = [m for m in matches if _repeats(first, later, m)]
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


def _repeats(first: Document, later: Document, match: Match) -> bool:
    """Whether the same words say the same thing twice. Not in a pointer file (CLAUDE.md and
    GEMINI.md saying alike that they extend AGENTS.md), nor when they are scoped differently:
    within one file under another heading (a checklist per file type), a checklist item under
    another heading in any file, or an item about "this folder", a relative path or the file
    itself (its upkeep, a field of its header) in files of two directories."""
    item, other = later.items[match.later], first.items[match.first]
    if first.path != later.path and (first.only_points or later.only_points):
        return False  # a pointer file's one sentence ("extends [AGENTS.md]") is boilerplate about its target
    if first.path == later.path or item.checklist or other.checklist:
        return later.contexts[match.later] == first.contexts[match.first]
    if os.path.dirname(first.path) != os.path.dirname(later.path):
        return not (_HERE.search(item.text) or _about_itself(later, item))
    return True


def _about_itself(doc: Document, item: Item) -> bool:
    """A bullet about the file that holds it (`_ABOUT_ITSELF`), or a section most of whose bullets
    are (a per-directory template's "Change protocol"), and every bullet of such a section. Not a
    paragraph: "This document covers…" opens a guide copied whole as often as a file's own record."""
    if item.kind == "bullet" and _ABOUT_ITSELF.search(item.text):
        return True
    if item.kind == "section":
        return _mostly_about_itself(doc, item)
    return item.kind == "bullet" and any(
        _mostly_about_itself(doc, section)
        for section in doc.items
        if section.kind == "section" and section.first <= item.first <= section.last
    )


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
PairCache = PathCache[tuple[str, str], Comparison]  # the comparison of each pair of files
PrefixCache = PathCache[tuple[str, ...], list[Fact]]  # the facts of each chain prefix's last file


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


def _order(paths: list[str], root: str) -> list[str]:
    """Files outside the workspace (global files) first, then by directory depth, then by path.

    Harnesses disagree on load order (opencode nearest first, Codex root first; Claude sends an
    imported AGENTS.md after CLAUDE.md, Copilot before it), so one fixed order names the same
    copy as the duplicate whichever harness loads the pair.
    """

    def key(path: str) -> tuple[int, str]:
        return (path.count(os.sep) if is_within(path, root) else 0), path

    return sorted(paths, key=key)


def prefixes(loaded: list[str], root: str) -> Iterator[tuple[str, ...]]:
    """The sources of a chain's repeats: each workspace file with the files before it (a file's
    facts depend on those only). Chains share their first files, so the sources too. Lazily:
    n files make n prefixes of n / 2 paths on average, which a chain of thousands of imports
    must not allocate before the work on them is timed."""
    ordered = _order(loaded, root)
    return (tuple(ordered[: j + 1]) for j, path in enumerate(ordered) if is_within(path, root))


def prefix_facts(
    prefix: tuple[str, ...], document: DocumentOf, caches: tuple[PairCache, PrefixCache], threshold: float
) -> list[Fact]:
    """Repeats in the last file of `prefix` of itself and of the files before it. `harness` and
    `cwd` are left empty (each unit that loads the files supplies its own). `caches`: the
    comparisons per pair, and these facts per prefix."""
    pairs, repeats = caches
    return repeats.get(
        prefix, lambda: _facts_of_last([d for p in prefix if (d := document(p)) is not None], prefix[-1], pairs, threshold)
    )


def _facts_of_last(docs: list[Document], last: str, pairs: PairCache, threshold: float) -> list[Fact]:
    """What the document of `last` (the last of `docs` when readable) repeats of itself and of the files before it."""
    if not docs or docs[-1].path != last:
        return []
    later = docs[-1]
    later.shingles.unpacked(threshold)  # compared with every file before it: unpacked once (see `_item_pairs`)
    facts = []
    reported: set[int] = set()
    for first in docs:
        result = pairs.get((first.path, later.path), functools.partial(compare_pair, first, later, threshold))
        if isinstance(result, str):  # "identical"
            facts.append(Fact("duplicate-file", later.path, "", "", "file", first.path))
            break
        for match in result:
            if match.later in reported:
                continue
            reported.add(match.later)
            code = "duplicate-instruction" if match.exact else "near-duplicate-instruction"
            item = later.items[match.later]
            facts.append(
                Fact(
                    code,
                    later.path,
                    "",
                    "",
                    (code, item.first, item.last),
                    (first.path, first.items[match.first], item, match.similarity, match.deletions),
                )
            )
    return facts


def revalidate(
    changed: set[str], before: dict[str, Document], document: DocumentOf, caches: tuple[PairCache, PrefixCache], threshold: float
) -> set[tuple[str, ...]]:
    """After an edit of `changed` (readable before, `before`, and after): forget the cached
    comparisons and prefix facts the edit may have changed and keep the others. A prefix that
    ends in an edited file is redone; one that ends in another file only when its comparison
    with an edited file now reads differently (typing in the root file leaves the repeats of
    the thousand files below it as they were). Returns the prefixes forgotten."""
    pairs, repeats = caches
    old_pairs = pairs.forget(changed)
    old_prefixes = repeats.forget(changed)
    moved = set()
    for (first, later), old in old_pairs.items():
        if later in changed:
            continue  # the prefixes ending in it are redone
        first_doc, later_doc = document(first), document(later)
        assert first_doc is not None and later_doc is not None  # they were compared, and no file came or went
        new = pairs.get((first, later), functools.partial(compare_pair, first_doc, later_doc, threshold))
        if _reading(old, before[first]) != _reading(new, first_doc):
            moved.add((first, later))
    stale = set()
    for prefix, facts in old_prefixes.items():
        if prefix[-1] in changed or any((path, prefix[-1]) in moved for path in prefix[:-1] if path in changed):
            stale.add(prefix)
        else:
            repeats.put(prefix, facts)
    return stale


def _reading(result: Comparison, first: Document) -> object:
    """What a comparison puts in facts: the matches and the earlier file's items they name."""
    return result if isinstance(result, str) else [(match, first.items[match.first]) for match in result]


def _where(items: list[Fact], root: str) -> str:
    cwds = sorted({f.cwd for f in items}, key=lambda d: (d != root, d))
    return directory_label(cwds[0], root) + (f" and {plural(len(cwds) - 1, 'other launch directory')}" if len(cwds) > 1 else "")


def aggregate_file(env: Env, path: str, facts: list[Fact]) -> list[Finding]:
    first = facts[0].data
    doc = env.document(path)
    size = len(doc.raw) if doc else 0
    same = "the same file as" if real_path(path) == real_path(first) else "same content as"
    message = (
        f"{size} bytes (~{approx_tokens(size)} tokens) sent twice: {same} {shown(first, env.root)}; keep one of them. "
        f"Both load together for {names(f.harness for f in facts)}, launched from {_where(facts, env.root)}"
    )
    return [
        finding(
            "duplicate-file",
            path,
            FILE_START,
            message,
            harnesses=[f.harness for f in facts],
            related=[Related(first, FILE_START, "the first copy")],
            unnecessary=True,
        )
    ]


def aggregate_items(env: Env, path: str, facts: list[Fact]) -> list[Finding]:
    doc = env.document(path)
    if doc is None:
        return []
    found = []
    for _key, items in group(facts).items():
        first_path, first_item, item, similarity, deletions = items[0].data
        if items[0].code == "duplicate-instruction" and _family_boilerplate(env, path, first_path, item.text):
            continue
        what = {"bullet": "bullet", "paragraph": "paragraph", "section": "section body"}[item.kind]
        if items[0].code == "duplicate-instruction":
            same = "repeats"
        elif similarity >= 0.995:  # the same words, other punctuation or formatting
            same = "repeats, in other punctuation,"
        else:
            same = f"is {similarity:.0%} similar to"
        at = f"line {first_item.first + 1}"
        where, loads = (
            (f"{at} earlier in this file", "Loaded")
            if first_path == path
            else (f"{at} of {shown(first_path, env.root)}", "Both load together")
        )
        message = (
            f"{item.size} bytes (~{approx_tokens(item.size)} tokens) wasted: this {what} {same} {where}; keep one copy. "
            f"{loads} for {names(f.harness for f in items)}, launched from {_where(items, env.root)}"
        )
        span = doc.line_span(item.first, item.last)
        first_doc = env.document(first_path)
        first_span = first_doc.line_span(first_item.first, first_item.last) if first_doc else FILE_START
        found.append(
            finding(
                items[0].code,
                path,
                span,
                message,
                harnesses=[f.harness for f in items],
                related=[Related(first_path, first_span, "the first copy")],
                fix=_deletion(env, (path, first_path), deletions, {(f.harness, f.cwd) for f in items}),
                unnecessary=True,
            )
        )
    return found


def _family_boilerplate(env: Env, path: str, first_path: str, text: str) -> bool:
    """Whether `text` (normalised) is held by at least TEMPLATE_FAMILY files of the rule folder both copies lie in."""
    if os.path.dirname(first_path) != os.path.dirname(path):
        return False
    holders = 0
    for sibling in env.rule_folder_files(path):
        doc = env.document(sibling)
        holders += doc is not None and text in doc.exact
        if holders >= TEMPLATE_FAMILY:
            return True
    return False


def _deletion(
    env: Env, paths: tuple[str, str], deletions: tuple[Deletion | None, Deletion | None], together: set[tuple[str, str]]
) -> Fix | None:
    """Delete the copy that costs least to lose: the one in a deprecated file (.cursorrules,
    CONTEXT.md, AGENT.md), else the one in the file fewer harnesses read, else the later one;
    only the lines of it that the other copy holds (`deletion.plan`). Never a copy that some
    harness, launched from some directory, loads without the other (`together`: the units that
    load both): the copy in CLAUDE.md that Copilot also finds in AGENTS.md is Claude Code's only
    one, and a root file's copy the only one where the nested file is not loaded. Nothing when a
    copy is a symlink: the edit would land in its target, which may be the other copy."""
    later_path, first_path = paths
    if env.is_link(later_path) or env.is_link(first_path):
        return None

    def cost(path: str) -> tuple[bool, int, bool]:
        harnesses = {harness for harness, _cwd in env.loaders(path)}
        return os.path.basename(path) not in DEPRECATED, len(harnesses), path != later_path

    copies = {later_path: deletions[0]} if first_path == later_path else {later_path: deletions[0], first_path: deletions[1]}
    for path in sorted(copies, key=cost):
        deletion = copies[path]
        if deletion is not None and env.loaders(path) <= together:
            where = "" if path == later_path else f" in {shown(path, env.root)}"
            return Fix(f"Delete {deletion.what}{where}", edits=tuple(TextEdit(path, span, "") for span in deletion.spans))
    return None
