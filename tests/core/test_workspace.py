"""Discovery limits: a workspace larger than the bound is cut with a message, never silently."""

from __future__ import annotations

from pathlib import Path

from lsp_agents.core import workspace
from lsp_agents.core.fs import FileSystem
from lsp_agents.core.workspace import WorkspaceIndex


def test_a_discovery_cut_short_says_so(tmp_path: Path, monkeypatch) -> None:
    for i in range(10):
        (tmp_path / f"f{i}.md").write_text("x\n")
    index = WorkspaceIndex(str(tmp_path), FileSystem())
    index.scan()
    assert index.warnings == [] and len(index.files) == 10
    monkeypatch.setattr(workspace, "MAX_ENTRIES", 5)
    index.scan()
    assert len(index.files) == 5
    [warning] = index.warnings
    assert "discovery stopped" in warning and str(tmp_path) in warning
