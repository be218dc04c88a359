"""One instruction file as the analysis sees it: text, line table, Markdown structure, suppressions
(`suppressions`), word 3-grams (`shingles`).

A Document is built once per file content and cached by the Analyzer, so comparing a file with
every chain it belongs to costs one parse. Structure comes from markdown-it-py's block parser:
headings, list items and paragraphs become `Item`s whose text is normalised for whitespace,
case, list markers and emphasis, the form duplicates are compared in. Only the block pass runs
(inline parsing is not needed: block tokens carry source line maps).
"""

from __future__ import annotations

import bisect
import os
import re
from array import array
from collections.abc import Callable
from functools import cached_property
from itertools import pairwise

from markdown_it import MarkdownIt

from lsp_agents.core.analysis.document_items import Item, Section
from lsp_agents.core.analysis.markdown_links import link_targets, without_link_targets
from lsp_agents.core.analysis.shingles import Shingles
from lsp_agents.core.analysis.suppressions import Suppressions, parse_suppressions
from lsp_agents.core.frontmatter import Fields, FrontmatterError, split_frontmatter
from lsp_agents.core.fs import FileData
from lsp_agents.core.imports import claude_import_refs
from lsp_agents.core.model import Span

# Link reference definitions and setext ("Title\n=====") headings are left to the paragraph rule:
# they are rare in instruction files and their block rules cost half of the parse.
_MARKDOWN = MarkdownIt("commonmark").disable(["inline", "text_join", "reference", "lheading"])
_EMPHASIS = re.compile(r"[*_~`]+")
_LIST_MARKER = re.compile(r"^\s*(?:[-*+]|\d{1,9}[.)])\s+")
_WORD = re.compile(r"\w+")
POINTER_OWN_BYTES = 600  # what a pointer file may say besides pointing: one paragraph
MIN_WORDS = 4  # shorter items ("- Yes.") repeat by nature; they are not worth a finding
# A paragraph that only introduces what follows: "For agent files (*.agent.md):", "**For Hooks:**".
_LABEL = re.compile(r"^(?:[^\n]{0,160}:|\*\*[^*\n]+\*\*:?|__[^_\n]+__:?)$")
# Bounded repetitions throughout: workspace text is untrusted, and an unbounded `[^\]]*` scans to
# the end of the line from each of 100,000 `[`.
_CODE_SPAN = re.compile(r"`[^`\n]{0,500}`")  # a code span counts as one word
_LISTING_ENTRY = re.compile(r"^[^:`\[\n]{1,80}:\s*(?:`[^`\n]+`|\[[^\]\n]*\]\([^)\n]*\))[.,;]?$")
# A list item that fills a labelled field ("- **Usage:** …", "* **MCP Tool:** `next_task`").
_FIELD_LABEL = re.compile(r"^\s{0,12}(?:[-*+]|\d{1,9}[.)])\s+\*\*([^*\n]{1,60})\*\*")
_CHECKBOX = re.compile(r"^\[[ xX]\]\s")
_CHECKLIST = re.compile(r"\bcheck ?lists?\b")  # in a normalised heading: "## Pre-commit checklist"
_BARE_PATH = re.compile(r"^\s*([\w.\-/]+\.md)\s*$", re.MULTILINE)
# The markers a tool writes around the block it manages in an instruction file, `<!-- NAME:start -->`
# … `<!-- NAME:end -->` or `<!-- BEGIN NAME -->` … `<!-- END NAME -->` (`:` or a blank after the word).
_MARKER = re.compile(
    r"<!--[ \t]{0,8}(?:(?P<word>BEGIN|START|END)[ \t:]{1,8}(?P<name>[\w .:-]{1,80}?)|(?P<tool>[\w.-]{1,80}):(?P<edge>start|begin|end))[ \t]{0,8}-->",
    re.IGNORECASE,
)


def normalize(text: str) -> str:
    """Lower case, no list marker, no emphasis or code marks, single spaces."""
    lines = [_LIST_MARKER.sub("", line, count=1) for line in text.splitlines()]
    return " ".join(_EMPHASIS.sub("", " ".join(lines)).lower().split())


def _in_checklist(headings: list[tuple[int, str, int]]) -> bool:
    """Whether the current heading, or one it sits under, names a checklist ("## Pre-commit
    checklist", then "### Backend"); `headings`: (level, normalised text, line) so far."""
    level = 7
    for heading_level, text, _line in reversed(headings):
        if heading_level < level:
            if _CHECKLIST.search(text):
                return True
            level = heading_level
    return False


