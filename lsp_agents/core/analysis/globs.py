"""Rule-file headers: `invalid-frontmatter` and `glob-matches-nothing`.

Three rule types carry globs (`HarnessSpec.rule_header`): Claude Code rules (`.claude/rules/**/*.md`,
`paths:` relative to the directory holding `.claude`, gitignore-style), Copilot instructions (`.github/instructions/**/
*.instructions.md`, `applyTo`, unanchored and case-insensitive as VS Code matches it) and Cursor
rules (`.cursor/rules/**/*.mdc`, `globs`). Globs are untrusted: they go through the bounded
compiler, and one it refuses is an `invalid-frontmatter` finding, never a hang; so is a list longer
than the cap (the first MAX_LIST_PATTERNS are evaluated). Matching runs over
the discovered files, narrowed by a sorted path list and the pattern's literal prefix.
"""

from __future__ import annotations

import bisect
import functools
import os
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from lsp_agents.core.analysis.base import finding, shown
from lsp_agents.core.analysis.document import Document
from lsp_agents.core.frontmatter import FrontmatterError, pattern_list, split_frontmatter
from lsp_agents.core.globs import GlobError, compile_patterns
from lsp_agents.core.harnesses import HARNESSES
from lsp_agents.core.harnesses.spec import GlobStyle, HarnessSpec, RuleHeader
from lsp_agents.core.model import Finding, Span
from lsp_agents.core.patterns import MAX_LIST_PATTERNS, cap

ALWAYS = frozenset({"*", "**", "**/*"})
_ABOVE_EVERY_CHARACTER = "\U0010ffff"  # a path followed by it sorts after every path below it
_LITERAL = re.compile(r"[^*?\[{]*")
_WILDCARD = re.compile(r"[*?\[{]")


@dataclass(frozen=True, slots=True)
class RuleType:
    spec: HarnessSpec
    header: RuleHeader

    @property
    def harness(self) -> str:
        return self.spec.id

    @property
    def marker(self) -> str:
        """The directory segments that make a file this type, with the platform's separator."""
        return os.sep + self.header.folder.replace("/", os.sep) + os.sep


@functools.cache
def rule_types() -> tuple[RuleType, ...]:
    """The rule types of the registry's harnesses, in its order."""
    return tuple(RuleType(h.spec, h.spec.rule_header) for h in HARNESSES.values() if h.spec.rule_header is not None)


def rule_type(path: str) -> tuple[RuleType, str] | None:
    """The rule type of a file and the directory its globs are relative to, if it is a rule file."""
    for kind in rule_types():
        index = path.rfind(kind.marker)
        if index >= 0 and path.endswith(kind.header.suffix):
            return kind, path[:index]
    return None


@functools.cache
def _rule_folders() -> tuple[str, ...]:
    """`/<folder>/` of each folder of rule files a registry harness reads (`.windsurf/rules`…)."""
    return tuple(f"/{f.folder}/" for h in HARNESSES.values() for f in h.spec.rule_files if "*" in f.files)


def in_rule_folder(path: str) -> bool:
    """Whether `path` is a rule file: of a rule type, or a file of a folder of rules."""
    slashed = path.replace(os.sep, "/")
    return rule_type(path) is not None or any(folder in slashed for folder in _rule_folders())


class FileList:
    """The discovered files, sorted, as '/'-separated paths below the root; prefix ranges by
    bisection. Holds the index's own path strings (a copy of 100,000 paths costs 13 MiB) and
    makes each relative path only while it is matched."""

    def __init__(self, root: str, files: Iterable[str]) -> None:
        self.root = root
        self._base = root.rstrip(os.sep) + os.sep
        self._paths = sorted(files)
        # What each rule's patterns do among these files (`_evaluate`): asked once for the rule's own
        # findings and once for its folder's (`matches_nothing`), matched once.
        self.verdicts: dict[tuple[str, str, tuple[str, ...]], _Globs] = {}

    def _relative(self, path: str) -> str:
        return path[len(self._base) :].replace(os.sep, "/")

    @functools.cached_property
    def folder_names(self) -> frozenset[str]:
        """The name of every directory that holds a discovered file."""
        return frozenset(part for path in self._paths for part in self._relative(path).split("/")[:-1])

    def under(self, prefix: str = "", ending: str = "", *, fold: bool = False) -> Iterator[str]:
        """The relative paths that start with `prefix` ('/'-separated), of the files whose path
        ends with `ending` (with `fold`, without regard to case): tested on the stored path, so
        the files it leaves out (most of them, for a pattern that matches nothing) cost no
        relative path."""
        low = self._base + prefix.replace("/", os.sep)
        start = bisect.bisect_left(self._paths, low)
        end = bisect.bisect_left(self._paths, low + _ABOVE_EVERY_CHARACTER, start)
        folded = ending.lower()
        for path in self._paths[start:end]:  # (`islice` would step over the `start` paths before them)
            if path[len(path) - len(ending) :].lower() == folded if fold else path.endswith(ending):
                yield self._relative(path)


