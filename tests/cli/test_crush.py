"""Crush's documented profile through the command line: which files of a workspace written from the
model's description (core/harnesses/crush.py) it sends, how, and which it passes over."""

from __future__ import annotations

import json
from pathlib import Path

from harness_cli import answer
from workspace_files import write_tree

PROJECT_HEADER = "# Project-Specific Context\nMake sure to follow the instructions in the context below.\n<project_context>\n"


MOVED_BY = ("XDG_CONFIG_HOME", "XDG_DATA_HOME")


def prompt(cwd: Path, home: Path, env: dict[str, str] | None = None) -> dict:
    return answer("prompt", "crush", cwd, home, unset=MOVED_BY, env=env)


def element(path: Path, text: str) -> str:
    return f'\n<file path="{path}">\n{text}\n</file>\n'


def test_launch_directory_files_in_path_order_whole(tmp_path: Path) -> None:
    ws, home = tmp_path / "ws", tmp_path / "home"
    write_tree(
        ws,
        {
            "AGENTS.md": "---\ntitle: kept\n---\nAgents text.\n",
            "CRUSH.md": "Crush text.",
            ".github/copilot-instructions.md": "Copilot text.\n",
            ".cursor/rules/z.mdc": "Z rule.\n",
            ".cursor/rules/sub/a.md": "A rule.\n",
            ".cursor/rules/b.txt": "B note.\n",
            "src/AGENTS.md": "Below the launch directory.\n",
        },
    )
    home.mkdir()
    sent = prompt(ws, home)
    assert [b["placement"] for b in sent["eager"]] == ["system"]
    # A folder is walked in name order, its sub-folders where they stand; files go in as they are.
    assert sent["eager"][0]["text"] == (
        PROJECT_HEADER
        + element(ws / ".cursor/rules/b.txt", "B note.\n")
        + element(ws / ".cursor/rules/sub/a.md", "A rule.\n")
        + element(ws / ".cursor/rules/z.mdc", "Z rule.\n")
        + element(ws / ".github/copilot-instructions.md", "Copilot text.\n")
        + element(ws / "AGENTS.md", "---\ntitle: kept\n---\nAgents text.\n")
        + element(ws / "CRUSH.md", "Crush text.")
        + "\n</project_context>"
    )
    assert str(ws / "src/AGENTS.md") not in sent["eager"][0]["text"]


def test_nothing_above_the_launch_directory(tmp_path: Path) -> None:
    ws, home = tmp_path / "ws", tmp_path / "home"
    write_tree(ws, {"AGENTS.md": "Root text.\n", "pkg/CRUSH.md": "Package text.\n"})
    home.mkdir()
    sent = prompt(ws / "pkg", home)
    assert sent["eager"][0]["text"] == PROJECT_HEADER + element(ws / "pkg/CRUSH.md", "Package text.\n") + "\n</project_context>"


def test_lower_case_spelling_is_never_read(tmp_path: Path) -> None:
    ws, home = tmp_path / "ws", tmp_path / "home"
    write_tree(ws, {"agents.md": "Lower-case agents.\n", "crush.md": "Lower-case crush.\n", "CLAUDE.md": "Claude text.\n"})
    home.mkdir()
    sent = prompt(ws, home)
    assert sent["eager"][0]["text"] == PROJECT_HEADER + element(ws / "CLAUDE.md", "Claude text.\n") + "\n</project_context>"
    passed = {Path(f["path"]).name: f for f in sent["files"] if not f["loaded"]}
    assert passed["agents.md"]["reason"] == passed["crush.md"]["reason"] == "not-configured"


def test_user_files_and_config_context_paths(tmp_path: Path) -> None:
    ws, home = tmp_path / "ws", tmp_path / "home"
    write_tree(
        ws,
        {
            "crush.json": json.dumps({"options": {"context_paths": ["docs/extra.md", "~/notes.md"]}}),
            "docs/extra.md": "Extra text.\n",
        },
    )
    write_tree(
        home,
        {
            "notes.md": "Notes text.\n",
            ".config/crush/CRUSH.md": "User crush.\n",
            ".config/AGENTS.md": "User agents.\n",
        },
    )
    sent = prompt(ws, home)
    project, user = (b["text"] for b in sent["eager"])
    assert (
        project
        == PROJECT_HEADER
        + element(ws / "docs/extra.md", "Extra text.\n")
        + element(home / "notes.md", "Notes text.\n")
        + "\n</project_context>"
    )
    assert user.startswith("# User context\n") and user.endswith("\n</user_preferences>")
    assert (
        element(home / ".config/AGENTS.md", "User agents.\n") + element(home / ".config/crush/CRUSH.md", "User crush.\n") in user
    )


def test_xdg_config_home_moves_the_user_files(tmp_path: Path) -> None:
    ws, home, config = tmp_path / "ws", tmp_path / "home", tmp_path / "xdg"
    write_tree(ws, {"AGENTS.md": "Project.\n"})
    write_tree(home, {".config/crush/CRUSH.md": "Not read.\n"})
    write_tree(config, {"crush/CRUSH.md": "Moved.\n"})
    sent = prompt(ws, home, env={"XDG_CONFIG_HOME": str(config)})
    user = sent["eager"][1]["text"]
    assert element(config / "crush/CRUSH.md", "Moved.\n") in user and "Not read." not in user


def test_nothing_on_read(tmp_path: Path) -> None:
    ws, home = tmp_path / "ws", tmp_path / "home"
    write_tree(ws, {"AGENTS.md": "Root.\n", "pkg/AGENTS.md": "Nested.\n", "pkg/x.ts": "x\n"})
    home.mkdir()
    assert answer("reminders", "crush", ws, home, str(ws / "pkg/x.ts"), unset=MOVED_BY)["reminders"] == []