def _bullet_text(parts: list[str]) -> str:
    """What a list item says: its lead ("Run the tests before every commit", the details below
    it being this copy's own), or, when the lead only introduces what is nested under it
    ("Packages under `packages/`:"), the whole item: two lists under one lead differ."""
    lead = parts[0]
    return "\n".join(parts) if len(parts) > 1 and _is_label(lead.strip()) else lead


def _is_label(text: str) -> bool:
    """Whether a paragraph or a list item's lead only introduces what follows: "Packages:",
    "**For Hooks:**", also with its colon inside the emphasis ("❌ **Don't use for:**")."""
    return _LABEL.match(text) is not None or _LABEL.match(_EMPHASIS.sub("", text)) is not None


class Document:
    """The decoded text of one file and what the analysis derives from it, computed on demand."""

    def __init__(self, path: str, data: FileData) -> None:
        self.path = path
        self.data = data
        self.raw = data.data or b""
        self.text = data.text()
        # Where each line starts: 4 bytes a line, where a list of the lines kept a second copy
        # of the text (a language server keeps a Document for every instruction file).
        self._starts = array("I", [0])
        start = self.text.find("\n")
        while start != -1:
            self._starts.append(start + 1)
            start = self.text.find("\n", start + 1)

    # -- positions --------------------------------------------------------------------------
    @property
    def line_count(self) -> int:
        return len(self._starts)

    def line(self, number: int) -> str:
        """Line `number` (0-based) without its newline; a negative one counts from the end."""
        number = number % len(self._starts) if number < 0 else number
        end = self._starts[number + 1] - 1 if number + 1 < len(self._starts) else len(self.text)
        return self.text[self._starts[number] : end]

    def line_span(self, first: int, last: int | None = None) -> Span:
        last = first if last is None else last
        last = min(last, self.line_count - 1)
        return Span(first, 0, last, len(self.line(last).rstrip("\r")))

    def offset_position(self, offset: int) -> tuple[int, int]:
        """(line, character) of a character offset into `text`."""
        line = self.text.count("\n", 0, offset)
        return line, offset - (self.text.rfind("\n", 0, offset) + 1)

    def byte_position(self, byte: int) -> tuple[int, int]:
        """(line, character) where byte `byte` falls; a split character counts from its start."""
        return self.offset_position(len(self.raw[:byte].decode("utf-8", errors="ignore")))

    def line_bytes(self, first: int, last: int) -> int:
        last = min(last, self.line_count - 1)
        end = self._starts[last + 1] - 1 if last + 1 < self.line_count else len(self.text)
        return len(self.text[self._starts[first] : end].encode("utf-8")) if first <= last else 0

    @cached_property
    def managed(self) -> tuple[tuple[int, int, str], ...]:
        """(first line, last line, tool) of each block a tool keeps between its markers; an
        unclosed start marker manages nothing."""
        if "<!--" not in self.text:
            return ()
        blocks: list[tuple[int, int, str]] = []
        open_at: dict[str, int] = {}
        for number in range(self.line_count):
            match = _MARKER.fullmatch(self.line(number).strip())
            if match is None:
                continue
            name = (match["name"] or match["tool"]).strip().casefold()
            if (match["word"] or match["edge"]).casefold() == "end":
                if name in open_at:
                    blocks.append((open_at.pop(name), number, name))
            else:
                open_at.setdefault(name, number)
        return tuple(blocks)

    def managed_by(self, line: int) -> str | None:
        """The tool whose marked block holds `line`, if any."""
        return next((name for first, last, name in self.managed if first < line < last), None)

    @cached_property
    def suppressions(self) -> Suppressions:
        return parse_suppressions(self.text)

    # -- structure --------------------------------------------------------------------------
    @cached_property
    def pointers(self) -> dict[int, set[str]]:
        """The files this document points to, by line: `@path` imports, relative Markdown links,
        and a line holding nothing but a Markdown file name (a symlink checked out as a file)."""
        directory = os.path.dirname(self.path)
        found: dict[int, set[str]] = {}

        def add(offset: int, target: str) -> None:
            target = target.split("#", 1)[0]
            if target and "://" not in target and not target.startswith("mailto:"):
                found.setdefault(self.text.count("\n", 0, offset), set()).add(os.path.normpath(os.path.join(directory, target)))

        for ref in claude_import_refs(self.text) if "@" in self.text else ():
            add(ref.start, ref.path)
        for offset, target in link_targets(self.text):
            add(offset, target)
        for match in _BARE_PATH.finditer(self.text):
            add(match.start(1), match.group(1))
        return found

    @cached_property
    def only_points(self) -> bool:
        """Whether this file points to others (`pointers`) and all it says besides is one
        paragraph at most ("This file guides Claude Code…", a precedence rule): a pointer file."""
        lines = self.pointers
        if not lines:
            return False
        own = [i for i in self.items if i.kind != "section" and not any(i.first <= line <= i.last for line in lines)]
        return len(own) <= 1 and sum(i.size for i in own) <= POINTER_OWN_BYTES

    @cached_property
    def reference_shape(self) -> tuple[frozenset[str], tuple[str, ...], bool, int]:
        """What a unit's own facts take from this file's text: what it points to and imports,
        whether it is a pointer file, and where its body starts (a fix inserts an import there).
        An edit that keeps it keeps those facts."""
        refs = tuple(ref.path for ref in claude_import_refs(self.text)) if "@" in self.text else ()
        targets = frozenset(t for line_targets in self.pointers.values() for t in line_targets)
        return targets, refs, self.only_points, self.frontmatter[3]

    @cached_property
    def frontmatter(self) -> tuple[Fields | None, int, FrontmatterError | None, int]:
        """(fields, where the body starts in `text`, error, first body line); the body itself
        is not kept (`body`)."""
        fields, body, error = split_frontmatter(self.text)
        start = len(self.text) - len(body)
        return fields, start, error, self.text.count("\n", 0, start)

    @property
    def body(self) -> str:
        """The text after the frontmatter."""
        return self.text[self.frontmatter[1] :]

    @cached_property
    def structure(self) -> tuple[list[Item], list[Section], list[tuple[int, str]]]:
        """(items, sections, labels): a label is a paragraph that introduces what follows
        ("For agent files:", "**For Hooks:**"), not an instruction of its own."""
        body, offset = self.body, self.frontmatter[3]
        items: list[Item] = []
        labels: list[tuple[int, str]] = []
        headings: list[tuple[int, str, int]] = []  # (level, text, line)
        tokens = _MARKDOWN.parse(body)
        depth = 0
        paragraph: tuple[int, int] | None = None  # a top-level paragraph's lines, awaiting its inline text
        bullet: tuple[int, int] | None = None  # the top-level list item being read: its lines
        parts: list[str] = []  # its lead's text, then each nested line's
        for token in tokens:
            if token.type == "list_item_open":
                depth += 1
                if depth == 1 and token.map:
                    bullet, parts = (token.map[0] + offset, token.map[1] - 1 + offset), []
            elif token.type == "list_item_close":
                depth -= 1
                if depth == 0 and bullet is not None and parts:
                    checklist = _CHECKBOX.match(parts[0]) is not None or _in_checklist(headings)
                    self._add_item(items, "bullet", _bullet_text(parts), *bullet, checklist=checklist)
                    bullet = None
            elif token.type == "inline" and bullet is not None:
                parts.append(token.content)
            elif token.type == "heading_open" and token.map:
                headings.append((int(token.tag[1:]), "", token.map[0] + offset))
            elif token.type == "paragraph_open" and token.map and depth == 0:
                paragraph = (token.map[0] + offset, token.map[1] - 1 + offset)
            elif token.type == "inline":
                if headings and headings[-1][2] == (token.map[0] + offset if token.map else -1) and not headings[-1][1]:
                    level, _, line = headings[-1]
                    headings[-1] = (level, normalize(token.content), line)
                elif paragraph is not None:
                    first, last = paragraph
                    if _is_label(token.content.strip()):
                        labels.append((first, normalize(token.content)))
                    else:
                        self._add_item(items, "paragraph", token.content, first, last, checklist=False)
                    paragraph = None
        return items, self._sections(items, headings), labels

    @cached_property
    def contexts(self) -> list[tuple[str, str, int]]:
        """Per item, the heading it sits under, the label after that heading that introduces it
        (normalised; a section body's own heading) and that label's line (-1: none): the same words
        under two headings of one file say two things ("the description is not empty" in the
        checklist for prompts, and again in the one for agents)."""
        headings = sorted((s.line, s.heading) for s in self.sections)
        labels = sorted(self.structure[2])
        heading_lines, label_lines = [h[0] for h in headings], [label[0] for label in labels]
        contexts = []
        for item in self.items:
            before = item.first - 1 if item.kind == "section" else item.first
            at = bisect.bisect_right(heading_lines, before) - 1
            heading = headings[at] if at >= 0 else (-1, "")
            at = bisect.bisect_right(label_lines, before) - 1
            label = labels[at] if at >= 0 and labels[at][0] > heading[0] and item.kind != "section" else (-1, "")
            contexts.append((heading[1], label[1], label[0]))
        return contexts

    @cached_property
    def label_lists(self) -> dict[int, set[str]]:
        """Per label line, the texts of the items that label introduces (see `contexts`)."""
        lists: dict[int, set[str]] = {}
        for item, (_, _, line) in zip(self.items, self.contexts, strict=True):
            lists.setdefault(line, set()).add(item.text)
        return lists

    def code_and_prose(self, item: Item) -> tuple[tuple[str, ...], str]:
        """The item's code spans as written, and its other words (normalised): what it names
        literally, and what it says about that."""
        source = "\n".join(self.line(number) for number in range(item.first, item.last + 1))
        prose = " ".join(_WORD.findall(normalize(_CODE_SPAN.sub(" ", source))))
        return tuple(_CODE_SPAN.findall(source)), prose

    def _add_item(self, items: list[Item], kind: str, content: str, first: int, last: int, *, checklist: bool) -> None:
        """An instruction worth comparing: four words or more, a code span counting as one and
        a link as its text, and not a listing entry ("Migrations: `docs/migrations.md`")."""
        if _LISTING_ENTRY.match(content.strip()):
            return
        if len(_WORD.findall(_CODE_SPAN.sub(" code ", without_link_targets(content)))) >= MIN_WORDS:
            items.append(
                Item(
                    kind,
                    normalize(content),
                    first,
                    last,
                    self.line_bytes(first, last),
                    checklist=checklist,
                )
            )

    def _sections(self, items: list[Item], headings: list[tuple[int, str, int]]) -> list[Section]:
        sections = []
        end_of_file = self.line_count - 1
        for index, (level, text, line) in enumerate(headings):
            last = next((h[2] - 1 for h in headings[index + 1 :] if h[0] <= level), end_of_file)
            while last > line and not self.line(last).strip():
                last -= 1
            sections.append(Section(level, text, line, last))
            own_end = headings[index + 1][2] - 1 if index + 1 < len(headings) else end_of_file
            body = [i.text for i in items if line < i.first <= own_end and i.kind != "section"]
            if len(body) > 1:  # a one-item body is that item: reported once, as the item
                body_end = min(last, own_end)
                items.append(Item("section", " ".join(body), line + 1, body_end, self.line_bytes(line + 1, body_end)))
        return sections

    def text_start(self, item: Item) -> int:
        """The first line of `item` that holds text: a section body's span begins below its
        heading, often at a blank line, where nothing is to be shown."""
        return next((n for n in range(item.first, item.last + 1) if self.line(n).strip()), item.first)

    @property
    def items(self) -> list[Item]:
        return self.structure[0]

    @property
    def sections(self) -> list[Section]:
        return self.structure[1]

    @cached_property
    def field_labels(self) -> list[frozenset[str]]:
        """For each heading of `sections`, the labels of the fields its own list items fill
        ("**MCP Tool:**", "**Usage:**", lower case, no colon), up to the next heading: what makes
        sections entries of one form (each tool of a reference, each endpoint of an API)."""
        starts = [section.line for section in self.sections] + [self.line_count]
        return [
            frozenset(
                match.group(1).strip().rstrip(":").strip().lower()
                for number in range(start + 1, end)
                if (match := _FIELD_LABEL.match(self.line(number)))
            )
            for start, end in pairwise(starts)
        ]

    @cached_property
    def exact(self) -> dict[str, int]:
        """Normalised item text -> index of its first item: what exact duplicates are looked up in."""
        exact: dict[str, int] = {}
        for index, item in enumerate(self.items):
            exact.setdefault(item.text, index)
        return exact

    @cached_property
    def repeated(self) -> dict[str, list[int]]:
        """Normalised text -> the indexes of its items, for the texts of more than one item (a
        text's only item is `exact[text]`)."""
        positions: dict[str, list[int]] = {}
        for index, item in enumerate(self.items):
            positions.setdefault(item.text, []).append(index)
        return {text: where for text, where in positions.items() if len(where) > 1}

    @cached_property
    def shingles(self) -> Shingles:
        """The word 3-grams of the items: the sets near-duplicates are measured on."""
        return Shingles.of(self.items)


# How the analysis reads a file: its Document, or None when it cannot be analysed line by line.
DocumentOf = Callable[[str], Document | None]
