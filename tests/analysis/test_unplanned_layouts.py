"""Layouts that made findings wrong on repositories nobody had described to the team, each written
from the description of its class (not copied from a repository), checked through `lsp-agents
check` with every code on; beside each, the real problem of the same shape that must still be found.

The classes: folders nobody launches a harness in (archives, backups, documentation under any
name, templates meant to be copied out); a harness the repository shows no sign of using; rule
globs for a kind of file the repository has none of; the text of a Markdown link read as an
import; documents kept beside agent definitions; boilerplate every file of a generated family
shares.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from analysis_helpers import check_json

GUIDE = (
    "# Project\n\n"
    "- Run the whole test suite with pytest before you push a branch\n"
    "- Keep functions short and focused on one job\n"
    "- Never commit generated files to the repository\n"
)
REPEATED = "- Never commit generated files to the repository\n"


def _findings(ws: Path, home: Path, *harnesses: str) -> list[tuple[str, str]]:
    args = [a for h in harnesses for a in ("--harness", h)]
    _rc, data = check_json(ws, home, *args, "--fail-on", "never", "--enable", "all")
    return sorted((f["code"], f["path"]) for f in data["findings"])


# -- folders nobody launches a harness in -----------------------------------------------------
def test_an_archive_of_old_instruction_files_is_no_launch_directory(workspace) -> None:
    """Copies of the root files kept in an archive, a backup or a documentation folder of any name
    repeat the root only for a harness started inside that folder, which nobody does."""
    copies = {
        f"{folder}/{name}": GUIDE.replace("pytest", "pytest -x")
        for folder in ("archive/2024-03", "old-docs-backup", "masterdocs/agents")
        for name in ("AGENTS.md", "CLAUDE.md")
    }
    ws, home = workspace({"AGENTS.md": GUIDE, "CLAUDE.md": "@AGENTS.md\n", **copies})
    assert _findings(ws, home, "codex", "claude-code") == []


def test_a_package_repeating_the_root_is_still_reported(workspace) -> None:
    ws, home = workspace(
        {
            "AGENTS.md": GUIDE,
            "services/api/AGENTS.md": "# API\n\n" + REPEATED,
            "services/api/package.json": "{}\n",
        }
    )
    assert ("duplicate-instruction", "services/api/AGENTS.md") in _findings(ws, home, "codex")


def test_a_package_whose_dotted_name_holds_a_folder_word_is_still_a_project(workspace) -> None:
    """Dots do not part words: `azure.ai.skills` is a package, not a skills folder."""
    ws, home = workspace({"AGENTS.md": GUIDE, "extensions/azure.ai.skills/AGENTS.md": "# Ext\n\n" + REPEATED})
    assert ("duplicate-instruction", "extensions/azure.ai.skills/AGENTS.md") in _findings(ws, home, "codex")


def test_a_template_meant_to_be_copied_out_is_no_project(workspace) -> None:
    """A scaffold's instruction files (its manifest is the scaffold's) are written for the project
    made from it: its rules' globs name that project's files, and its AGENTS.md is cut by nobody."""
    rule = '---\npaths:\n  - "cmd/**/*.go"\n---\n- Wrap errors with context\n'
    ws, home = workspace(
        {
            "AGENTS.md": GUIDE,
            "CLAUDE.md": "@AGENTS.md\n",
            "internal/agent_templates/AGENTS.md": "# Generated app\n\n"
            + "".join(f"- step {i}: {'x' * 60}\n" for i in range(600)),
            "internal/agent_templates/package.json": "{}\n",
            "internal/agent_templates/.claude/rules/go.md": rule,
            ".claude/rules/go.md": rule,
        }
    )
    assert _findings(ws, home, "codex", "claude-code") == [("glob-matches-nothing", ".claude/rules/go.md")]


@pytest.mark.parametrize(
    ("marker", "expected"),
    [
        ("_gitignore", []),
        ("README.md", [("truncated", "create-app/web/AGENTS.md"), ("unreachable-file", "create-app/web/AGENTS.md")]),
    ],
)
def test_a_scaffolders_template_is_no_launch_directory(workspace, marker: str, expected: list) -> None:
    """A create-* tool ships its template's `.gitignore` as `_gitignore` (npm drops dotfiles): the
    template's AGENTS.md is written for the generated app, and nobody starts a harness inside the
    template, whatever manifest it holds. Without the marker the folder is a package of this
    repository: Codex launched there cuts its AGENTS.md below the root file, and nothing else reads it."""
    ws, home = workspace(
        {
            "AGENTS.md": "# Repository\n\n" + "".join(f"- rule {i}: {'y' * 60}\n" for i in range(500)),
            "create-app/web/AGENTS.md": "# Generated app\n\n- Run the dev server with npm run dev\n",
            "create-app/web/package.json": "{}\n",
            f"create-app/web/{marker}": "node_modules\n",
        }
    )
    assert [f for f in _findings(ws, home, "codex") if f[1].startswith("create-app/")] == expected


def test_what_each_file_of_a_per_directory_template_says_of_itself_is_no_duplicate(workspace) -> None:
    """Every AGENTS.md of a per-directory template keeps its own header fields and upkeep steps
    ("Owners: …", "update this file when…", "bump the last-reviewed date"): the same words in a
    package and at the root are two files' records. A rule the package repeats is still reported."""
    header = "# {name}\n\n- **Owners:** @platform-team\n- **Status:** stable\n\n## Rules\n\n{rules}\n## Change protocol\n\n"
    upkeep = "- Update this file when the public routes change\n- Bump the **Last reviewed** date\n"
    ws, home = workspace(
        {
            "AGENTS.md": header.format(name="Repository", rules=GUIDE.split("\n\n", 1)[1]) + upkeep,
            "services/api/AGENTS.md": header.format(name="API", rules="- Validate input at the edge\n" + REPEATED) + upkeep,
            "services/api/package.json": "{}\n",
        }
    )
    found = check_json(ws, home, "--harness", "codex", "--fail-on", "never", "--enable", "all")[1]["findings"]
    lines = sorted(f["range"]["start"]["line"] + 1 for f in found if f["code"] == "duplicate-instruction")
    repeated = (ws / "services/api/AGENTS.md").read_text().splitlines().index(REPEATED.strip()) + 1
    assert lines == [repeated], found


