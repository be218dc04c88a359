"""The server's pure helpers, without a client: settings layering, references, headings, patterns."""

from __future__ import annotations

import pytest

from lsp_agents.core.file_uses import owner_directory
from lsp_agents.core.model import Span
from lsp_agents.core.settings import parse_settings
from lsp_agents.server.references import references
from lsp_agents.server.server import merged
from lsp_agents.server.symbols import headings
from lsp_agents.server.watch import watch_patterns


@pytest.mark.parametrize(
    ("layers", "expected"),
    [
        pytest.param(({"a": 1}, None, {"b": 2}), {"a": 1, "b": 2}, id="skips-non-dicts"),
        pytest.param(
            ({"hover": {"sourceFiles": "off"}, "x": 1}, {"hover": {"other": 2}}),
            {"hover": {"sourceFiles": "off", "other": 2}, "x": 1},
            id="nested-merge",
        ),
        pytest.param(({"harnesses": ["codex"]}, {"harnesses": "auto"}), {"harnesses": "auto"}, id="later-wins"),
    ],
)
def test_settings_layers_merge(layers, expected) -> None:
    assert merged(*layers) == expected


def test_references_cover_both_import_dialects_and_local_links() -> None:
    text = "# T\n\n@a.md and `@code.md`\n\n```\n@fenced.md\n```\n\n[x](b.md#part) [w](https://e.org) [h](#top) ~/@no\n@~/g.md\n"
    found = {(r.written, r.harnesses, r.span) for r in references(text, "/ws/AGENTS.md", "/home/u")}
    assert ("a.md", ("claude-code", "gemini"), Span(2, 0, 2, 5)) in found
    assert ("code.md", ("claude-code",), Span(2, 11, 2, 19)) not in found  # in a code span for both
    assert ("fenced.md", ("claude-code",), Span(5, 0, 5, 10)) not in found
    assert not any(r[0] == "fenced.md" for r in found)  # a backtick region for Gemini too
    assert ("~/g.md", ("claude-code",), Span(9, 0, 9, 7)) in found  # Gemini paths start with . / or a letter
    assert ("b.md", (), Span(8, 0, 8, 14)) in found
    assert not any(r[0].startswith(("https:", "#")) for r in found)
    targets = {r.written: r.target for r in references(text, "/ws/AGENTS.md", "/home/u")}
    assert targets["a.md"] == "/ws/a.md" and targets["~/g.md"] == "/home/u/g.md"
    assert references(text, "/ws/main.py", "/home/u") == []


def test_headings_skip_the_yaml_header_and_code() -> None:
    text = "---\ntitle: x\n---\n# One\n\n```\n# not a heading\n```\n\nTwo\n---\n### Three\n"
    assert headings(text) == [(1, 3, "One"), (2, 9, "Two"), (3, 11, "Three")]


@pytest.mark.parametrize(
    ("path", "owner"),
    [
        ("/ws/pkg/AGENTS.md", "/ws/pkg"),
        ("/ws/pkg/.claude/rules/sub/x.md", "/ws/pkg"),
        ("/ws/.github/instructions/a.instructions.md", "/ws"),
        ("/ws/.cursor/rules/r.mdc", "/ws"),
        ("/ws/docs/.claude/CLAUDE.md", "/ws/docs"),
    ],
)
def test_owner_directory(path: str, owner: str) -> None:
    assert owner_directory(path) == owner


def test_watch_patterns_include_user_names() -> None:
    settings, _messages = parse_settings(
        {"gemini": {"fileNames": ["CONTEXT.md", "RULES.md"]}, "codex": {"fallbackFilenames": ["TEAM.md"]}}
    )
    patterns = watch_patterns(settings)
    assert "**/RULES.md" in patterns and "**/TEAM.md" in patterns and "**/AGENTS.md" in patterns
    assert len(patterns) == len(set(patterns))
