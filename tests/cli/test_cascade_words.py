"""The cascade says true things in plain words, as every front end shows them: why a Cursor rule
waits (a manual rule, an agent-requested rule, a rule with globs) and which files a harness that
finds nothing looks for. Exercised through `lsp-agents cascade --format json`."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path


def cascade(ws: Path, home: Path, target: Path, harness: str = "all") -> dict:
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "lsp_agents",
            "cascade",
            str(target),
            "--harness",
            harness,
            "--cwd",
            str(ws),
            "--home",
            str(home),
            "--format",
            "json",
        ],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "HOME": str(home)},
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def test_cursor_rules_that_wait_say_what_they_wait_for(tmp_path: Path) -> None:
    ws, home = tmp_path / "ws", tmp_path / "home"
    home.mkdir()
    rules = ws / ".cursor" / "rules"
    manual = write(rules / "release.mdc", "---\ndescription:\nglobs:\nalwaysApply: false\n---\nRelease steps.\n")
    requested = write(rules / "db.mdc", "---\ndescription: Database migrations\nalwaysApply: false\n---\nMigrate.\n")
    globbed = write(rules / "py.mdc", "---\nglobs: '*.py'\nalwaysApply: false\n---\nPython.\n")
    source = write(ws / "src" / "main.ts", "x\n")
    (entry,) = cascade(ws, home, source, "cursor")["harnesses"]
    why = {f["path"]: (f["reason"], f["explanation"]) for f in entry["not_loaded"]}
    assert why[str(manual)] == (
        "manual",
        "a manual rule (no globs, no description, not always applied): sent only when you @-mention it or invoke it by name",
    )
    assert why[str(requested)] == (
        "agent-requested",
        "a rule with a description and no globs: sent only when the agent judges it relevant to the task",
    )
    assert why[str(globbed)][0] == "glob-no-match"  # the read of main.ts decides a rule with globs


def test_a_harness_that_finds_nothing_names_what_it_looks_for(tmp_path: Path) -> None:
    ws, home = tmp_path / "ws", tmp_path / "home"
    home.mkdir()
    (ws / ".git").mkdir(parents=True)
    write(ws / "AGENTS.md", "# Rules\n")
    source = write(ws / "main.ts", "x\n")
    by_id = {h["harness"]: h for h in cascade(ws, home, source)["harnesses"]}
    gemini = by_id["gemini"]
    assert (gemini["total"]["files"], gemini["not_loaded"], gemini["looks_for"]) == (0, [], ["GEMINI.md"])
    assert by_id["opencode"]["looks_for"] == ["AGENTS.md", "CLAUDE.md", "CONTEXT.md"]
    write(home / ".gemini" / "settings.json", '{"context": {"fileName": ["TEAM.md", "GEMINI.md"]}}')
    assert cascade(ws, home, source, "gemini")["harnesses"][0]["looks_for"] == ["TEAM.md", "GEMINI.md"]