# -- a harness the repository shows no sign of using ------------------------------------------
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
    clashes = [path for code, path in _findings(ws, home) if code == "duplicate-definition"]
    assert bool(clashes) == opencode_used


# -- rule globs for a kind of file the repository has none of ---------------------------------
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
    assert _findings(ws, home, "claude-code", "copilot") == [("glob-matches-nothing", ".claude/rules/legacy.md")]


# -- the text of a Markdown link ---------------------------------------------------------------
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
    assert _findings(ws, home, "claude-code") == [("import-not-found", "CLAUDE.md")]


# -- documents kept beside agent definitions ---------------------------------------------------
def test_a_readme_among_claude_agents_is_no_broken_agent(workspace) -> None:
    ws, home = workspace(
        {
            "CLAUDE.md": GUIDE,
            ".claude/agents/README.md": "# Our agents\n\nEach file here is one subagent; keep them short.\n",
            ".claude/agents/swarm/MIGRATION_NOTES.md": "# Migration\n\nThe swarm agents moved here in May.\n",
            ".claude/agents/reviewer.md": "---\nname: reviewer\n---\nReview the change.\n",
        }
    )
    assert _findings(ws, home, "claude-code") == [("invalid-definition", ".claude/agents/reviewer.md")]


# -- boilerplate a generated family shares -----------------------------------------------------
def _stub(topic: str) -> str:
    return (
        f"# {topic}\n\n**Canonical source**: `.windsurf/rules/{topic}.md`\n\n"
        "Read the canonical source in full before acting. This file is a thin pointer generated by the sync script.\n\n"
        f"- {topic} rule: follow the {topic} conventions of the canonical file\n"
    )


@pytest.mark.parametrize(
    ("extra", "expected"),
    [({}, []), ({".claude/rules/ci.md": "# CI\n\n" + REPEATED}, [("duplicate-instruction", ".claude/rules/ci.md")])],
)
def test_the_boilerplate_of_files_generated_from_one_template_is_not_a_duplicate(workspace, extra, expected) -> None:
    """Rule files generated from one template each say where their source is and how they were
    made; a rule that repeats an instruction someone wrote twice is still reported."""
    stubs = {f".claude/rules/{t}.md": _stub(t) for t in ("kubernetes", "terraform", "docker", "python")}
    ws, home = workspace({"CLAUDE.md": GUIDE, **stubs, **extra})
    assert _findings(ws, home, "claude-code") == expected


def test_files_side_by_side_in_the_root_are_no_generated_family(workspace) -> None:
    """AGENTS.md, CLAUDE.md and .cursorrules in one folder are three files written for three
    harnesses, not a family from one template: what Cursor gets twice from two of them is reported."""
    ws, home = workspace({"AGENTS.md": GUIDE, ".cursorrules": "# Cursor\n\n" + REPEATED, "CLAUDE.md": "# Claude\n\n" + REPEATED})
    assert [path for code, path in _findings(ws, home, "cursor") if code == "duplicate-instruction"] == ["AGENTS.md", "CLAUDE.md"]


