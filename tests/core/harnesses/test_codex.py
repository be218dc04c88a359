"""Codex CLI's model (`lsp_agents/core/harnesses/codex.py`), called directly: per directory from the
project root down to cwd the first existing of AGENTS.override.md, AGENTS.md and the configured
fallback names; a shared byte budget spent root first; the global file in $CODEX_HOME, the first
non-empty of the two names, trimmed."""

from __future__ import annotations

import dataclasses

import pytest
from harness_helpers import text

from lsp_agents.core.fs import FileSystem
from lsp_agents.core.harnesses import HARNESSES
from lsp_agents.core.model import Reason

R = Reason
FALLBACK = {".codex/config.toml": 'project_doc_fallback_filenames = ["CLAUDE.md"]\n'}


@pytest.mark.parametrize(
    ("files", "home", "env", "loaded", "not_loaded"),
    [
        pytest.param(
            {"AGENTS.md": "root\n", "pkg/AGENTS.md": "pkg\n"},
            {},
            {},
            ["AGENTS.md", "pkg/AGENTS.md"],
            {},
            id="root-first-down-to-cwd",
        ),
        pytest.param(
            {"pkg/AGENTS.override.md": "override\n", "pkg/AGENTS.md": "pkg\n"},
            {},
            {},
            ["pkg/AGENTS.override.md"],
            {"pkg/AGENTS.md": R.OVERRIDE_SHADOWED},
            id="the-override-wins-in-its-directory",
        ),
        pytest.param(
            {"pkg/AGENTS.override.md": " \n", "pkg/AGENTS.md": "pkg\n"},
            {},
            {},
            [],
            {"pkg/AGENTS.override.md": R.EMPTY, "pkg/AGENTS.md": R.OVERRIDE_SHADOWED},
            id="an-empty-override-silences-agents-md",
        ),
        pytest.param({"pkg/CLAUDE.md": "claude\n"}, {}, {}, [], {}, id="no-fallback-name-unless-configured"),
        pytest.param(
            {"pkg/CLAUDE.md": "claude\n", "AGENTS.md": "root\n", "CLAUDE.md": "root claude\n"},
            FALLBACK,
            {},
            ["AGENTS.md", "pkg/CLAUDE.md"],
            {"CLAUDE.md": R.NAME_SHADOWED},
            id="a-configured-fallback-name-after-agents-md",
        ),
        pytest.param(
            {"pkg/AGENTS.md": "pkg\n"},
            {".codex/AGENTS.override.md": "\n", ".codex/AGENTS.md": "mine\n"},
            {},
            ["~/.codex/AGENTS.md", "pkg/AGENTS.md"],
            {"~/.codex/AGENTS.override.md": R.EMPTY},
            id="the-global-file-is-the-first-non-empty",
        ),
        pytest.param(
            {},
            {".codex/AGENTS.override.md": "override\n", ".codex/AGENTS.md": "mine\n"},
            {},
            ["~/.codex/AGENTS.override.md"],
            {"~/.codex/AGENTS.md": R.GLOBAL_SHADOWED},
            id="a-global-override-shadows-the-global-agents-md",
        ),
        pytest.param(
            {}, {"elsewhere/AGENTS.md": "mine\n"}, {"CODEX_HOME": "~/elsewhere"}, ["~/elsewhere/AGENTS.md"], {}, id="codex-home"
        ),
        pytest.param(
            {"AGENTS.md": "root\n", "pkg/AGENTS.md": "pkg\n"},
            {".codex/config.toml": "project_root_markers = []\n"},
            {},
            ["pkg/AGENTS.md"],
            {"AGENTS.md": R.OUTSIDE_BOUNDARY},
            id="no-root-markers-cwd-alone",
        ),
    ],
)
def test_eager(workspace, files, home, env, loaded, not_loaded) -> None:
    ws = workspace(files, home)
    cascade = ws.eager("codex", "pkg", env=env)
    assert ws.loaded(cascade) == loaded
    assert ws.not_loaded(cascade) == not_loaded


def test_the_byte_budget_is_spent_root_first_with_a_raw_cut(workspace) -> None:
    ws = workspace(
        {"AGENTS.md": "12345678\n", "a/AGENTS.md": "abcdefghij\n", "a/b/AGENTS.md": "never\n"},
        {".codex/config.toml": "project_doc_max_bytes = 12\n"},
    )
    cascade = ws.eager("codex", "a/b")
    assert [(ws.name(c.path), c.loaded, c.truncated_at, c.reason) for c in cascade.files] == [
        ("AGENTS.md", True, None, None),
        ("a/AGENTS.md", True, 3, None),  # 12 - 9 bytes left
        ("a/b/AGENTS.md", False, None, R.BUDGET_EXHAUSTED),
    ]
    assert "12345678\n\n\nabc\n</INSTRUCTIONS>" in text(cascade)


def test_a_file_over_the_read_cap_is_cut_by_the_budget_when_its_share_was_read(workspace) -> None:
    """Codex reads only what its budget has room for: a file larger than the reader's cap still
    sends its first bytes when the budget ends within them, and is reported too large otherwise."""
    ws = workspace(
        {"AGENTS.md": "x" * 50 + "\n", "a/AGENTS.md": "y" * 200 + "\n"}, {".codex/config.toml": "project_doc_max_bytes = 90\n"}
    )
    capped = dataclasses.replace(ws.context("a"), fs=FileSystem(max_read_bytes=64))
    cascade = HARNESSES["codex"].load_eager(capped)
    assert [(ws.name(c.path), c.loaded, c.truncated_at, c.reason) for c in cascade.files] == [
        ("AGENTS.md", True, None, None),
        ("a/AGENTS.md", True, 39, None),  # 90 - 51 bytes left, within the 64 read
    ]
    roomy = dataclasses.replace(ws.context("a"), fs=FileSystem(max_read_bytes=16))
    cascade = HARNESSES["codex"].load_eager(roomy)
    assert [(ws.name(c.path), c.loaded, c.reason) for c in cascade.files] == [
        ("AGENTS.md", False, R.TOO_LARGE),  # the budget's 90 bytes are more than the 16 read
        ("a/AGENTS.md", False, R.TOO_LARGE),
    ]


def test_the_global_text_is_trimmed_and_comes_before_the_project_docs(workspace) -> None:
    ws = workspace({"AGENTS.md": "root\n"}, {".codex/AGENTS.md": "\n  mine  \n"})
    assert text(ws.eager("codex")) == (
        f"# AGENTS.md instructions for {ws.ws}\n\n<INSTRUCTIONS>\nmine\n\n--- project-doc ---\n\nroot\n\n</INSTRUCTIONS>"
    )


def test_nothing_on_read(workspace) -> None:
    ws = workspace({"pkg/AGENTS.md": "pkg\n"})
    assert ws.on_read("codex", "pkg/file.ts").files == []
