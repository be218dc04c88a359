"""Import positions the editor shows: Claude finds `@path` beside a cut comment too."""

from lsp_agents.core.imports import claude_import_refs


def test_import_after_a_comment_block_has_its_source_position() -> None:
    text = "# title\r\n\r\n   <!-- note --> @docs/a.md\r\nplain @docs/b.md\r\n"
    refs = claude_import_refs(text)
    assert [(r.path, r.line, r.character) for r in refs] == [("docs/a.md", 2, 17), ("docs/b.md", 3, 6)]
    assert [text[r.start : r.end] for r in refs] == ["@docs/a.md", "@docs/b.md"]


def test_comments_hide_imports_but_not_the_text_beside_them_even_in_a_list() -> None:
    text = "<!-- @docs/hidden.md -->\n\n- <!-- x --> @docs/item.md\n\n```\n<!-- y --> @docs/code.md\n```\n"
    assert [r.path for r in claude_import_refs(text)] == ["docs/item.md"]
