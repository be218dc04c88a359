"""Qwen Code's `@path` references in a typed line (`qwen_at`): the cases beyond those the
`qwen-typed-at` captures replay. The parsing table was checked in node against the bundle's
`extractAtPathCommands` (chunks/chunk-UBBHH6V4.js of 0.24.4)."""

from __future__ import annotations

from pathlib import Path

import pytest

from lsp_agents.core.agents.qwen_at import MAX_CHARS, file_text, references, typed_line_message
from lsp_agents.core.fs import FileSystem


@pytest.mark.parametrize(
    ("line", "found"),
    [
        ("end @a.txt.", ["a.txt"]),  # a dot before the end or a blank is not part of the path
        ("@a.b.c, @d;e @f!g @h?i", ["a.b.c", "d", "f", "h"]),
        ("(@a.txt) [@b] {@c}", ["a.txt", "b", "c"]),
        ("mail user@host.com", ["host.com"]),
        (r"@sp\ ace.txt and @x\,y and @q\\z and @k\:m", ["sp ace.txt", "x,y", r"q\\z", r"k\:m"]),  # shell specials only
        (r"not \@this but @that", ["that"]),
        ('@"two words".txt', ['"two']),  # no quoting
        ("@ alone and @", []),
        ("@a.\n@b", ["a", "b"]),
        ("see @https://example.com/a(b).txt, then @http://x.y/z?q=1.", ["https://example.com/a(b).txt", "http://x.y/z?q=1"]),
        ("@a\u00a0b @c\u3000d @e\ufefff", ["a", "c", "e"]),  # JavaScript's blanks
        ("@end\\", ["end\\"]),
        ("@x@y @@", ["x@y", "@"]),
        ("@./", ["./"]),
    ],
)
def test_references_in_a_line(line: str, found: list[str]) -> None:
    assert [p.text[1:] for p in references(line) if p.reference and p.text != "@"] == found


def _workspace(tmp_path: Path) -> tuple[str, str]:
    ws, temp = tmp_path / "ws", tmp_path / "home" / ".qwen" / "tmp"
    ws.mkdir()
    temp.mkdir(parents=True)
    (ws / "notes.txt").write_text("notes\n")
    return str(ws), str(temp)


def test_a_line_whose_references_read_nothing_is_rebuilt(tmp_path: Path) -> None:
    ws, temp = _workspace(tmp_path)
    assert typed_line_message(FileSystem(), ws, temp, "/look a@missing\tb") == "/look a @missing\tb"
    assert typed_line_message(FileSystem(), ws, temp, "/look @missing.txt") is None  # sent as typed
    assert typed_line_message(FileSystem(), ws, temp, "/look  no reference ") is None  # not rebuilt


def test_the_temp_folder_is_read_outside_the_workspace_but_not_here(tmp_path: Path) -> None:
    ws, temp = _workspace(tmp_path)
    (Path(temp) / "note.txt").write_text("secret\n")
    sent = typed_line_message(FileSystem(), ws, temp, f"/look @{temp}/note.txt")
    assert sent is not None and "secret" not in sent
    assert "outside the workspace, inlined by Qwen Code, not read" in sent


def test_a_session_reference_is_not_modelled(tmp_path: Path) -> None:
    ws, temp = _workspace(tmp_path)
    sent = typed_line_message(FileSystem(), ws, temp, "/look @session:yesterday and @notes.txt")
    assert sent == "[what Qwen Code sends for this line: its reference to a past session `@session:yesterday` is not modelled]"


def test_a_file_past_the_character_limit_is_cut(tmp_path: Path) -> None:
    path = tmp_path / "wide.txt"
    path.write_text("short\n" + "x" * MAX_CHARS + "\nnever\n")
    assert file_text(FileSystem(), str(path), "wide.txt") == (
        f"Showing lines 1-2 of 4 total lines.\n---\nshort\n{'x' * (MAX_CHARS - 6)}... [truncated]"
    )


def test_a_folder_past_twenty_items_ends_its_lists(tmp_path: Path) -> None:
    """Checked in node against the bundle's `getFolderStructure` (chunks/chunk-MNK4GIGD.js)."""
    ws, temp = _workspace(tmp_path)
    for name in ("d1", "d2"):
        (Path(ws) / "big" / name).mkdir(parents=True)
        (Path(ws) / "big" / name / "inner.txt").write_text("")
    for index in range(19):
        (Path(ws) / "big" / f"f{index:02}.txt").write_text("")
    sent = typed_line_message(FileSystem(), ws, temp, "/look @big")
    tree = (sent or "").split(f"{ws}/big/\n")[1].removesuffix("\n--- End of content ---").split("\n")
    assert tree[-4:] == ["├───f18.txt", "├───d1/", "│   └───...", "└───..."]  # as the bundle's `getFolderStructure` gives it
