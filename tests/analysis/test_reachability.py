"""Whether an instruction file reaches a model, and whether what it points to is there: a link's
`@path` text that names nothing is a link, an import of a gitignored personal file is optional, a
file loaded under a symlinked name or linked from a loaded file is reached, a rule waits for files
its globs name (a stale path is reported). Checked through `lsp-agents check` with every code on.
"""

from __future__ import annotations

import pytest
from analysis_helpers import GUIDE, findings


def test_a_language_rule_is_dormant_and_a_stale_path_is_reported(workspace) -> None:
    """A rule set shipped for every language holds a Dart rule in a Go repository: it waits for
    Dart files. A glob naming a folder that is gone went stale."""
    ws, home = workspace(
        {
            "CLAUDE.md": GUIDE,
            "cmd/main.go": "package main\n",
            ".claude/rules/dart.md": '---\npaths:\n  - "**/*.dart"\n---\n- Prefer const constructors\n',
            ".claude/rules/legacy.md": '---\npaths:\n  - "src/legacy/**/*.go"\n---\n- Do not add code here\n',
            ".github/instructions/feature.instructions.md": '---\napplyTo: "**.feature"\n---\n- One scenario each\n',
            ".github/copilot-instructions.md": "# Copilot\n\n- Keep pull requests small\n",
        }
    )
    assert findings(ws, home, "claude-code", "copilot") == [("glob-matches-nothing", ".claude/rules/legacy.md")]


def test_an_at_path_in_link_text_that_finds_nothing_is_a_link_not_a_broken_import(workspace) -> None:
    """Claude Code imports what a link's text names when that file is there (captured:
    tests/conformance/golden/claude-import-link-text); text that names nothing there, or the file
    itself, is skipped silently, and the link works as written."""
    ws, home = workspace(
        {
            "CLAUDE.md": "# Project\n\n- Setup: [@docs/setup.md](../shared/docs/setup.md)\n"
            "- This file: [@CLAUDE.md](CLAUDE.md)\n- Also @docs/missing.md\n",
        }
    )
    assert findings(ws, home, "claude-code") == [("import-not-found", "CLAUDE.md")]


@pytest.mark.parametrize(("ignored", "expected"), [(True, []), (False, [("import-not-found", "CLAUDE.md")])])
def test_an_import_of_a_gitignored_personal_file_is_optional_by_design(workspace, ignored, expected) -> None:
    """`@.claude/personal.md`, listed in .gitignore, is there for whoever writes one and absent from
    every clone; a missing import the repository does not ignore is a broken one."""
    files = {"CLAUDE.md": GUIDE + "\nYour own notes, if any: @.claude/personal.md\n"}
    ws, home = workspace({**files, **({".gitignore": ".claude/personal.md\n"} if ignored else {})})
    assert findings(ws, home, "claude-code") == expected


def test_an_agents_md_that_a_claude_md_symlink_beside_it_loads_is_reachable(workspace) -> None:
    """`pkg/CLAUDE.md -> AGENTS.md`: Claude Code loads the AGENTS.md text under its CLAUDE.md name."""
    ws, home = workspace({"CLAUDE.md": GUIDE, "pkg/AGENTS.md": "# Pkg\n\n- Parse input with the shared reader\n"})
    (ws / "pkg" / "CLAUDE.md").symlink_to("AGENTS.md")
    assert findings(ws, home, "claude-code") == []


@pytest.mark.parametrize(("sibling", "expected"), [(True, []), (False, [("shadowed-file", "agent/AGENTS.md")])])
def test_an_agents_md_beside_its_own_claude_md_is_split_by_design(workspace, sibling: bool, expected: list) -> None:
    """`agent/AGENTS.md` written for other harnesses beside `agent/CLAUDE.md` (which Claude Code
    loads there and which does not refer to it): one file per harness, on purpose, even though
    the root CLAUDE.md names AGENTS.md. Without the sibling, the root CLAUDE.md turns the nested
    AGENTS.md off and its text is lost to Claude Code."""
    files = {
        "CLAUDE.md": "# Repository\n\n- Each module keeps an AGENTS.md for other tools\n",
        "agent/AGENTS.md": "# Agent module\n\n- Route requests through the gateway table\n- Sign every call with the shared signer\n",
        "agent/package.json": "{}\n",
    }
    if sibling:
        files["agent/CLAUDE.md"] = "# Agent module\n\n- The gateway table lives in agent.py, keep it sorted\n"
    ws, home = workspace(files)
    assert [f for f in findings(ws, home, "claude-code", "codex") if f[1] == "agent/AGENTS.md"] == expected


def test_a_file_a_loaded_file_sends_the_agent_to_is_reached_on_demand(workspace) -> None:
    """No harness loads `.github/AGENTS.md` by itself, but the root file links to it: the agent
    reads it when the root file says to. Without that link it reaches no model."""
    nested = {".github/AGENTS.md": "# CI\n\n- Pin every action to a commit\n"}
    ws, home = workspace({"AGENTS.md": GUIDE + "\nFor CI work read [the CI guide](.github/AGENTS.md).\n", **nested})
    assert findings(ws, home, "codex") == []


@pytest.mark.parametrize("linked", [True, False])
def test_a_package_guide_the_root_copilot_instructions_link_is_reached_on_demand(workspace, linked: bool) -> None:
    """The root `.github/copilot-instructions.md` lists each package's own guide
    (`packages/cli/.github/copilot-instructions.md`, which no harness loads by itself): the agent
    reads it when the root file sends it there. Without the link it reaches no model."""
    index = "\nPackage guides: [cli](../packages/cli/.github/copilot-instructions.md).\n" if linked else ""
    ws, home = workspace(
        {
            ".github/copilot-instructions.md": GUIDE + index,
            "packages/cli/.github/copilot-instructions.md": "# CLI\n\n- Parse flags with the shared parser\n",
            "packages/cli/package.json": "{}\n",
        }
    )
    unreachable = [("unreachable-file", "packages/cli/.github/copilot-instructions.md")]
    assert findings(ws, home, "copilot") == ([] if linked else unreachable)


@pytest.mark.parametrize(("install_note", "expected"), [(True, []), (False, [("unreachable-file", ".qwen/QWEN.md")])])
def test_a_per_user_file_template_copied_into_the_home_is_not_meant_to_load(workspace, install_note: bool, expected) -> None:
    """Qwen Code reads QWEN.md from the project's folders and `~/.qwen/QWEN.md`, never
    `.qwen/QWEN.md` in a project. A file there that says it is copied into `~/.qwen/` by the
    installer is the source of the per-user file; one that says nothing of the kind is lost."""
    note = "The installer copies this folder into `~/.qwen/` for each user.\n\n" if install_note else ""
    files = {"QWEN.md": GUIDE, ".qwen/QWEN.md": f"# Qwen setup\n\n{note}- Answer in the language of the question\n"}
    ws, home = workspace(files)
    assert findings(ws, home, "qwen") == expected
