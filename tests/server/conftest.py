"""Fixtures of the server tests: a throwaway repository with planted problems and a home."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsp_session import PKG_AGENTS, ROOT_AGENTS, write


@pytest.fixture
def home(tmp_path: Path) -> Path:
    home = tmp_path / "home"
    write(home / ".codex" / "AGENTS.md", "GLOBAL CODEX\n")
    return home


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    """A repository with planted problems: a duplicated bullet, an empty AGENTS.override.md; opencode
    and Codex in use (opencode.json; AGENTS.md alone would say Codex only)."""
    ws = tmp_path / "ws"
    (ws / ".git").mkdir(parents=True)
    write(ws / "opencode.json", "{}\n")
    write(ws / "AGENTS.md", ROOT_AGENTS)
    write(ws / "docs" / "style.md", "# Style\n\nWrite short functions.\n")
    write(ws / "pkg" / "AGENTS.md", PKG_AGENTS)
    write(ws / "pkg" / "AGENTS.override.md", "")
    write(ws / "pkg" / "src" / "main.ts", "export const x = 1;\nexport const y = 2;\n")
    return ws
