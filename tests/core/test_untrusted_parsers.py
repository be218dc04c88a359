"""Every parser fed workspace bytes has a bound: hostile input gives an answer, fast.

Each case runs under a time limit, so a parser that went quadratic again fails here instead of
hanging the suite. Config files (JSON, TOML) are covered in test_config_files.py, globs in the
CLI robustness tests.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lsp_agents.core.frontmatter import MAX_FRONTMATTER_NESTING, split_frontmatter
from lsp_agents.core.harnesses.cline_header import agent_header
from lsp_agents.core.imports import backtick_regions, claude_import_refs, gemini_import_refs
from lsp_agents.core.text import forget_parsed_texts
from lsp_agents.core.timelimit import call_within
from lsp_agents.server.references import references

LIMIT_SECONDS = 5.0
BOMB = (
    "a: &a ["
    + ",".join(["lol"] * 9)
    + "]\n"
    + "".join(f"{chr(98 + i)}: &{chr(98 + i)} [" + ",".join([f"*{chr(97 + i)}"] * 9) + "]\n" for i in range(8))
)


@pytest.mark.parametrize(
    ("header", "error"),
    [
        ("paths: " + "[" * 20_000 + "]" * 20_000, f"nested deeper than {MAX_FRONTMATTER_NESTING}"),
        ("paths:\n" + "".join(" " * i + f"k{i}:\n" for i in range(300)), f"nested deeper than {MAX_FRONTMATTER_NESTING}"),
        ("paths: '" + "x" * 70_000 + "'", "longer than"),
        ("paths: " + "[" * 30 + "]" * 30, None),
        (BOMB + "paths: '**/*.ts'", None),
    ],
)
def test_hostile_frontmatter(header: str, error: str | None) -> None:
    forget_parsed_texts()
    fields, _body, problem = call_within(LIMIT_SECONDS, lambda: split_frontmatter(f"---\n{header}\n---\nbody\n"))
    if error is None:
        assert problem is None or "YAML" in problem.message
    else:
        assert fields is None and problem is not None and error in problem.message


def test_an_agent_header_tried_before_many_fences_is_bounded() -> None:
    """Cline takes an agent's header from the last `---` line before which the text reads as its
    mapping: each try parses everything before its line, so 2,000 keys and then 2,000 `---` lines
    took minutes when every line was tried."""
    header = "name: a\ndescription: b\n" + "".join(f"k{i}: v\n" for i in range(2_000))
    found = call_within(LIMIT_SECONDS, lambda: agent_header(f"---\n{header}" + "---\n" * 2_000 + "body\n"))
    assert not isinstance(found, str) and (found.name, found.description) == ("a", "b")


@pytest.mark.parametrize(
    "text",
    [
        "`" * 50_000 + " @x.md",
        "@" * 100_000,
        "@a/" * 50_000,
        "[" * 100_000,
        "[a](" * 30_000,
        "> " * 10_000 + "@x.md",
        "*a" * 100_000 + " @x.md",
    ],
)
def test_hostile_import_and_link_text(text: str) -> None:
    call_within(
        LIMIT_SECONDS, lambda: (claude_import_refs(text), gemini_import_refs(text), references(text, "/w/AGENTS.md", "/h"))
    )


_GEMINI_BACKTICKS = re.compile(r"(`+)([\s\S]*?)\1")


@settings(max_examples=2_000, deadline=None)
@given(st.text(alphabet="``a\n@", max_size=24))
def test_backtick_regions_are_those_of_geminis_regex(text: str) -> None:
    assert backtick_regions(text) == [(m.start(), m.end()) for m in _GEMINI_BACKTICKS.finditer(text)]


def test_a_pattern_list_is_bounded_as_a_whole() -> None:
    """Thousands of patterns in one `paths:` list: every path would be matched against each."""
    from lsp_agents.core.globs import MAX_BRACE_EXPANSIONS, GlobError, compile_patterns

    assert compile_patterns([f"src{i}/*.ts" for i in range(MAX_BRACE_EXPANSIONS)], anchored=True)("src7/a.ts")
    with pytest.raises(GlobError, match="patterns in one list"):
        compile_patterns([f"src{i}/{{a,b}}/*.ts" for i in range(MAX_BRACE_EXPANSIONS // 2 + 1)], anchored=True)
