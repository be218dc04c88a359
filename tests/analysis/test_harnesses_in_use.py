"""Findings that concern one harness only where the repository shows signs of using it: Copilot
review guidance is no sign of the Copilot CLI (its config in the home is), `.claude/skills` beside
`.agents/skills` and a glossary named CONTEXT.md matter to opencode only, a skill's header title
clashes only where a harness lists it by that title. Checked through `lsp-agents check`.
"""

from __future__ import annotations

import os

import pytest
from analysis_helpers import GUIDE, check_json, findings

BRIDGED = {
    "AGENTS.md": GUIDE,
    "CLAUDE.md": "@AGENTS.md\n",
    ".github/copilot-instructions.md": "# Review\n\n- Point out missing tests in review comments\n",
}


def test_copilot_review_guidance_does_not_enable_the_copilot_cli(workspace) -> None:
    """Copilot CLI loads AGENTS.md and inlines CLAUDE.md's import of it: the same text twice. A
    repository whose only Copilot file guides code review shows no sign of the CLI."""
    ws, home = workspace(BRIDGED)
    _rc, data = check_json(ws, home, "--fail-on", "never", "--enable", "all")
    assert "copilot-cli" not in data["harnesses"]
    assert data["findings"] == []


def test_the_copilot_cli_in_the_users_home_brings_its_duplicate_back(workspace) -> None:
    ws, home = workspace(BRIDGED, {".copilot/config.json": "{}\n"})
    _rc, data = check_json(ws, home, "--fail-on", "never", "--enable", "all")
    assert "copilot-cli" in data["harnesses"]
    assert [(f["code"], f["path"], f["harnesses"]) for f in data["findings"]] == [
        ("duplicate-instruction", "CLAUDE.md", ["copilot-cli"])
    ]


def test_a_repeat_a_claude_md_import_causes_is_reported_on_the_import(workspace) -> None:
    """copilot-instructions.md is a symlink to AGENTS.md and CLAUDE.md imports AGENTS.md: the Copilot
    CLI sends the guide through the symlink (AGENTS.md itself is the same file, read once) and again
    inlined in CLAUDE.md. The repeat is the import's, on its line, not the symlink's."""
    ws, home = workspace(
        {"AGENTS.md": GUIDE, "CLAUDE.md": "# Claude\n\n@AGENTS.md\n\n- Run the hooks in .claude/hooks before a commit\n"},
        {".copilot/config.json": "{}\n"},
    )
    (ws / ".github").mkdir()
    os.symlink("../AGENTS.md", ws / ".github" / "copilot-instructions.md")
    _rc, data = check_json(ws, home, "--fail-on", "never", "--enable", "all")
    assert [(f["code"], f["path"], f["range"]["start"]["line"], f["harnesses"]) for f in data["findings"]] == [
        ("duplicate-instruction", "CLAUDE.md", 2, ["copilot-cli"])
    ]


SKILL = "---\nname: review\ndescription: Reviews a change\n---\n{body}\n"


SPLIT_SKILLS = {
    "AGENTS.md": GUIDE,
    "CLAUDE.md": "@AGENTS.md\n",
    ".claude/skills/review/SKILL.md": SKILL.format(body="Review with Claude's checklist."),
    ".agents/skills/review/SKILL.md": SKILL.format(body="Review with Codex's checklist."),
}


@pytest.mark.parametrize("opencode_used", [False, True])
def test_skill_trees_per_harness_clash_only_where_opencode_is_used(workspace, opencode_used: bool) -> None:
    """opencode reads both `.claude/skills` and `.agents/skills` and keeps one skill of a name; a
    repository that shows no opencode file keeps one tree for Claude Code and one for Codex."""
    ws, home = workspace({**SPLIT_SKILLS, **({"opencode.json": "{}\n"} if opencode_used else {})})
    clashes = [path for code, path in findings(ws, home) if code == "duplicate-definition"]
    assert bool(clashes) == opencode_used


def test_a_glossary_named_context_md_is_no_instruction_file_without_opencode(workspace) -> None:
    """CONTEXT.md is an instruction file name for opencode only; without it, a domain glossary."""
    files = {"AGENTS.md": GUIDE, "CLAUDE.md": "@AGENTS.md\n", "CONTEXT.md": "# Glossary\n\n- Ledger: the record of moves\n"}
    ws, home = workspace(files)
    assert findings(ws, home) == []


@pytest.mark.parametrize(
    ("harnesses", "expected"), [(("claude-code",), []), (("claude-code", "opencode"), ["opencode calls it"])]
)
def test_a_skill_titled_in_its_header_is_misnamed_only_where_a_harness_lists_it_by_that_title(
    workspace, harnesses: tuple[str, ...], expected: list[str]
) -> None:
    """Claude Code names a skill by its folder; a header `name:` that differs is a title to it.
    The two names clash only where another harness in use (opencode) lists the skill by the header's name."""
    skill = "---\nname: Release Notes Writer\ndescription: Drafts release notes from merged changes\n---\nWrite the notes.\n"
    ws, home = workspace({"CLAUDE.md": GUIDE, ".claude/skills/release-notes/SKILL.md": skill})
    _rc, data = check_json(ws, home, *[a for h in harnesses for a in ("--harness", h)], "--fail-on", "never", "--enable", "all")
    found = [f["message"] for f in data["findings"] if f["code"] == "skill-name-mismatch"]
    assert [m for m in found for e in expected if e in m] == found and len(found) == len(expected), found


OPENCODE_RULES = {
    "AGENTS.md": GUIDE,
    "opencode.json": '{"instructions": [".github/instructions/*.md"]}\n',
    ".github/instructions/sql.instructions.md": "# SQL\n\n- Write every migration so that it can be rolled back\n",
}


def test_a_rule_folder_that_opencode_json_loads_is_no_sign_of_copilot(workspace) -> None:
    """opencode.json names the folder's files in `instructions`: they are written for opencode,
    which sends them whole, so Copilot's missing `applyTo` is no finding where nothing else
    shows Copilot."""
    ws, home = workspace(OPENCODE_RULES)
    _rc, data = check_json(ws, home, "--fail-on", "never", "--enable", "all")
    assert "copilot" not in data["harnesses"]
    assert [f for f in data["findings"] if f["code"] == "missing-apply-to"] == []


@pytest.mark.parametrize(
    "copilot_sign",
    [
        {".github/copilot-instructions.md": "# Copilot\n\n- Answer in English in every review comment\n"},
        {".github/instructions/api.instructions.md": "# API\n\n- Version every public endpoint in its path\n"},
    ],
    ids=["copilot-instructions", "a-rule-opencode-does-not-load"],
)
def test_copilot_rules_without_apply_to_are_still_reported_where_copilot_shows(workspace, copilot_sign) -> None:
    """A Copilot file of its own, or a rule file opencode.json does not name, still shows Copilot."""
    files = {**OPENCODE_RULES, **copilot_sign}
    files["opencode.json"] = '{"instructions": [".github/instructions/sql.instructions.md"]}\n'
    ws, home = workspace(files)
    _rc, data = check_json(ws, home, "--fail-on", "never", "--enable", "all")
    assert "copilot" in data["harnesses"]
    missing = [f["path"] for f in data["findings"] if f["code"] == "missing-apply-to"]
    assert ".github/instructions/sql.instructions.md" in missing
