"""Goose, a documented profile, through the command line: a workspace written from the model's
description (core/harnesses/goose.py): which hint files, in which order, their imports, and the
subfolder hints a read brings."""

from __future__ import annotations

import json
import os
from pathlib import Path

from harness_cli import answer
from workspace_files import write_tree

GLOBAL = "\n### Global Hints\nThese are my global goose hints.\n"
PROJECT = "### Project Hints\nThese are hints for working on the project in this directory.\n"


MOVED_BY = ("XDG_CONFIG_HOME", "GOOSE_PATH_ROOT", "CONTEXT_FILE_NAMES")


def hints(cwd: Path, home: Path, env: dict[str, str] | None = None) -> str:
    eager = answer("prompt", "goose", cwd, home, unset=MOVED_BY, env=env)["eager"]
    assert [b["placement"] for b in eager] in ([], ["system"])
    return eager[0]["text"] if eager else ""


def test_user_then_every_folder_from_the_git_root_down(tmp_path: Path) -> None:
    repo, home = tmp_path / "repo", tmp_path / "home"
    write_tree(
        repo,
        {
            ".git/HEAD": "ref: refs/heads/main\n",
            ".goosehints": "Root hints.\n",
            "AGENTS.md": "Root agents.\n",
            "pkg/AGENTS.md": "Package agents.",
            "pkg/sub/.goosehints": "Below the launch directory.\n",
        },
    )
    write_tree(home, {".config/goose/.goosehints": "Mine.\n", ".agents/AGENTS.md": "My agents.\n"})
    assert hints(repo / "pkg", home) == (
        GLOBAL + "Mine.\n\nMy agents.\n\n\n" + PROJECT + "Root hints.\n\nRoot agents.\n\nPackage agents."
    )


def test_without_git_the_launch_directory_alone(tmp_path: Path) -> None:
    ws, home = tmp_path / "ws", tmp_path / "home"
    write_tree(ws, {".goosehints": "Root hints.\n", "pkg/.goosehints": "Package hints.\n"})
    home.mkdir()
    assert hints(ws / "pkg", home) == PROJECT + "Package hints.\n"


def test_context_file_names_and_an_empty_file(tmp_path: Path) -> None:
    ws, home = tmp_path / "ws", tmp_path / "home"
    write_tree(ws, {"CLAUDE.md": "Claude.\n", ".goosehints": "", "AGENTS.md": "Agents.\n"})
    home.mkdir()
    env = {"CONTEXT_FILE_NAMES": json.dumps(["CLAUDE.md", ".goosehints"])}
    assert hints(ws, home, env) == PROJECT + "Claude.\n"
    assert hints(ws, home, {"CONTEXT_FILE_NAMES": "CLAUDE.md"}) == PROJECT + "Agents.\n"  # not JSON: the defaults


def test_imports_inlined_in_place_unless_refused(tmp_path: Path) -> None:
    repo, home = tmp_path / "repo", tmp_path / "home"
    write_tree(
        repo,
        {
            ".git/HEAD": "ref: refs/heads/main\n",
            ".gitignore": "secret.env\n",
            ".goosehints": "See @docs/style.md  # style\nKeep @secret.env and @/etc/hosts; mail me@example.com\n",
            "docs/style.md": "Style: see @Nested\n",
            "docs/Nested": "Nested text.",
            "secret.env": "TOKEN=1\n",
        },
    )
    home.mkdir()
    assert hints(repo, home) == PROJECT + (
        "See --- Content from docs/style.md ---\nStyle: see --- Content from Nested ---\nNested text.\n--- End of Nested ---\n"
        "\n--- End of docs/style.md ---  # style\nKeep @secret.env and @/etc/hosts; mail me@example.com\n"
    )


def test_a_read_below_brings_the_subfolder_hints(tmp_path: Path) -> None:
    ws, home = tmp_path / "ws", tmp_path / "home"
    write_tree(ws, {".goosehints": "Root.\n", "a/.goosehints": "A hints.\n", "a/b/AGENTS.md": "B agents.\n", "a/b/x.ts": "x\n"})
    home.mkdir()
    reminders = answer("reminders", "goose", ws, home, str(ws / "a/b/x.ts"), unset=MOVED_BY)["reminders"]
    assert [(r["placement"], r["text"]) for r in reminders] == [
        ("system", f"### Subdirectory Hints ({os.path.realpath(ws / 'a/b')})\nA hints.\n\nB agents.\n")
    ]
