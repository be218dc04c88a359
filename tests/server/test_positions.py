"""The linear-time position codec gives exactly what pygls' own codec gives, in every encoding,
both ways, on lines of every kind (ASCII, BMP, astral characters, CRLF, positions past the end)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lsprotocol import types
from pygls.workspace.position_codec import PositionCodec

from lsp_agents.core import positions
from lsp_agents.server.convert import LinearPositionCodec

ENCODINGS = [types.PositionEncodingKind.Utf8, types.PositionEncodingKind.Utf16, types.PositionEncodingKind.Utf32]
characters = st.sampled_from(["a", " ", "é", "€", "中", "😋", "𝄞", "\t", "\r"])
line_texts = st.lists(characters, max_size=40).map("".join)
documents = st.lists(line_texts, min_size=0, max_size=5).map(
    lambda lines: [text + ending for text, ending in zip(lines, ["\n", "\r\n", "\n", "", "\n"], strict=False)]
)
columns = st.integers(0, 90)


@pytest.fixture(autouse=True)
def small_blocks(monkeypatch):
    """Blocks of 4 code points, so that short lines cross several checkpoints."""
    monkeypatch.setattr(positions, "CHECKPOINT", 4)


@pytest.mark.parametrize("encoding", ENCODINGS)
@settings(max_examples=300, derandomize=True, database=None)
@given(lines=documents, line=st.integers(0, 6), column=columns)
def test_same_as_pygls_both_ways(encoding, lines, line, column) -> None:
    ours, theirs = LinearPositionCodec(encoding), PositionCodec(encoding)
    server = types.Position(line, column)
    assert ours.position_to_client_units(lines, server) == theirs.position_to_client_units(lines, server)
    client = types.Position(line, column)
    if lines and line >= len(lines):  # past the last line: the end of the document (pygls gives its
        expected = (len(lines) - 1, len(lines[-1]))  # length in client units there, not a column)
    else:
        converted = theirs.position_from_client_units(lines, types.Position(line, column))
        expected = (converted.line, converted.character)
    converted = ours.position_from_client_units(lines, client)
    assert (converted.line, converted.character) == expected


def test_a_long_line_is_examined_once() -> None:
    """Converting many positions on a 2 MB line with astral characters encodes a block each, not
    the line each time (the counts are those of the encoder, not of a clock)."""
    line = ("word 😋 " * 300_000) + "\n"
    index = positions.LineIndex([line], positions.UTF16)
    calls = []
    real = positions.units_of

    def counting(text: str, encoding: str) -> int:
        calls.append(len(text))
        return real(text, encoding)

    positions.units_of = counting
    try:
        first = [index.to_units(0, column) for column in range(0, len(line), 7919)]
    finally:
        positions.units_of = real
    setup = len(line) // positions.CHECKPOINT + 1
    assert len(calls) <= setup + len(first)  # one pass to build the checkpoints, then a block each
    assert max(calls) <= positions.CHECKPOINT
    assert first == [(0, len(line[:column].encode("utf-16-le")) // 2) for column in range(0, len(line), 7919)]
