"""Core values → lsprotocol types. The core counts characters in code points; the editor counts in
the negotiated position encoding (UTF-16 for most clients, UTF-8 for Neovim 0.11, UTF-32 for
Emacs), so every range goes through the workspace's position codec and the document's lines, or
arrives converted already (a diagnostic's ranges: the analysis worker converts them)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from lsprotocol import types
from pygls.workspace.position_codec import PositionCodec, ServerTextPosition

from lsp_agents.core.model import Span
from lsp_agents.core.positions import LineIndex, Located, Range

README = "https://github.com/lsp-agents/lsp-agents"
SOURCE = "lsp-agents"
SEVERITIES = {
    "error": types.DiagnosticSeverity.Error,
    "warning": types.DiagnosticSeverity.Warning,
    "information": types.DiagnosticSeverity.Information,
    "hint": types.DiagnosticSeverity.Hint,
}


class LinearPositionCodec(PositionCodec):
    """pygls' codec with conversions in linear time (`core.positions`): pygls walks a line
    character by character in Python for every position, seconds on a multi-megabyte line.
    The last few documents' line indexes are kept, so the positions of one document's findings
    examine each line once."""

    KEPT = 4

    def __init__(self, encoding: str | None = types.PositionEncodingKind.Utf16) -> None:
        super().__init__(encoding)
        self.name = str(getattr(encoding, "value", encoding) or types.PositionEncodingKind.Utf16.value).lower()
        self._indexes: list[LineIndex] = []

    def _index(self, lines: Sequence[str]) -> LineIndex:
        for index in self._indexes:
            if index.lines is lines:
                return index
        index = LineIndex(lines, self.name)
        self._indexes = [index, *self._indexes[: self.KEPT - 1]]
        return index

    def position_from_client_units(self, lines: Sequence[str], position: types.Position) -> ServerTextPosition:
        line, character = self._index(lines).to_code_points(position.line, position.character)
        return ServerTextPosition(line, character)

    def position_to_client_units(self, lines: Sequence[str], position: ServerTextPosition | types.Position) -> types.Position:
        line, character = self._index(lines).to_units(position.line, position.character)
        return types.Position(line=line, character=character)


def to_range(codec: PositionCodec, lines: Sequence[str], span: Span) -> types.Range:
    start = types.Position(span.start_line, span.start_character)
    end = types.Position(span.end_line, span.end_character)
    return codec.range_to_client_units(lines, types.Range(start=start, end=end))


def from_position(codec: PositionCodec, lines: Sequence[str], position: types.Position) -> tuple[int, int]:
    """(line, code point column) of an editor position."""
    server = codec.position_from_client_units(lines, types.Position(position.line, position.character))
    return server.line, server.character


def span_contains(span: Span, line: int, character: int) -> bool:
    after_start = (line, character) >= (span.start_line, span.start_character)
    return after_start and (line, character) <= (span.end_line, span.end_character)


def _range(numbers: Range) -> types.Range:
    start_line, start_character, end_line, end_character = numbers
    return types.Range(start=types.Position(start_line, start_character), end=types.Position(end_line, end_character))


def to_diagnostic(located: Located, uri_of: Callable[[str], str]) -> types.Diagnostic:
    """The diagnostic of a finding whose ranges are already in the editor's units."""
    finding = located.finding
    related = [
        types.DiagnosticRelatedInformation(location=types.Location(uri=uri_of(r.path), range=_range(where)), message=r.message)
        for r, where in zip(finding.related, located.related, strict=True)
    ]
    return types.Diagnostic(
        range=_range(located.range),
        message=finding.message,
        severity=SEVERITIES.get(finding.severity, types.DiagnosticSeverity.Warning),
        code=finding.code,
        code_description=types.CodeDescription(href=f"{README}#{finding.code}"),
        source=SOURCE,
        related_information=related or None,
        tags=[types.DiagnosticTag.Unnecessary] if finding.unnecessary else None,
    )
