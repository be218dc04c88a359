"""Fixtures of the analysis tests."""

from __future__ import annotations

from pathlib import Path

import pytest
from workspace_files import write_tree


@pytest.fixture
def workspace(tmp_path: Path):
    """A factory: files (and home files) in, (workspace, home) out; the workspace is a git root."""

    def build(files: dict[str, str | bytes], home_files: dict[str, str | bytes] | None = None) -> tuple[Path, Path]:
        ws, home = tmp_path / "ws", tmp_path / "home"
        (ws / ".git").mkdir(parents=True)
        home.mkdir()
        write_tree(ws, files)
        write_tree(home, home_files or {})
        return ws, home

    return build
