"""Cline CLI's `@path` mentions (`cline_at`): the cases beyond those the `cline-typed-at` captures replay."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from lsp_agents.core.agents.cline_at import Launch, mentions, message, refuses
from lsp_agents.core.fs import FileSystem


@pytest.mark.parametrize(
    ("line", "found"),
    [
        ("/look @a.txt @a.txt, @b", ["a.txt", "b"]),  # each name once, trailing punctuation dropped
        ("(@a) x@b @(c) @'d'. @`e`!", ["c", "d", "e"]),  # after a blank or at the start only
        ('@a@b @@ @ @""', []),  # a name holding `@`, or nothing left
        ("@a]\u00a0@b\u3000@c\ufeff@d", ["a]", "b", "c", "d"]),  # JavaScript's blanks; `]` is kept
        ('@"two words"', ["two"]),
    ],
)
def test_mentions_in_a_line(line: str, found: list[str]) -> None:
    assert mentions(line) == found


def test_a_line_without_a_blank_is_refused() -> None:
    assert refuses("/look") and refuses("/look@a.txt")
    assert not refuses("/look x") and not refuses("/look\u3000x")


def _launch(tmp_path: Path, cwd: str = "") -> Launch:
    ws, home = tmp_path / "ws", tmp_path / "home"
    (ws / ".git").mkdir(parents=True)
    home.mkdir()
    (ws / "a.txt").write_text("alpha\n")
    (ws / "big.txt").write_bytes(b"x")
    return Launch(FileSystem(), str(ws / cwd), str(ws), str(home))


def test_a_file_past_the_loaders_limit_is_an_error(tmp_path: Path) -> None:
    launch = _launch(tmp_path)
    os.truncate(Path(launch.root) / "big.txt", 20_480_001)
    sent = message(launch, "/look @big.txt")
    assert sent.endswith("\nError fetching content: File is too large to read into context.\n</file_content>")


def test_the_replacement_of_an_explicit_path_expands_dollar_patterns(tmp_path: Path) -> None:
    launch = _launch(tmp_path)
    (Path(launch.root) / "q$`.txt").write_text("q\n")
    assert message(launch, "/look @./q$`.txt").startswith("/look [file: q/look .txt]")


def test_an_explicit_path_outside_is_never_looked_at(tmp_path: Path) -> None:
    launch = _launch(tmp_path)
    (tmp_path / "secret.txt").write_text("SECRET\n")
    (Path(launch.root) / "link.txt").symlink_to(tmp_path / "secret.txt")
    sent = message(launch, "/look @../secret.txt @./link.txt")
    assert "SECRET" not in sent
    assert sent.count("outside the workspace, not looked at") == 2
    assert sent.count("outside the workspace, attached by Cline CLI, not read") == 2


def test_the_home_folder_as_workspace_has_no_index(tmp_path: Path) -> None:
    launch = _launch(tmp_path)
    home = Launch(launch.fs, launch.root, launch.root, launch.root)
    assert message(home, "/look @a.txt") == "/look @a.txt"
    assert message(launch, "/look @a.txt") != "/look @a.txt"


def test_tags_the_cli_strips_are_not_modelled(tmp_path: Path) -> None:
    assert "not modelled" in message(_launch(tmp_path), "/look <user_input>x</user_input> @a.txt")
