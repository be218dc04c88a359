"""How Gemini CLI's `parseAllAtCommands` splits a typed line (`gemini_at.references`): the cases its
regular expression decides, beyond those the `gemini-typed-at` captures replay."""

from __future__ import annotations

import pytest

from lsp_agents.core.agents.gemini_at import references, typed_line_message
from lsp_agents.core.fs import FileSystem


@pytest.mark.parametrize(
    ("line", "found"),
    [
        ("end @a.txt.", ["@a.txt"]),  # a dot before the end or a blank is not part of the path
        ("@a.b.c, @d;e @f!g @h?i", ["@a.b.c", "@d", "@f", "@h"]),
        ("(@a.txt) [@b] {@c}", ["@a.txt", "@b", "@c"]),
        ("mail user@host.com", ["@host.com"]),  # no word boundary needed
        (r"@sp\ ace.txt and @x\,y", ["@sp ace.txt", "@x,y"]),  # escapes unescaped
        (r"not \@this but @that", ["@that"]),
        ('@"two words".txt @"open', ['@"two words".txt', '@"open']),
        ("@ alone and @", []),
        ("@a.\n@b", ["@a", "@b"]),
        ("@dots...end", ["@dots...end"]),
    ],
)
def test_references_in_a_line(line: str, found: list[str]) -> None:
    assert [p.text for p in references(line) if p.reference] == found


def test_blank_text_between_references_is_dropped() -> None:
    parts = references("@a @b  text ")
    assert [(p.text, p.reference) for p in parts] == [("@a", True), ("@b", True), ("  text ", False)]


def test_a_path_validatepath_rejects_reads_the_path_found_in_it(tmp_path) -> None:
    """`tryExtractPath` (checked in node against the bundle's function): a quoted path over 20
    characters is rejected, and the first word with a `.`, `/` or `\\` in it is read instead,
    labelled with the name as typed."""
    (tmp_path / "name.txt").write_text("found\n")
    sent = typed_line_message(FileSystem(), str(tmp_path), "GEMINI.md", lambda _path: "", '/look @"some long file name.txt"')
    assert sent == (
        '/look @name.txt\n--- Content from referenced files ---\nContent from @"some long file name.txt":\nfound'
        "\n--- End of content ---"
    )