def _key_line(doc: Document, key: str) -> Span:
    for number in range(min(doc.frontmatter[3], doc.line_count)):
        if doc.line(number).startswith(f"{key}:"):
            return Span(number, 0, number, len(key))
    return doc.line_span(0)


def _patterns(kind: RuleType, value: object) -> list[str]:
    patterns = pattern_list(value)
    if kind.header.style is GlobStyle.GITIGNORE_FOLDER_IS_CONTENTS:
        patterns = [p[:-3] if p.endswith("/**") else p for p in patterns]
    return [p for p in patterns if p]


def _matches_any(kind: RuleType, base: str, pattern: str, files: FileList) -> bool:
    """Whether `pattern` matches a discovered file; raises GlobError past the glob bounds."""
    rel_base = "" if base == files.root else os.path.relpath(base, files.root).replace(os.sep, "/") + "/"
    if kind.header.style is GlobStyle.ANYWHERE_IGNORE_CASE:
        prefixed = pattern if pattern.startswith(("/", "**/")) else "**/" + pattern
        predicate = compile_patterns([prefixed], anchored=True, ignore_case=True)
        return any(predicate(rel) for rel in files.under())
    predicate = compile_patterns([pattern], anchored=False)
    literal = _text(_LITERAL.match(pattern.lstrip("/")))
    anchored = "/" in pattern.rstrip("/")
    prefix = rel_base + (literal[: literal.rfind("/") + 1] if anchored else "")
    last_segment = pattern.rstrip("/").rsplit("/", 1)[-1]
    suffix = _text(re.search(r"[^*?\[\]{}]*$", last_segment)) if _WILDCARD.search(last_segment) else ""
    # A suffix holds no '/', so a relative path ends with it only if the stored one does.
    if any(predicate(rel[len(rel_base) :]) for rel in files.under(prefix, suffix) if rel.endswith(suffix)):
        return True
    if not kind.header.style.ignores_case:
        return False
    # Matched without regard to case (Claude Code): the files below the rule's folder, narrowed as
    # above but with case folded, for the patterns that match none in their own case (the stale ones).
    folded = compile_patterns([pattern], anchored=False, ignore_case=True)
    start = prefix[len(rel_base) :].lower()
    return any(
        folded(rel[len(rel_base) :])
        for rel in files.under(rel_base, suffix, fold=True)
        if rel[len(rel_base) :].lower().startswith(start)
    )


def _names_missing_folder(pattern: str, files: FileList) -> bool:
    """Whether the pattern means "in any folder named X" (`**/github-issues/**`) and no such
    folder exists yet: a rule for files the agent is to create there, not one that went stale.
    An anchored path (`src/legacy/**`) that matches nothing did go stale."""
    if not pattern.startswith("**/"):
        return False
    folders = pattern.split("/")[1:-1]
    return any(f and f != "**" and not _WILDCARD.search(f) and f not in files.folder_names for f in folders)


def _names_file_types_only(pattern: str) -> bool:
    """Whether the pattern only names a kind of file, in any folder (`**/*.dart`, `*.feature`,
    `**.{ts,tsx}`): a rule for a language or file type the repository has none of (yet), as
    rule sets shipped for every language hold; dormant, not stale. A pattern that names a folder
    (`src/legacy/**/*.ts`) and matches nothing did go stale."""
    return all(segment == "**" or _WILDCARD.search(segment) for segment in pattern.strip("/").split("/"))


def _header(doc: Document, kind: RuleType) -> tuple[Mapping[object, object], FrontmatterError | None]:
    """A rule's header fields, read as its harness reads them, and the error that voids it."""
    fields, _start, error, _first_line = doc.frontmatter
    if kind.header.loose and error:
        fields, _body, error = split_frontmatter(doc.text, loose=True)
    return fields or {}, error


def _sent_always(kind: RuleType, fields: Mapping[object, object]) -> bool:
    """The header says the rule is sent whatever its globs match (Cursor's `alwaysApply: true`)."""
    return kind.header.always_key is not None and fields.get(kind.header.always_key) is True


@dataclass(frozen=True, slots=True)
class _Globs:
    """What a rule's patterns do here: `unmatched` holds them all when none applies; `matched`
    says one matches a file; `refused` is the first one the bounded compiler refuses, and why
    (then nothing more is evaluated)."""

    unmatched: tuple[str, ...] = ()
    matched: bool = False
    refused: tuple[str, GlobError] | None = None


def _evaluate(kind: RuleType, base: str, patterns: Sequence[str], files: FileList) -> _Globs:
    key = (kind.harness, base, tuple(patterns))
    if (verdict := files.verdicts.get(key)) is None:
        verdict = files.verdicts[key] = _evaluated(kind, base, patterns, files)
    return verdict


