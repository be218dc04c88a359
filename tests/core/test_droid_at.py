"""droid's tagged paths (`droid_at`) and built-in commands (`droid_builtins`): the cases beyond those the
`droid-typed-at`, `droid-typed-builtins` and `droid-typed-readiness` captures replay."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from lsp_agents.core.agents.droid_at import MAX_CHARS, _written_paths, excerpt, tag_parts
from lsp_agents.core.agents.droid_builtins import loop_prompts, sanitized_url, tagged_text
from lsp_agents.core.fs import FileSystem


@pytest.mark.parametrize(
    ("text", "written"),
    [
        ("@a @b, (@c) [@d] x@e +@f @g[1]", ["a", "b", "c", "d", "g[1"]),  # `]` ends a path, `[` does not
        ('@\'a b\' @"c" @"d', ["a b", "c"]),  # an unclosed quote ends the search
        ("@a\u3000@b\ufeff@c", ["a", "b", "c"]),  # JavaScript's blanks end a path
        ("@ @\n @'' @\"'x\" @a@b", ["a@b"]),  # nothing, a quote first: skipped; a later `@` stays in the path
    ],
)
def test_written_paths(text: str, written: list[str]) -> None:
    assert _written_paths(text) == written


def test_a_cut_inside_the_first_line_keeps_the_limit(tmp_path: Path) -> None:
    text, end, total, truncated = excerpt("x" * (MAX_CHARS + 5) + "\nmore")
    assert (len(text), end, total, truncated) == (MAX_CHARS, 1, 2, True)


def test_code_units_count_twice_for_astral_characters() -> None:
    line = "\U0001f600" * 20_000  # 40,000 code units a line
    text, end, total, truncated = excerpt(f"{line}\n{line}")
    assert (text, end, total, truncated) == (line, 1, 2, True)


def test_a_file_past_droids_limit_and_a_backslash_path(tmp_path: Path) -> None:
    (tmp_path / "big.txt").write_bytes(b"x")
    os.truncate(tmp_path / "big.txt", 20 * 1024 * 1024 + 1)
    (tmp_path / "back\\slash.txt").write_text("b\n")
    parts = tag_parts(FileSystem(), str(tmp_path), "@big.txt @back\\slash.txt")
    assert (
        parts[1]
        == f"<system-reminder>\nCould not include contents of {tmp_path}/big.txt: File is too large to read\n</system-reminder>"
    )
    assert parts[2].endswith(f"file: {tmp_path}/back/slash.txt\n</system-reminder>")  # droid shows `/` for `\`
    assert parts[3] == f"[what droid sends for the tagged path `{tmp_path}/back/slash.txt`: not modelled]"


def test_a_name_that_starts_with_two_dots_is_outside(tmp_path: Path) -> None:
    (tmp_path / "..odd").write_text("x\n")
    assert tag_parts(FileSystem(), str(tmp_path), "@..odd") == []  # `As`: the relative path starts with `..`


@pytest.mark.parametrize(
    ("request_", "prompts"),
    [
        ("check the build", True),
        ("5m check", False),
        ("1.25h check", False),
        ("1.25 hours check", True),  # the first word alone is no interval
        ("check every 2 days", False),
        ("check every day then every 5m", True),  # the first `every` decides
        ("check every 5x", True),
        ("Status", False),
        ("", False),
    ],
)
def test_loop_prompts(request_: str, prompts: bool) -> None:
    assert loop_prompts(request_) is prompts


def test_readiness_urls_and_the_text_tags_are_looked_for_in() -> None:
    assert sanitized_url(" https://u:p@GitHub.com/x.git ") == "https://github.com/x.git"
    assert sanitized_url("git@github.com:x/y.git") == "git@github.com:x/y.git"
    assert tagged_text("readiness-fix", " @a.txt ") == '"@a.txt"'  # quoted: the tag takes the closing quote in
    assert tagged_text("review", "@a.txt") == ""