# -- an import of a personal file the repository keeps out --------------------------------------
@pytest.mark.parametrize(("ignored", "expected"), [(True, []), (False, [("import-not-found", "CLAUDE.md")])])
def test_an_import_of_a_gitignored_personal_file_is_optional_by_design(workspace, ignored, expected) -> None:
    """`@.claude/personal.md`, listed in .gitignore, is there for whoever writes one and absent from
    every clone; a missing import the repository does not ignore is a broken one."""
    files = {"CLAUDE.md": GUIDE + "\nYour own notes, if any: @.claude/personal.md\n"}
    ws, home = workspace({**files, **({".gitignore": ".claude/personal.md\n"} if ignored else {})})
    assert _findings(ws, home, "claude-code") == expected


# -- a file reached under another name -----------------------------------------------------------
def test_an_agents_md_that_a_claude_md_symlink_beside_it_loads_is_reachable(workspace) -> None:
    """`pkg/CLAUDE.md -> AGENTS.md`: Claude Code loads the AGENTS.md text under its CLAUDE.md name."""
    ws, home = workspace({"CLAUDE.md": GUIDE, "pkg/AGENTS.md": "# Pkg\n\n- Parse input with the shared reader\n"})
    (ws / "pkg" / "CLAUDE.md").symlink_to("AGENTS.md")
    assert _findings(ws, home, "claude-code") == []


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
    assert [f for f in _findings(ws, home, "claude-code", "codex") if f[1] == "agent/AGENTS.md"] == expected


# -- legacy names where they mean nothing ----------------------------------------------------------
def test_a_glossary_named_context_md_is_no_instruction_file_without_opencode(workspace) -> None:
    """CONTEXT.md is an instruction file name for opencode only; without it, a domain glossary."""
    files = {"AGENTS.md": GUIDE, "CLAUDE.md": "@AGENTS.md\n", "CONTEXT.md": "# Glossary\n\n- Ledger: the record of moves\n"}
    ws, home = workspace(files)
    assert _findings(ws, home) == []


def test_a_legacy_name_in_a_tool_folder_or_a_template_is_not_to_be_renamed(workspace) -> None:
    """AGENT.md is a legacy name where AGENTS.md would be read; inside another tool's own folder or
    a template to be copied out, no harness would read the new name either."""
    note = "# Agent\n\n- Keep the plan file current\n"
    ws, home = workspace(
        {"AGENTS.md": GUIDE, ".kiro/AGENT.md": note, "templates/agent-os/AGENT.md": note, "services/api/AGENT.md": note}
    )
    assert [f for f in _findings(ws, home, "codex") if f[0] == "deprecated-filename"] == [
        ("deprecated-filename", "services/api/AGENT.md")
    ]


def test_a_file_a_loaded_file_sends_the_agent_to_is_reached_on_demand(workspace) -> None:
    """No harness loads `.github/AGENTS.md` by itself, but the root file links to it: the agent
    reads it when the root file says to. Without that link it reaches no model."""
    nested = {".github/AGENTS.md": "# CI\n\n- Pin every action to a commit\n"}
    ws, home = workspace({"AGENTS.md": GUIDE + "\nFor CI work read [the CI guide](.github/AGENTS.md).\n", **nested})
    assert _findings(ws, home, "codex") == []


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
    assert _findings(ws, home, "copilot") == ([] if linked else unreachable)


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


def test_a_guide_copied_whole_is_a_duplicate_even_where_it_speaks_of_this_document(workspace) -> None:
    """ "This document lists…" opens a section copied whole into a package as often as a file's own
    record: the copied section stays one duplicate finding."""
    section = (
        "## Release reference\n\n"
        "This document lists the release steps every package follows before a tag is pushed.\n\n"
        "- Tag the release from the main branch after the changelog is merged\n"
        "- Publish the release notes with the generated changelog attached\n"
    )
    ws, home = workspace(
        {
            "AGENTS.md": GUIDE + "\n" + section,
            "packages/web/AGENTS.md": "# Web\n\n" + section,
            "packages/web/package.json": "{}\n",
        }
    )
    found = check_json(ws, home, "--harness", "codex", "--fail-on", "never", "--enable", "all")[1]["findings"]
    assert [(f["path"], f["range"]["start"]["line"] + 1) for f in found if f["code"] == "duplicate-instruction"] == [
        ("packages/web/AGENTS.md", 4)
    ], found
