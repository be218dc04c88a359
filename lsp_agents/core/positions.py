"""Where findings appear in an editor: columns in its position encoding, in linear time.

The core counts columns in code points; an editor counts them in UTF-16 code units (most
clients), UTF-8 bytes (Neovim 0.11) or code points (UTF-32). Converting a column by walking
its line character by character costs the length of the line for every position, so a finding
on a multi-megabyte line takes seconds. Here each line is examined once: a line in which every
code point is one unit (ASCII, or no character beyond the Basic Multilingual Plane for UTF-16)
converts as it is; any other line keeps the unit count at every CHECKPOINT-th code point, so a
conversion encodes at most one block of it.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from lsp_agents.core.analysis.base import FILE_START
from lsp_agents.core.model import Finding, Span

UTF8, UTF16, UTF32 = "utf-8", "utf-16", "utf-32"
CHECKPOINT = 1024  # code points between two stored unit counts of a line that needs them


def units_of(text: str, encoding: str) -> int:
    """How many code units `text` takes in the encoding."""
    if encoding == UTF8:
        return len(text.encode("utf-8", "surrogatepass"))
    if encoding == UTF16:
        return len(text.encode("utf-16-le", "surrogatepass")) // 2
    return len(text)


class _Line:
    """One line's unit counts: None when every code point is one unit, else the counts at the
    checkpoints (the units before code point k * CHECKPOINT)."""

    __slots__ = ("checkpoints", "encoding", "text", "units")

    def __init__(self, text: str, encoding: str) -> None:
        self.text = text
        self.encoding = encoding
        self.checkpoints: list[int] | None = None
        if not _one_unit_each(text, encoding):
            counts, total = [0], 0
            for start in range(0, len(text), CHECKPOINT):
                total += units_of(text[start : start + CHECKPOINT], encoding)
                counts.append(total)
            self.checkpoints = counts
        self.units = len(text) if self.checkpoints is None else self.checkpoints[-1]

    def to_units(self, column: int) -> int:
        """Units before code point `column` (clamped to the line)."""
        column = max(0, min(column, len(self.text)))
        if self.checkpoints is None:
            return column
        block = column // CHECKPOINT
        return self.checkpoints[block] + units_of(self.text[block * CHECKPOINT : column], self.encoding)

    def to_code_points(self, units: int) -> int:
        """The first code point column whose units reach `units` (a position inside a character
        that takes several units rounds up to the end of it)."""
        if units <= 0:
            return 0
        if units >= self.units:
            return len(self.text)
        if self.checkpoints is None:
            return units
        block = bisect.bisect_right(self.checkpoints, units) - 1
        column, reached = block * CHECKPOINT, self.checkpoints[block]
        while reached < units:
            reached += units_of(self.text[column], self.encoding)
            column += 1
        return column


def _one_unit_each(text: str, encoding: str) -> bool:
    if encoding == UTF32 or text.isascii():
        return True
    return encoding == UTF16 and max(text) <= "\uffff"


class LineIndex:
    """Conversions for one document's lines (as `str.splitlines(keepends=True)` gives them),
    each line examined on first use."""

    def __init__(self, lines: Sequence[str], encoding: str) -> None:
        self.lines = lines
        self.encoding = encoding if encoding in (UTF8, UTF16, UTF32) else UTF16
        self._cache: dict[int, _Line] = {}

    def _line(self, number: int) -> _Line:
        line = self._cache.get(number)
        if line is None:
            line = self._cache[number] = _Line(self.lines[number], self.encoding)
        return line

    def to_units(self, line: int, column: int) -> tuple[int, int]:
        """(line, units) of a code point position; a line past the end is (number of lines, 0)."""
        if not 0 <= line < len(self.lines):
            return len(self.lines), 0
        return line, self._line(line).to_units(column)

    def to_code_points(self, line: int, units: int) -> tuple[int, int]:
        """(line, code point column) of an editor position; one past the last line is the end of
        the document."""
        if not self.lines:
            return 0, 0
        if line >= len(self.lines):
            last = len(self.lines) - 1
            return last, len(self._line(last).text)
        line = max(line, 0)
        current = self._line(line)
        crlf = int(current.text.endswith("\r\n"))  # a line break counts as one unit here, as in pygls
        total = current.units - crlf
        if total == 0:
            return line, 0
        if units > total:
            units = total - 1  # as pygls clamps: onto the line's last unit
        return line, len(current.text) - crlf if units >= total else current.to_code_points(units)


# -- where an editor underlines a finding ---------------------------------------------------------
Range = tuple[int, int, int, int]  # start line, start column, end line, end column, in editor units


@dataclass(frozen=True, slots=True)
class Located:
    """A finding with its range, and each related location's, in the editor's units."""

    finding: Finding
    range: Range
    related: tuple[Range, ...]


def _line_text(lines: Sequence[str], line: int, start: int = 0) -> Span | None:
    """The text of a line from `start` (leading white space skipped) to its end, if it has any."""
    if line >= len(lines):
        return None
    text = lines[line].rstrip("\r\n")
    first = start + len(text[start:]) - len(text[start:].lstrip())
    return Span(line, first, line, len(text)) if first < len(text) else None


def editor_span(finding: Finding, lines: Sequence[str]) -> Span:
    """Where the editor underlines a finding. A finding about the whole file (the core puts it at
    the file's start) underlines the first line's text rather than one character; a cut (Codex's
    budget) underlines the rest of the line it falls on, once, instead of every line to the end of
    the file. Other spans are the core's."""
    span = finding.span
    if span == FILE_START:
        return next((text for line in range(len(lines)) if (text := _line_text(lines, line))), span)
    if finding.code == "truncated" and span.end_line > span.start_line:
        return (
            _line_text(lines, span.start_line, span.start_character)
            or _line_text(lines, span.start_line)
            or Span(span.start_line, span.start_character, span.start_line, span.start_character)
        )
    return span


def span_range(index: LineIndex, span: Span) -> Range:
    return (*index.to_units(span.start_line, span.start_character), *index.to_units(span.end_line, span.end_character))


def locate(findings: Sequence[Finding], lines_of: Callable[[str], Sequence[str]], encoding: str) -> list[Located]:
    """The findings of one file with their ranges in `encoding`; `lines_of(path)` gives a file's
    lines (its own and those of the files its findings point to), each file indexed once."""
    indexes: dict[str, LineIndex] = {}

    def index_of(path: str) -> LineIndex:
        if path not in indexes:
            indexes[path] = LineIndex(lines_of(path), encoding)
        return indexes[path]

    located = []
    for finding in findings:
        own = index_of(finding.path)
        related = tuple(span_range(index_of(r.path), r.span) for r in finding.related)
        located.append(Located(finding, span_range(own, editor_span(finding, own.lines)), related))
    return located
