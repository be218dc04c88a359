"""OpenCode 2, a documented profile, through the command line: a workspace written from the
model's description (core/harnesses/opencode2.py): AGENTS.md alone, the walk up to the home
directory, a blank line between the elements."""

from __future__ import annotations

import subprocess
from pathlib import Path

from harness_cli import answer
from workspace_files import write_tree

MOVED_BY = ("XDG_CONFIG_HOME", "OPENCODE_CONFIG_DIR", "OPENCODE_DISABLE_PROJECT_CONFIG", "OPENCODE_DISABLE_CLAUDE_CODE")


def sent(cwd: Path, home: Path) -> dict:
    return answer("prompt", "opencode2", cwd, home, unset=MOVED_BY)


def element(path: Path, text: str) -> str:
    return f"Instructions from: {path}\n{text}"


def test_agents_md_alone_up_to_the_home_directory(tmp_path: Path) -> None:
    home = tmp_path / "home"
    repo = home / "code" / "repo"
    write_tree(
        home,
        {
            ".config/opencode/AGENTS.md": "User.\n",
            ".claude/CLAUDE.md": "Not read.\n",
            "AGENTS.md": "Home.\n",
            "code/AGENTS.md": "Above the repository.\n",
            "code/repo/AGENTS.md": "Repository.\n",
            "code/repo/CLAUDE.md": "Not read.\n",
            "code/repo/pkg/CONTEXT.md": "Not read.\n",
            "code/repo/pkg/AGENTS.md": "",
        },
    )
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    answered = sent(repo / "pkg", home)
    assert answered["eager"] == [
        {
            "placement": "system",
            "text": "\n\n".join(
                [
                    element(home / ".config/opencode/AGENTS.md", "User.\n"),
                    element(repo / "pkg/AGENTS.md", ""),
                    element(repo / "AGENTS.md", "Repository.\n"),
                    element(home / "code/AGENTS.md", "Above the repository.\n"),
                    element(home / "AGENTS.md", "Home.\n"),
                ]
            ),
        }
    ]
    assert not any(Path(f["path"]).name in ("CLAUDE.md", "CONTEXT.md") for f in answered["files"])


def test_outside_the_home_directory_the_project_root_bounds_the_walk(tmp_path: Path) -> None:
    home, ws = tmp_path / "home", tmp_path / "ws"
    write_tree(ws, {"AGENTS.md": "Above the project: not read.\n", "hg/.hg/store": "", "hg/AGENTS.md": "Project.\n"})
    write_tree(ws, {"plain/AGENTS.md": "Launch directory.\n", "plain/sub/AGENTS.md": "Below: not at start.\n"})
    home.mkdir()
    assert sent(ws / "hg", home)["eager"][0]["text"] == element(ws / "hg/AGENTS.md", "Project.\n")
    assert sent(ws / "plain", home)["eager"][0]["text"] == element(ws / "plain/AGENTS.md", "Launch directory.\n")


def test_a_read_below_brings_the_nearby_agents_md(tmp_path: Path) -> None:
    home, ws = tmp_path / "home", tmp_path / "ws"
    write_tree(ws, {".git/HEAD": "", "AGENTS.md": "Root.\n", "a/AGENTS.md": "A.\n", "a/CLAUDE.md": "Not read.\n", "a/x.ts": ""})
    home.mkdir()
    reminders = answer("reminders", "opencode2", ws, home, str(ws / "a/x.ts"), unset=MOVED_BY)["reminders"]
    nearby = element(ws / "a/AGENTS.md", "A.\n")
    assert [r["text"] for r in reminders] == [f"<system-reminder>\n{nearby}\n</system-reminder>"]
