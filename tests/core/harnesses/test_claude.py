"""Claude Code's model (`lsp_agents/core/harnesses/claude.py`, `claude_memory.py`), called directly:
the user's files, then from the root down to cwd each directory's CLAUDE.md, .claude/CLAUDE.md,
unconditional rules and CLAUDE.local.md; AGENTS.md only when no CLAUDE.md counts; `@` imports;
on read, the nested files between cwd and the read file and the rules whose `paths:` match it."""

from __future__ import annotations

import json

import pytest
from harness_helpers import text

from lsp_agents.core.harnesses.claude import PREAMBLE
from lsp_agents.core.model import Placement, Reason

R = Reason
TS_RULE = '---\npaths:\n  - "**/*.ts"\n---\nUse strict types.\n'


def _mode(mode: str) -> dict[str, str]:
    """The user settings that choose which instruction files the agents-md plugin reads."""
    settings = {"pluginConfigs": {"agents-md@builtin": {"options": {"instructionFiles": mode}}}}
    return {".claude/settings.json": json.dumps(settings)}


@pytest.mark.parametrize(
    ("files", "home", "env", "loaded", "not_loaded"),
    [
        pytest.param(
            {"CLAUDE.md": "root\n", "pkg/CLAUDE.md": "pkg\n"}, {}, {}, ["CLAUDE.md", "pkg/CLAUDE.md"], {}, id="root-first"
        ),
        pytest.param(
            {
                "pkg/CLAUDE.local.md": "local\n",
                "pkg/.claude/rules/style.md": "style\n",
                "pkg/.claude/CLAUDE.md": "dot claude\n",
                "pkg/CLAUDE.md": "pkg\n",
            },
            {},
            {},
            ["pkg/CLAUDE.md", "pkg/.claude/CLAUDE.md", "pkg/.claude/rules/style.md", "pkg/CLAUDE.local.md"],
            {},
            id="a-directorys-files-in-claudes-order",
        ),
        pytest.param(
            {"AGENTS.md": "root\n", "pkg/AGENTS.md": "pkg\n"},
            {},
            {},
            ["AGENTS.md", "pkg/AGENTS.md"],
            {},
            id="agents-md-without-claude-md",
        ),
        pytest.param(
            {"AGENTS.md": "root\n", "pkg/CLAUDE.md": "pkg\n"},
            {},
            {},
            ["pkg/CLAUDE.md"],
            {"AGENTS.md": R.CLAUDE_MD_PRESENT},
            id="a-claude-md-anywhere-turns-agents-md-off",
        ),
        pytest.param(
            {"AGENTS.md": "root\n", "pkg/CLAUDE.md": "pkg\n"},
            _mode("claude-md-and-agents-md"),
            {},
            ["AGENTS.md", "pkg/CLAUDE.md"],
            {},
            id="mode-claude-md-and-agents-md",
        ),
        pytest.param(
            {"AGENTS.md": "root\n"}, _mode("claude-md"), {}, [], {"AGENTS.md": R.DISABLED}, id="mode-claude-md-reads-no-agents-md"
        ),
        pytest.param(
            {"pkg/CLAUDE.md": "- @docs/a.md\n- @docs/missing.md\n- @../shared.md\n", "pkg/docs/a.md": "a\n", "shared.md": "s\n"},
            {},
            {},
            ["pkg/CLAUDE.md", "pkg/docs/a.md"],
            {"pkg/docs/missing.md": R.IMPORT_NOT_FOUND, "shared.md": R.IMPORT_NOT_APPROVED},
            id="imports-follow-their-file-and-leave-cwd-only-once-approved",
        ),
        pytest.param(
            {".claude/rules/ts.md": TS_RULE, "CLAUDE.md": "---\ntitle: x\n---\n<!-- only a note -->\n"},
            {},
            {},
            [],
            {".claude/rules/ts.md": R.CONDITIONAL, "CLAUDE.md": R.EMPTY},
            id="a-rule-with-paths-waits-and-a-file-of-header-and-comments-is-empty",
        ),
        pytest.param(
            {"CLAUDE.md": "root\n"},
            {".claude/CLAUDE.md": "mine\n", ".claude/rules/me.md": "my rule\n"},
            {},
            ["~/.claude/CLAUDE.md", "~/.claude/rules/me.md", "CLAUDE.md"],
            {},
            id="the-users-files-first",
        ),
        pytest.param(
            {}, {"conf/CLAUDE.md": "mine\n"}, {"CLAUDE_CONFIG_DIR": "~/conf"}, ["~/conf/CLAUDE.md"], {}, id="claude-config-dir"
        ),
        pytest.param({"CLAUDE.md": "x" * (4 * 1024 * 1024 + 1)}, {}, {}, [], {"CLAUDE.md": R.TOO_LARGE}, id="over-4-mib-skipped"),
    ],
)
def test_eager(workspace, files, home, env, loaded, not_loaded) -> None:
    ws = workspace(files, home)
    cascade = ws.eager("claude-code", "pkg", env=env)
    assert ws.loaded(cascade) == loaded
    assert ws.not_loaded(cascade) == not_loaded


def test_the_eager_text_labels_each_file_after_the_preamble(workspace) -> None:
    ws = workspace({"CLAUDE.md": "\n  Use pnpm.  \n"})
    assert text(ws.eager("claude-code")) == (
        f"<system-reminder>\n{PREAMBLE}\n\n"
        f"Contents of {ws.path('CLAUDE.md')} (project instructions, checked into the codebase):\n\nUse pnpm.\n</system-reminder>"
    )


@pytest.mark.parametrize(
    ("files", "target", "loaded", "not_loaded"),
    [
        pytest.param(
            {"a/CLAUDE.md": "a\n", "a/b/CLAUDE.md": "b\n"}, "a/b/f.ts", ["a/CLAUDE.md", "a/b/CLAUDE.md"], {}, id="nested"
        ),
        pytest.param({".claude/rules/ts.md": TS_RULE}, "a/f.ts", [".claude/rules/ts.md"], {}, id="a-rule-whose-paths-match"),
        pytest.param(
            {".claude/rules/ts.md": TS_RULE},
            "a/f.py",
            [],
            {".claude/rules/ts.md": R.GLOB_NO_MATCH},
            id="a-rule-whose-paths-do-not",
        ),
        pytest.param({"CLAUDE.md": "root\n"}, "f.ts", [], {}, id="nothing-the-start-loaded"),
    ],
)
def test_on_read(workspace, files, target, loaded, not_loaded) -> None:
    ws = workspace(files)
    cascade = ws.on_read("claude-code", target)
    assert ws.loaded(cascade) == loaded
    assert ws.not_loaded(cascade) == not_loaded


def test_a_nested_agents_md_arrives_from_the_agents_md_hook(workspace) -> None:
    """Without a CLAUDE.md, a subdirectory's AGENTS.md is a system message of the plugin's hook."""
    ws = workspace({"a/AGENTS.md": "a\n"})
    cascade = ws.on_read("claude-code", "a/f.ts")
    assert [(b.placement, b.text) for b in cascade.blocks] == [
        (Placement.SYSTEM, f"tool.call hook additional context: Contents of {ws.path('a/AGENTS.md')}:\n\na\n")
    ]
