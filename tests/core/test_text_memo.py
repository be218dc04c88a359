"""The parsers' memo in a long-lived process: keyed by text, it must not keep every version of a
file being edited (the language server and its worker live as long as the editor session)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from lsp_agents.core.fs import FileSystem
from lsp_agents.core.imports import claude_import_refs
from lsp_agents.core.text import REPLACED_TEXT_BYTES, forget_parsed_texts

TEXT_BYTES = 8192
VERSIONS = 4 * REPLACED_TEXT_BYTES // TEXT_BYTES  # enough versions to fill the memo four times over


def version(number: int) -> str:
    """One version of an instruction file: TEXT_BYTES of ASCII, different for every number."""
    head = f"# Rules\n\n- Revision {number}: follow @docs/style.md\n"
    return head + "x" * (TEXT_BYTES - len(head) - 1) + "\n"


def edit_buffer(fs: FileSystem, path: Path, number: int) -> None:
    fs.set_overlay(str(path), version(number))


def change_on_disk(fs: FileSystem, path: Path, number: int) -> None:
    path.write_text(version(number))
    fs.invalidate(str(path))


@pytest.mark.parametrize("change", [edit_buffer, change_on_disk], ids=["buffer-edits", "disk-changes"])
def test_versions_of_an_edited_file_do_not_pile_up_in_the_memo(tmp_path: Path, change: Callable) -> None:
    forget_parsed_texts()
    fs, path = FileSystem(), tmp_path / "AGENTS.md"
    path.write_text(version(-1))
    held = []
    for number in range(VERSIONS):
        change(fs, path, number)
        assert claude_import_refs(fs.read(str(path)).text())[0].path == "docs/style.md"
        held.append(claude_import_refs.cache_info().currsize)
    assert max(held) <= REPLACED_TEXT_BYTES // TEXT_BYTES + 2, "the memo kept the replaced versions"
    assert held[-1] >= 1  # the current version stays memoized between two changes


def test_the_same_text_again_keeps_what_is_cached(tmp_path: Path) -> None:
    """Editors send changes that leave the text as it was (a no-op format): nothing is dropped."""
    fs, path = FileSystem(), str(tmp_path / "AGENTS.md")
    fs.set_overlay(path, version(1))
    read = fs.read(path)
    derived = fs.memo("cascade", lambda: object())
    fs.set_overlay(path, version(1))
    assert fs.read(path) is read
    assert fs.memo("cascade", lambda: object()) is derived
    fs.set_overlay(path, version(2))
    assert fs.read(path) is not read and fs.read(path).text() == version(2)
    assert fs.memo("cascade", lambda: object()) is not derived
