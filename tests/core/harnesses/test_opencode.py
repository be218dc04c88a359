"""opencode's model (`lsp_agents/core/harnesses/opencode.py`), called directly: the first file name
of AGENTS.md > CLAUDE.md > CONTEXT.md found anywhere from cwd up to the git worktree wins and every
ancestor holding it stacks, nearest first; one global file; the config's `instructions`; the read
tool's walk from the read file's directory up to cwd."""

from __future__ import annotations

import pytest
from harness_helpers import text

from lsp_agents.core.model import Reason

R = Reason


@pytest.mark.parametrize(
    ("files", "home", "env", "loaded", "not_loaded"),
    [
        pytest.param(
            {"AGENTS.md": "root\n", "pkg/AGENTS.md": "pkg\n", "pkg/CLAUDE.md": "claude\n"},
            {},
            {},
            ["pkg/AGENTS.md", "AGENTS.md"],
            {"pkg/CLAUDE.md": R.FAMILY_SHADOWED},
            id="the-first-name-found-wins-and-its-ancestors-stack-nearest-first",
        ),
        pytest.param(
            {"AGENTS.md": "root\n", "pkg/CLAUDE.md": "claude\n"},
            {},
            {},
            ["AGENTS.md"],
            {"pkg/CLAUDE.md": R.FAMILY_SHADOWED},
            id="an-agents-md-above-beats-a-nearer-claude-md",
        ),
        pytest.param(
            {"pkg/CLAUDE.md": "claude\n", "CONTEXT.md": "context\n"},
            {},
            {},
            ["pkg/CLAUDE.md"],
            {"CONTEXT.md": R.FAMILY_SHADOWED},
            id="claude-md-before-context-md",
        ),
        pytest.param(
            {"pkg/CLAUDE.md": "claude\n", "CONTEXT.md": "context\n"},
            {".claude/CLAUDE.md": "global claude\n"},
            {"OPENCODE_DISABLE_CLAUDE_CODE": "1"},
            ["CONTEXT.md"],
            {"pkg/CLAUDE.md": R.DISABLED, "~/.claude/CLAUDE.md": R.DISABLED},
            id="disable-claude-code-drops-every-claude-md",
        ),
        pytest.param(
            {"pkg/AGENTS.md": "pkg\n"},
            {".config/opencode/AGENTS.md": "mine\n", ".claude/CLAUDE.md": "claude\n"},
            {},
            ["~/.config/opencode/AGENTS.md", "pkg/AGENTS.md"],
            {"~/.claude/CLAUDE.md": R.GLOBAL_SHADOWED},
            id="one-global-file-its-own-before-claudes",
        ),
        pytest.param(
            {"pkg/AGENTS.md": "pkg\n"},
            {"elsewhere/opencode/AGENTS.md": "mine\n", ".config/opencode/AGENTS.md": "not read\n"},
            {"XDG_CONFIG_HOME": "~/elsewhere"},
            ["~/elsewhere/opencode/AGENTS.md", "pkg/AGENTS.md"],
            {},
            id="xdg-config-home-moves-the-config-folder",
        ),
        pytest.param(
            {"pkg/AGENTS.md": "pkg\n", "AGENTS.md": "root\n"},
            {},
            {"OPENCODE_DISABLE_PROJECT_CONFIG": "true"},
            [],
            {},
            id="disable-project-config-reads-no-project-file",
        ),
        pytest.param(
            {"AGENTS.md": "", "pkg/AGENTS.md": "pkg\n"},
            {},
            {},
            ["pkg/AGENTS.md"],
            {"AGENTS.md": R.EMPTY},
            id="an-empty-file-is-dropped",
        ),
        pytest.param(
            {
                "pkg/AGENTS.md": "pkg\n",
                "opencode.json": '{"instructions": ["docs/*.md", "missing/*.md", "https://example.com/rules.md"]}',
                "pkg/docs/style.md": "style\n",
            },
            {},
            {},
            ["pkg/AGENTS.md", "pkg/docs/style.md"],
            {"missing/*.md": R.GLOB_NO_MATCH, "https://example.com/rules.md": R.REMOTE_NOT_FETCHED},
            id="config-instructions-are-globs-from-every-directory-up-to-the-worktree",
        ),
    ],
)
def test_eager(workspace, files, home, env, loaded, not_loaded) -> None:
    ws = workspace(files, home)
    cascade = ws.eager("opencode", "pkg", env=env)
    assert ws.loaded(cascade) == loaded
    assert ws.not_loaded(cascade) == not_loaded


def test_the_walk_stops_at_the_git_worktree(workspace) -> None:
    """A file named like the winner above the worktree is weighed and left: outside the boundary."""
    ws = workspace({"pkg/AGENTS.md": "pkg\n", "../AGENTS.md": "above the repository\n"})
    cascade = ws.eager("opencode", "pkg")
    assert ws.loaded(cascade) == ["pkg/AGENTS.md"]
    assert [c.reason for c in cascade.files if not c.loaded] == [R.OUTSIDE_BOUNDARY]


def test_each_file_is_sent_under_its_path(workspace) -> None:
    """opencode's system prompt element: "Instructions from: <path>" then the file's text."""
    ws = workspace({"AGENTS.md": "Use pnpm.\n"})
    assert text(ws.eager("opencode")) == f"Instructions from: {ws.path('AGENTS.md')}\nUse pnpm.\n"


@pytest.mark.parametrize(
    ("files", "target", "loaded", "not_loaded"),
    [
        pytest.param(
            {"AGENTS.md": "root\n", "a/AGENTS.md": "a\n", "a/b/CLAUDE.md": "b\n"},
            "a/b/file.ts",
            ["a/b/CLAUDE.md", "a/AGENTS.md"],
            {},
            id="the-first-name-of-each-directory-up-to-cwd-any-name",
        ),
        pytest.param(
            {"a/AGENTS.md": "a\n", "a/CLAUDE.md": "claude\n"},
            "a/file.ts",
            ["a/AGENTS.md"],
            {},
            id="one-file-per-directory",
        ),
        pytest.param({"a/AGENTS.md": "a\n"}, "a/AGENTS.md", [], {}, id="not-the-read-file-itself"),
        pytest.param({"AGENTS.md": "root\n"}, "file.ts", [], {}, id="nothing-from-cwd-which-the-start-loaded"),
    ],
)
def test_on_read(workspace, files, target, loaded, not_loaded) -> None:
    ws = workspace(files)
    cascade = ws.on_read("opencode", target)
    assert ws.loaded(cascade) == loaded
    assert ws.not_loaded(cascade) == not_loaded


def test_a_file_read_before_is_not_sent_again_and_the_rest_comes_as_a_reminder(workspace) -> None:
    ws = workspace({"a/AGENTS.md": "a\n", "a/b/AGENTS.md": "b\n"})
    cascade = ws.on_read("opencode", "a/b/file.ts", loaded=["a/AGENTS.md"])
    assert ws.not_loaded(cascade) == {"a/AGENTS.md": R.ALREADY_LOADED}
    assert text(cascade) == f"<system-reminder>\nInstructions from: {ws.path('a/b/AGENTS.md')}\nb\n\n</system-reminder>"
