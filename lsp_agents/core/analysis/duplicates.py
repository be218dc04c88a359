"""The same text loaded twice: `duplicate-instruction`, `near-duplicate-instruction`, `duplicate-file`.

Only what one harness loads together counts: a unit's loaded files are compared pairwise, and a
pair's comparison is cached (it depends on the two documents only), as are a file's facts after
the files before it (chains share their first files). Pairs of documents are compared in `item_pairs`.

The later copy is the one in the deeper directory (and, within one directory, the one loaded
later): opencode loads nearest first, Codex root first, and a nested file repeating the root is
the same finding for both.
"""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Callable, Iterator

from lsp_agents.core.analysis.base import FILE_START, directory_label, finding, names, plural, shown
from lsp_agents.core.analysis.deletion import Deletion
from lsp_agents.core.analysis.document import Document, DocumentOf
from lsp_agents.core.analysis.facts import Env, Fact, PathCache, Repeat, group
from lsp_agents.core.analysis.hygiene import DEPRECATED
from lsp_agents.core.analysis.item_pairs import Comparison, compare_pair
from lsp_agents.core.model import Finding, Fix, Related, TextEdit
from lsp_agents.core.real_paths import real_path
from lsp_agents.core.text import approx_tokens
from lsp_agents.core.walk import is_within

# Files of one rule folder that hold the same text are a family written from one template (rules
# generated per topic, each saying where its canonical source is and how it was made): the text is
# the template's boilerplate, changed in the generator, not a copy someone should delete.
TEMPLATE_FAMILY = 3

PairCache = PathCache[tuple[str, str], Comparison]  # the comparison of each pair of files
PrefixCache = PathCache[tuple[str, ...], list[Fact]]  # the facts of each chain prefix's last file


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
    # Every comparison is cached, also past an identical file: `revalidate` tells from them when to redo this.
    results = [pairs.get((first.path, later.path), functools.partial(compare_pair, first, later, threshold)) for first in docs]
    copied = next((first for first, result in zip(docs, results, strict=True) if isinstance(result, str)), None)
    if copied is not None:  # "identical": the whole file is the repeat, its items are not reported one by one
        return [Fact("duplicate-file", later.path, "", "", "file", copied.path)]
    facts = []
    reported: set[int] = set()
    for first, result in zip(docs, results, strict=True):
        assert not isinstance(result, str)
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
                    Repeat(first.path, first.items[match.first], item, match.similarity, match.deletions),
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
    first = facts[0].payload(str)
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
    sent_before = _sent_before(env, path)
    for _key, grouped in group(facts).items():
        repeat = grouped[0].payload(Repeat)
        first_path, first_item, item, similarity = repeat.first_path, repeat.first_item, repeat.item, repeat.similarity
        first_sent_before = sent_before if first_path == path else _sent_before(env, first_path)
        items = [f for f in grouped if item.last < sent_before(f) and first_item.last < first_sent_before(f)]
        if not items:
            continue  # every unit that loads both copies cuts one off before it: nothing is sent twice
        if items[0].code == "duplicate-instruction" and _family_boilerplate(env, path, first_path, item.text):
            continue
        what = {"bullet": "bullet", "paragraph": "paragraph", "section": "section body"}[item.kind]
        if items[0].code == "duplicate-instruction":
            same = "repeats"
        elif similarity >= 0.995:  # the same words, other punctuation or formatting
            same = "repeats, in other punctuation,"
        else:
            same = f"is {similarity:.0%} similar to"
        first_doc = env.document(first_path)
        first_line = first_doc.text_start(first_item) if first_doc else first_item.first
        at = f"line {first_line + 1}"
        where, loads = (
            (f"{at} earlier in this file", "Loaded")
            if first_path == path
            else (f"{at} of {shown(first_path, env.root)}", "Both load together")
        )
        message = (
            f"{item.size} bytes (~{approx_tokens(item.size)} tokens) wasted: this {what} {same} {where}; keep one copy. "
            f"{loads} for {names(f.harness for f in items)}, launched from {_where(items, env.root)}"
        )
        span = doc.line_span(doc.text_start(item), item.last)
        first_span = first_doc.line_span(first_line, first_item.last) if first_doc else FILE_START
        found.append(
            finding(
                items[0].code,
                path,
                span,
                message,
                harnesses=[f.harness for f in items],
                related=[Related(first_path, first_span, "the first copy")],
                fix=_deletion(env, (path, first_path), repeat.deletions, {(f.harness, f.cwd) for f in items}),
                unnecessary=True,
            )
        )
    return found


def _sent_before(env: Env, path: str) -> Callable[[Fact], int]:
    """For a unit's fact, the line of `path` at which that unit stops sending it (its harness cuts
    it short there), or past the last line."""
    doc = env.document(path)
    cuts = env.cuts(path)
    if doc is None or not cuts:
        return lambda _fact: sys.maxsize
    lines = {unit: doc.byte_position(at)[0] for unit, at in cuts.items()}
    return lambda fact: lines.get((fact.harness, fact.cwd), sys.maxsize)


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