def _evaluated(kind: RuleType, base: str, patterns: Sequence[str], files: FileList) -> _Globs:
    """A pattern applies when it matches a file, or names file types or a folder meant to be
    created; a rule none of whose patterns applies is stale here."""
    for pattern in patterns:
        if pattern in ALWAYS:
            return _Globs()
        try:
            if _matches_any(kind, base, pattern, files):
                return _Globs(matched=True)
            if _names_missing_folder(pattern, files) or _names_file_types_only(pattern):
                return _Globs()  # for files meant to be created
        except GlobError as exc:
            return _Globs(refused=(pattern, exc))
    return _Globs(unmatched=tuple(patterns))


def _refused(kind: RuleType, patterns: Sequence[str]) -> tuple[str, GlobError] | None:
    """The first pattern the bounded compiler refuses, and why: broken wherever the rule is."""
    ignore_case = kind.header.style is GlobStyle.ANYWHERE_IGNORE_CASE
    for pattern in patterns:
        try:
            compile_patterns([pattern], anchored=ignore_case, ignore_case=ignore_case)
        except GlobError as exc:
            return pattern, exc
    return None


def matches_nothing(doc: Document, files: FileList) -> bool | None:
    """For a rule file whose globs decide when it is sent: True when they name paths none of
    which exists here, False when one matches a file; None for a rule waiting for files not
    created yet, and for any other file."""
    typed = rule_type(doc.path)
    if typed is None:
        return None
    kind, base = typed
    fields, error = _header(doc, kind)
    patterns = cap(_patterns(kind, fields.get(kind.header.key)), MAX_LIST_PATTERNS, keep_long=True).patterns
    if error or _sent_always(kind, fields):
        return None
    verdict = _evaluate(kind, base, patterns, files)
    return True if verdict.unmatched else (False if verdict.matched else None)


def _missing_key(doc: Document, kind: RuleType, said: str) -> Finding:
    key = kind.header.key
    return finding(
        "missing-apply-to",
        doc.path,
        doc.line_span(0),
        f'no {key}: {said}; add {key}: "**" to attach it to every request, or a pattern for the files it is about',
        harnesses=[kind.harness],
    )


def _text(match: re.Match[str] | None) -> str:
    """What a pattern that matches every string (the empty string at worst) matched."""
    assert match is not None
    return match.group()


def frontmatter_findings(doc: Document, files: FileList, harnesses: tuple[str, ...], files_here: bool) -> list[Finding]:
    """The header's findings. `files_here`: the rule belongs to a directory whose files are in the
    workspace (a launch directory, a complete example); a template's rules are about the files of
    the project made from it, so whether their globs match here says nothing."""
    typed = rule_type(doc.path)
    if typed is None:
        return []
    kind, base = typed
    header = kind.header
    fields, error = _header(doc, kind)
    found = []
    if error:
        line = error.line - 1 if error.line is not None else 0
        found.append(
            finding("invalid-frontmatter", doc.path, doc.line_span(line), f"{error.message}: {kind.harness} ignores the header")
        )
        return found
    if header.list_ignored is not None and isinstance(fields.get(header.key), list):
        return [
            finding("invalid-frontmatter", doc.path, _key_line(doc, header.key), header.list_ignored, harnesses=[kind.harness])
        ]
    if header.without_key is not None and not pattern_list(fields.get(header.key)) and kind.harness in harnesses:
        found.append(_missing_key(doc, kind, header.without_key))
    for key in header.boolean_keys:
        if key in fields and not isinstance(fields[key], bool):
            found.append(
                finding(
                    "invalid-frontmatter",
                    doc.path,
                    _key_line(doc, key),
                    f"{key} is {fields[key]!r}, not a boolean: {kind.spec.title} does not treat it as true",
                )
            )
    capped = cap(_patterns(kind, fields.get(header.key)), MAX_LIST_PATTERNS, keep_long=True)
    if capped.ignored:
        found.append(
            finding(
                "invalid-frontmatter",
                doc.path,
                _key_line(doc, kind.header.key),
                f"{kind.header.key}: more patterns than are evaluated: {capped.ignored}",
            )
        )
    refused = _refused(kind, capped.patterns)
    if refused is None and (not files_here or _sent_always(kind, fields)):
        return found  # a template's rule, or one sent whatever its globs match
    verdict = _evaluate(kind, base, capped.patterns, files) if refused is None else _Globs(refused=refused)
    unmatched = verdict.unmatched
    if verdict.refused is not None:
        pattern, exc = verdict.refused
        found.append(
            finding(
                "invalid-frontmatter",
                doc.path,
                _key_line(doc, kind.header.key),
                f"glob {pattern[:80]!r} cannot be evaluated within bounds: {exc}",
            )
        )
    elif unmatched:
        where = shown(base, files.root) + "/" if base != files.root else "the workspace"
        listed = ", ".join(repr(p) for p in unmatched)
        what = (
            f"its {kind.header.key} pattern {listed} matches no file"
            if len(unmatched) == 1
            else f"none of its {kind.header.key} patterns ({listed}) matches a file"
        )
        found.append(
            finding(
                "glob-matches-nothing",
                doc.path,
                _key_line(doc, kind.header.key),
                f"{what} in {where}: {header.never}",
                harnesses=[kind.harness],
            )
        )
    return found
