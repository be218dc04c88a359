"""An import finding sits on the `@path` as the harness that reports it reads the line (each
harness's own import dialect), and names the harnesses that refuse the file, not one of them by
habit. Through `lsp-agents check` as a subprocess."""

from __future__ import annotations

from pathlib import Path

import pytest
from analysis_helpers import check_json
from workspace_files import write_tree


@pytest.mark.parametrize(
    ("harness", "name"),
    [
        ("copilot-cli", "AGENTS.md"),  # `@../outside.md,`: the comma ends the Copilot CLI's path
        ("gemini", "GEMINI.md"),  # Gemini CLI reads to the next white space: its path keeps the comma
    ],
)
def test_an_import_outside_the_repository_is_reported_where_the_harness_reads_it(tmp_path: Path, harness: str, name: str) -> None:
    ws, home = tmp_path / "ws", tmp_path / "home"
    write_tree(tmp_path, {"outside.md": "# Outside\n", "outside.md,": "# Outside, with the comma\n", "home/.keep": ""})
    write_tree(ws, {".git/HEAD": "ref: refs/heads/main\n", name: "# Rules\n\nRead @../outside.md, then go on.\n"})
    _status, report = check_json(ws, home, "--harness", harness, "--enable", "all")
    found = [f for f in report["findings"] if f["code"] == "import-outside-workspace"]
    assert len(found) == 1, report["findings"]
    written = "@../outside.md" if harness == "copilot-cli" else "@../outside.md,"
    assert found[0]["range"] == {"start": {"line": 2, "character": 5}, "end": {"line": 2, "character": 5 + len(written)}}
    assert f"{harness} refuses it." in found[0]["message"]
    assert "Gemini CLI" not in found[0]["message"] or harness == "gemini"
