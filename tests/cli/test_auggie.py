"""Auggie's documented profile through the command line: a workspace written from the model's
description (core/harnesses/auggie.py): the files in their order of precedence, workspace rules
by `type`, the user's rules always."""

from __future__ import annotations

import subprocess
from pathlib import Path

from harness_cli import answer
from workspace_files import write_tree


def prompt(cwd: Path, home: Path) -> dict:
    return answer("prompt", "auggie", cwd, home)


def rule(path: Path, text: str) -> str:
    return f'<rule path="{path}">\n{text}\n</rule>'


def test_files_in_order_of_precedence_and_rules_by_type(tmp_path: Path) -> None:
    ws, home = tmp_path / "ws", tmp_path / "home"
    write_tree(
        ws,
        {
            "AGENTS.md": "Agents.\n",
            "CLAUDE.md": "Claude.\n",
            ".augment/guidelines.md": "Guidelines.\n",
            ".augment/rules/always.md": "---\ntype: always_apply\n---\nAlways.\n",
            ".augment/rules/sub/auto.md": "---\ntype: agent_requested\ndescription: Deploys\n---\nAuto.\n",
            ".augment/rules/manual.md": "---\ntype: manual\n---\nManual.\n",
            ".augment/rules/bare.md": "No type: manual.\n",
        },
    )
    write_tree(home, {".augment/rules/mine.md": "---\ntype: manual\n---\nThe user's, always.\n"})
    sent = prompt(ws, home)
    assert sent["eager"] == [
        {
            "placement": "system",
            "text": "\n\n".join(
                [
                    rule(ws / "CLAUDE.md", "Claude."),
                    rule(ws / "AGENTS.md", "Agents."),
                    rule(ws / ".augment/guidelines.md", "Guidelines."),
                    rule(ws / ".augment/rules/always.md", "Always."),
                    rule(home / ".augment/rules/mine.md", "The user's, always."),
                ]
            ),
        }
    ]
    assert {Path(f["path"]).name: f["reason"] for f in sent["files"]} == {
        "CLAUDE.md": None,
        "AGENTS.md": None,
        "guidelines.md": None,
        "always.md": None,
        "auto.md": "agent-requested",
        "manual.md": "manual",
        "bare.md": "manual",
        "mine.md": None,
    }


def test_the_workspace_root_is_the_git_root(tmp_path: Path) -> None:
    repo, home = tmp_path / "repo", tmp_path / "home"
    write_tree(repo, {"AGENTS.md": "Root.\n", "pkg/AGENTS.md": "Not read.\n", ".augment-guidelines": "Legacy guidelines.\n"})
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    home.mkdir()
    sent = prompt(repo / "pkg", home)
    assert sent["eager"][0]["text"] == rule(repo / "AGENTS.md", "Root.") + "\n\n" + rule(
        repo / ".augment-guidelines", "Legacy guidelines."
    )
    assert answer("reminders", "auggie", repo, home, str(repo / "pkg/AGENTS.md"))["reminders"] == []
