"""Zed's agent, a documented profile, through the command line: a workspace written from the model's
description (core/harnesses/zed.py): which rules file wins, the user's AGENTS.md, the section sent."""

from __future__ import annotations

from pathlib import Path

from harness_cli import answer
from workspace_files import write_tree

SECTION = (
    "## User's Custom Instructions\n\nThe following additional instructions are provided by the user and "
    "should be followed to the best of your ability without interfering with the tool use guidelines.\n\n"
)
PROJECT = (
    "### Project Rules\n\nThese instructions are scoped to the current project. They take precedence over "
    "the personal `AGENTS.md` above when they conflict.\n\nThere are project rules that apply to these root directories:\n"
)
FENCE = "``````"


def prompt(cwd: Path, home: Path, env: dict[str, str] | None = None) -> dict:
    return answer("prompt", "zed", cwd, home, unset=("XDG_CONFIG_HOME", "FLATPAK_XDG_CONFIG_HOME"), env=env)


def not_loaded(sent: dict) -> dict[str, str]:
    return {Path(f["path"]).name: f["reason"] for f in sent["files"] if not f["loaded"]}


def test_the_first_rules_file_of_the_root_wins(tmp_path: Path) -> None:
    ws, home = tmp_path / "shop", tmp_path / "home"
    write_tree(ws, {"AGENTS.md": "\n  Agents rules.\n\n", "CLAUDE.md": "Claude rules.\n", "pkg/.rules": "Nested.\n"})
    home.mkdir()
    sent = prompt(ws, home)
    assert sent["eager"] == [
        {"placement": "system", "text": SECTION + PROJECT + f"`shop/AGENTS.md`:\n{FENCE}\nAgents rules.\n{FENCE}\n\n"}
    ]
    assert not_loaded(sent) == {"CLAUDE.md": "name-shadowed"}


def test_an_empty_rules_file_still_wins_and_a_folder_does_not(tmp_path: Path) -> None:
    ws, home = tmp_path / "shop", tmp_path / "home"
    write_tree(ws, {".clinerules/a.md": "A folder of rules.\n", ".windsurfrules": "", "AGENTS.md": "Agents rules.\n"})
    home.mkdir()
    sent = prompt(ws, home)
    assert sent["eager"][0]["text"] == SECTION + PROJECT + f"`shop/.windsurfrules`:\n{FENCE}\n\n{FENCE}\n\n"
    assert not_loaded(sent) == {"AGENTS.md": "name-shadowed"}


def test_names_are_spelled_exactly(tmp_path: Path) -> None:
    ws, home = tmp_path / "shop", tmp_path / "home"
    write_tree(ws, {"agents.md": "Lower case.\n"})
    home.mkdir()
    assert prompt(ws, home)["eager"] == []


def test_the_personal_agents_md_comes_first_and_a_blank_one_is_left_out(tmp_path: Path) -> None:
    ws, home = tmp_path / "shop", tmp_path / "home"
    write_tree(ws, {"GEMINI.md": "Gemini rules.\n"})
    write_tree(home, {".config/zed/AGENTS.md": "  Personal rules.\n"})
    text = prompt(ws, home)["eager"][0]["text"]
    assert text.startswith(SECTION + "### Personal `AGENTS.md`\n\n")
    assert f"{FENCE}\nPersonal rules.\n{FENCE}\n\n### Project Rules" in text
    write_tree(home, {".config/zed/AGENTS.md": " \n"})
    sent = prompt(ws, home)
    assert "Personal" not in sent["eager"][0]["text"]
    assert not_loaded(sent) == {"AGENTS.md": "empty"}


def test_xdg_config_home_moves_the_personal_file(tmp_path: Path) -> None:
    ws, home, config = tmp_path / "shop", tmp_path / "home", tmp_path / "xdg"
    ws.mkdir()
    write_tree(home, {".config/zed/AGENTS.md": "Not read.\n"})
    write_tree(config, {"zed/AGENTS.md": "Moved.\n"})
    text = prompt(ws, home, env={"XDG_CONFIG_HOME": str(config)})["eager"][0]["text"]
    assert f"{FENCE}\nMoved.\n{FENCE}" in text and "Not read." not in text
