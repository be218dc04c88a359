"""Findings that were wrong on real repositories, and real problems that were missed: each one a
small workspace shaped like the repositories where it was seen, checked through `lsp-agents check`."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from analysis_helpers import check_json
from test_fixes import apply

GUIDE = "# Project\n\n- Run the whole test suite with pytest before you push a branch\n- Keep functions short and focused on one job\n"


def _findings(ws: Path, home: Path, *harnesses: str) -> list[dict]:
    args = [a for h in harnesses for a in ("--harness", h)]
    _rc, data = check_json(ws, home, *args, "--fail-on", "never", "--enable", "all")
    return data["findings"]


def _codes(findings: list[dict], path: str | None = None) -> list[str]:
    return sorted(f["code"] for f in findings if path is None or f["path"] == path)


# -- 1. a file and a symlink to it are one file ----------------------------------------------
def test_claude_md_symlinked_to_agents_md_is_one_file(workspace) -> None:
    ws, home = workspace({"AGENTS.md": GUIDE})
    os.symlink("AGENTS.md", ws / "CLAUDE.md")
    assert _findings(ws, home, "opencode", "claude-code", "codex", "gemini", "copilot") == []


def test_agents_md_symlinked_into_a_tool_folder_is_not_compared_with_itself(workspace) -> None:
    ws, home = workspace({".agents/AGENTS.md": GUIDE + "\n## Testing\n\n- Run the unit tests with pytest in watch mode\n"})
    os.symlink(".agents/AGENTS.md", ws / "AGENTS.md")
    assert _findings(ws, home, "opencode", "codex", "claude-code", "agents-md") == []


def test_a_symlink_that_codex_and_opencode_load_twice_is_a_duplicate_file(workspace) -> None:
    """Captured: Codex and opencode send `pkg/AGENTS.md -> ../AGENTS.md` twice at cwd pkg; Claude
    and Gemini dedupe by real path."""
    ws, home = workspace({"AGENTS.md": GUIDE, "pkg/index.ts": "x\n"})
    os.symlink("../AGENTS.md", ws / "pkg" / "AGENTS.md")
    found = _findings(ws, home, "opencode", "codex", "claude-code", "gemini")
    assert [(f["code"], f["path"], f["harnesses"]) for f in found] == [("duplicate-file", "pkg/AGENTS.md", ["codex", "opencode"])]
    assert "sent twice: the same file as AGENTS.md" in found[0]["message"] and "launched from pkg/" in found[0]["message"]


CURSOR_RULE = "---\nalwaysApply: true\n---\n# Style\n\n- Prefer small modules with one job each and clear names\n"


def test_a_symlinked_cursor_rule_and_its_target_are_one_file(workspace) -> None:
    """A rule linked under a second name in .cursor/rules is the same file, read once; a copy of
    it is another file, and Cursor sends both."""
    ws, home = workspace({"AGENTS.md": GUIDE, ".cursor/rules/style.mdc": CURSOR_RULE})
    os.symlink("style.mdc", ws / ".cursor" / "rules" / "style-copy.mdc")
    assert _findings(ws, home, "cursor") == []
    (ws / ".cursor" / "rules" / "style-copy.mdc").unlink()
    (ws / ".cursor" / "rules" / "style-copy.mdc").write_text(CURSOR_RULE)
    found = _findings(ws, home, "cursor")
    assert [(f["code"], f["path"]) for f in found] == [("duplicate-file", ".cursor/rules/style.mdc")]


# -- 2. a bridge file loses nothing --------------------------------------------------------------
def test_claude_md_that_imports_agents_md_is_not_lost_to_opencode(workspace) -> None:
    ws, home = workspace(
        {
            "AGENTS.md": GUIDE,
            "CLAUDE.md": "# CLAUDE.md\n\nThis file provides guidance to Claude Code "
            "(claude.ai/code) when working with code in this repository.\n\n@AGENTS.md\n",
        }
    )
    assert _findings(ws, home, "opencode", "claude-code") == []


def test_claude_md_is_no_loss_to_opencode(workspace) -> None:
    """CLAUDE.md is written for Claude Code: opencode reads it only where no AGENTS.md is found,
    so its passing over it loses nothing (blind labels: false in every repository of the corpus)."""
    ws, home = workspace(
        {
            "AGENTS.md": GUIDE,
            "CLAUDE.md": "# CLAUDE.md\n\n@AGENTS.md\n\n## Patterns\n\n"
            "- Wrap errors with context before you return them\n- Table-driven tests keyed by a description\n",
        }
    )
    assert _findings(ws, home, "opencode", "claude-code") == []


def test_agents_md_beside_a_claude_md_of_its_own_is_split_by_design(workspace) -> None:
    """One file per harness, neither naming the other: Claude Code is meant to read CLAUDE.md only.
    Once CLAUDE.md names AGENTS.md ("read AGENTS.md first"), the skipped file is a loss."""
    claude = "# Claude\n\n- Wrap errors with context before you return them\n- Table-driven tests keyed by a description\n"
    ws, home = workspace({"AGENTS.md": GUIDE, "CLAUDE.md": claude})
    assert _findings(ws, home, "opencode", "claude-code") == []
    (ws / "CLAUDE.md").write_text(claude + "- Read AGENTS.md before you start\n")
    found = _findings(ws, home, "opencode", "claude-code")
    assert [(f["code"], f["path"], f["harnesses"]) for f in found] == [("shadowed-file", "AGENTS.md", ["claude-code"])]


def test_a_claude_md_that_routes_topics_to_agents_md_keeps_it_apart_by_design(workspace) -> None:
    """A CLAUDE.md with guidance of its own that sends the model to AGENTS.md topic by topic, section
    after section ("details: AGENTS.md § Testing"), reads it when a topic comes up, by design; one that
    names it in one place ("see AGENTS.md", a section on how it extends AGENTS.md) expects it loaded
    and gets only the name."""
    claude = "# Claude\n\n- Wrap errors with context before you return them\n- Table-driven tests keyed by a description\n"
    topics = "".join(
        f"\n## {t}\n\n- Short version here; details: AGENTS.md \u00a7 {t}\n" for t in ("Build", "Testing", "Release", "Style")
    )
    ws, home = workspace({"AGENTS.md": GUIDE, "CLAUDE.md": claude + topics})
    assert _findings(ws, home, "opencode", "claude-code") == []
    extends = "\n## Relationship to AGENTS.md\n\nThis file extends [AGENTS.md](./AGENTS.md); AGENTS.md holds the basics.\n"
    for text in (claude + "\nSee AGENTS.md for the rest; AGENTS.md has the test commands.\n", claude + extends):
        (ws / "CLAUDE.md").write_text(text)
        found = _findings(ws, home, "opencode", "claude-code")
        assert [(f["code"], f["path"], f["harnesses"]) for f in found] == [("shadowed-file", "AGENTS.md", ["claude-code"])]


def test_a_copy_that_reaches_the_harness_is_no_loss(workspace) -> None:
    """A generated CLAUDE.md that holds AGENTS.md's instructions (and names it): whatever Claude
    Code skips, it receives."""
    ws, home = workspace(
        {
            "AGENTS.md": GUIDE,
            "CLAUDE.md": "# Generated from AGENTS.md\n\n"
            + GUIDE.split("\n", 1)[1]
            + "- One more line for Claude only, about hooks\n",
        }
    )
    assert _findings(ws, home, "opencode", "claude-code") == []


MODULES = "api auth billing cache cli config db events export i18n jobs mail metrics orders search storage sync ui users web"
RULES = [f"- Keep the {m} module small, tested and documented before each release\n" for m in MODULES.split()]
CHANGED = {2: "- Install with pnpm, never with npm or yarn\n", 9: "- Run the hooks in .claude/hooks\n", 15: "- Ask first\n"}


def _guide(rules: list[str]) -> str:
    """A guide that names AGENTS.md and CLAUDE.md, so the two are not kept apart by design."""
    return "# Project guide\n\nKeep AGENTS.md and CLAUDE.md in step when you change a rule.\n\n" + "".join(rules)


@pytest.mark.parametrize("changed", [{}, CHANGED], ids=["identical", "three-lines-changed"])
def test_a_skipped_guide_whose_copy_claude_code_loads_loses_nothing(workspace, changed: dict[int, str]) -> None:
    """CLAUDE.md holds AGENTS.md's guide, the same or with three of its lines changed: Claude Code
    skips AGENTS.md and still receives its instructions."""
    copy = [changed.get(n, rule) for n, rule in enumerate(RULES)]
    ws, home = workspace({"AGENTS.md": _guide(RULES), "CLAUDE.md": _guide(copy)})
    assert _findings(ws, home, "claude-code", "opencode", "codex") == []


def test_a_claude_md_with_part_of_the_guide_loses_the_rest(workspace) -> None:
    ws, home = workspace({"AGENTS.md": _guide(RULES), "CLAUDE.md": _guide(RULES[:7])})
    found = _findings(ws, home, "claude-code", "opencode", "codex")
    assert [(f["code"], f["path"], f["harnesses"]) for f in found] == [("shadowed-file", "AGENTS.md", ["claude-code"])]


def test_a_link_is_not_an_import_for_claude(workspace) -> None:
    """CLAUDE.md that only links to AGENTS.md: Claude Code gets the link, not AGENTS.md; the fix imports it."""
    ws, home = workspace({"AGENTS.md": GUIDE, "CLAUDE.md": "See [AGENTS.md](./AGENTS.md) for project context.\n"})
    found = _findings(ws, home, "opencode", "claude-code")
    assert [(f["code"], f["path"], f["harnesses"]) for f in found] == [("shadowed-file", "AGENTS.md", ["claude-code"])]
    assert "only links to it" in found[0]["message"]
    fixed = apply((ws / "CLAUDE.md").read_text(), found[0]["fix"]["edits"])
    assert fixed == "@AGENTS.md\n\nSee [AGENTS.md](./AGENTS.md) for project context.\n"


def test_a_skipped_file_the_loaded_guide_refers_to_is_skipped_by_design(workspace) -> None:
    """biome: CLAUDE.md -> CONTRIBUTING.md, and AGENTS.md (what opencode loads) links CONTRIBUTING.md
    as the canonical guide; the quick fix never edits through a symlink."""
    contributing = "# Contributing\n\n- Run just ready before you open a pull request\n- Sign your commits\n"
    ws, home = workspace(
        {"CONTRIBUTING.md": contributing, "AGENTS.md": GUIDE + "\nThe [contributing guide](./CONTRIBUTING.md) is canonical.\n"}
    )
    os.symlink("CONTRIBUTING.md", ws / "CLAUDE.md")
    found = _findings(ws, home, "opencode", "claude-code")
    assert [(f["code"], f["path"], f["harnesses"]) for f in found] == [("shadowed-file", "AGENTS.md", ["claude-code"])]
    assert found[0]["fix"] is None


def test_an_index_of_nested_agents_md_does_not_load_them(workspace) -> None:
    """pydantic-ai: the root AGENTS.md (CLAUDE.md -> AGENTS.md) lists every nested AGENTS.md as a
    link; Claude Code still never loads the ones without a CLAUDE.md of their own."""
    ws, home = workspace(
        {
            "AGENTS.md": GUIDE + "\n## Directory guides\n\n- [api](pkg/api/AGENTS.md)\n- [web](pkg/web/AGENTS.md)\n",
            "pkg/api/AGENTS.md": "# API\n\n- Validate every request body with zod schemas\n",
            "pkg/web/AGENTS.md": "# Web\n\n- Keep components small and typed with props interfaces\n",
        }
    )
    os.symlink("AGENTS.md", ws / "CLAUDE.md")
    os.symlink("AGENTS.md", ws / "pkg" / "web" / "CLAUDE.md")
    found = _findings(ws, home, "claude-code", "opencode")
    assert [(f["code"], f["path"], f["harnesses"]) for f in found] == [("shadowed-file", "pkg/api/AGENTS.md", ["claude-code"])]


def test_nested_agents_md_under_a_root_claude_md_is_lost_from_the_root_too(workspace) -> None:
    ws, home = workspace(
        {
            "CLAUDE.md": "@AGENTS.md\n",
            "AGENTS.md": GUIDE,
            "packages/api/AGENTS.md": "# API\n\n- Validate every request body with zod schemas\n",
        }
    )
    found = [f for f in _findings(ws, home, "claude-code", "opencode") if f["path"] == "packages/api/AGENTS.md"]
    assert [(f["code"], f["severity"]) for f in found] == [("shadowed-file", "warning")]
    assert "and from the workspace root when the agent reads files here" in found[0]["message"]


def test_a_skipped_file_with_no_text_loses_nothing(workspace) -> None:
    """An empty AGENTS.md that Claude Code passes over (a CLAUDE.md symlink to it beside it, a CLAUDE.md
    at the root) holds no instruction to lose: it is an empty file, not a shadowed one."""
    ws, home = workspace({"AGENTS.md": GUIDE, "packages/cli/AGENTS.md": "", "packages/cli/index.ts": "x\n"})
    os.symlink("AGENTS.md", ws / "CLAUDE.md")
    os.symlink("AGENTS.md", ws / "packages" / "cli" / "CLAUDE.md")
    found = _findings(ws, home, "claude-code", "opencode")
    assert "shadowed-file" not in _codes(found), found
    (ws / "packages" / "cli" / "AGENTS.md").write_text("# CLI\n\n- Parse arguments with clap derive macros only\n")
    (ws / "packages" / "cli" / "CLAUDE.md").unlink()
    assert "shadowed-file" in _codes(_findings(ws, home, "claude-code", "opencode"), "packages/cli/AGENTS.md")


def test_the_same_words_in_other_punctuation(workspace) -> None:
    ws, home = workspace(
        {
            "CLAUDE.md": "# C\n\n- Use `cargo fmt` - then run clippy on the whole workspace\n",
            ".github/copilot-instructions.md": "# Copilot\n\n- Use `cargo fmt` \u2014 then run clippy on the whole workspace\n",
        }
    )
    found = _findings(ws, home, "copilot")
    assert [f["code"] for f in found] == ["near-duplicate-instruction"]
    assert "repeats, in other punctuation, line 3 of" in found[0]["message"]


def test_two_formats_alike_but_for_their_code_are_two_instructions(workspace) -> None:
    """Word matching drops punctuation, and code is literal: two accepted title formats that
    differ only inside their code spans are two instructions, not one written twice."""
    formats = (
        "# Pull requests\n\nTitle a pull request in one of these formats:\n\n"
        "- Write `type: description`, for example `feat: add a parser`\n"
        "- Write `[type] description`, for example `[feat] add a parser`\n"
    )
    ws, home = workspace({"AGENTS.md": formats})
    assert _findings(ws, home, "codex") == []


def test_the_same_code_in_other_punctuation_is_still_a_near_duplicate(workspace) -> None:
    repeated = "# Pull requests\n\n- Write `type: description`, for example `feat: add a parser`\n"
    ws, home = workspace({"AGENTS.md": repeated + "- Write `type: description` - for example `feat: add a parser`\n"})
    assert _codes(_findings(ws, home, "codex")) == ["near-duplicate-instruction"]


PACKAGE_GUIDE = "# Writing plugins\n\n- Export one plugin object per module as the default export\n"


@pytest.mark.parametrize(
    ("manifest", "shadowed"),
    [
        ({"name": "@acme/plugin-guide", "files": ["bin", "AGENTS.md"]}, False),
        ({"name": "@acme/plugin-guide", "exports": {"./AGENTS.md": "./AGENTS.md"}}, False),
        ({"name": "@acme/plugin-guide", "files": ["dist/**/*"]}, True),
    ],
    ids=["in-files", "in-exports", "not-published"],
)
def test_an_agents_md_its_package_publishes_is_written_for_consumers(workspace, manifest: dict, shadowed: bool) -> None:
    """The root CLAUDE.md turns a package's AGENTS.md off for Claude Code. When the package's
    manifest ships that file to the projects that install it, it is their agents' guide, not
    this repository's: nothing the maintainers meant for contributors is lost, whether Codex
    loads it here (else `shadowed-file`) or no harness does (else `unreachable-file`)."""
    files = {
        "AGENTS.md": GUIDE,
        "CLAUDE.md": "@AGENTS.md\n",
        "packages/plugin-guide/AGENTS.md": PACKAGE_GUIDE,
        "packages/plugin-guide/package.json": json.dumps(manifest),
    }
    ws, home = workspace(files)
    found = _codes(_findings(ws, home, "claude-code", "codex"), "packages/plugin-guide/AGENTS.md")
    assert found == (["shadowed-file"] if shadowed else [])
    # Where no harness modelled loads it at all, it is no more lost than where another one does.
    found = _codes(_findings(ws, home, "claude-code"), "packages/plugin-guide/AGENTS.md")
    assert found == (["unreachable-file"] if shadowed else [])


# -- 3. sections are only shadowed where the closest file wins ----------------------------------
NESTED_SECTIONS = {
    "AGENTS.md": "# Root\n\n## Testing\n\n- Run the whole suite with pytest before pushing\n",
    "pkg/AGENTS.md": "# Pkg\n\n## Testing\n\n- Run only the fast tests of this package with pytest\n",
}


def test_concatenating_harnesses_override_no_section(workspace) -> None:
    ws, home = workspace(NESTED_SECTIONS)
    assert "shadowed-section" not in _codes(_findings(ws, home, "opencode", "codex", "claude-code", "gemini"))


def test_the_agents_md_profile_is_where_the_closest_section_wins(workspace) -> None:
    """Same-named headings seldom conflict (held-out repositories: none did), so the finding is off
    until the `severity` setting gives it a level."""
    ws, home = workspace(NESTED_SECTIONS)
    assert _findings(ws, home, "agents-md") == []
    (ws / "lsp-agents.toml").write_text('[severity]\n"shadowed-section" = "hint"\n')
    found = [f for f in _findings(ws, home, "agents-md") if f["code"] == "shadowed-section"]
    assert {f["path"] for f in found} == {"AGENTS.md", "pkg/AGENTS.md"}
    assert all("closest AGENTS.md wins" in f["message"] for f in found)


# -- 4. plausible launch directories ---------------------------------------------------------
def test_skill_and_template_folders_are_no_launch_directories(workspace) -> None:
    big = "# Skill\n\n" + "".join(f"- Step {i}: do one specific thing numbered {i} in this skill\n" for i in range(700))
    ws, home = workspace(
        {
            "AGENTS.md": GUIDE,
            ".agents/skills/big/AGENTS.md": big,
            "docs/AGENTS.md": GUIDE,
            "template/AGENTS.md": GUIDE,
            "template/.github/copilot-instructions.md": "# Template\n",
        }
    )
    assert _findings(ws, home, "opencode", "codex", "copilot") == []


def test_copilot_instructions_belong_to_the_workspace_root(workspace) -> None:
    ws, home = workspace(
        {
            ".github/copilot-instructions.md": "# Copilot\n\n## Testing\n\n- Use vitest for unit tests in every package\n",
            "AGENTS.md": "# Root\n\n## Testing\n\n- Use the shared fixtures in tests/helpers\n",
        }
    )
    assert _findings(ws, home, "copilot", "opencode", "agents-md") == []


def test_launch_directories_setting_replaces_the_guess(workspace) -> None:
    nested = "# Pkg\n\n- Run the whole test suite with pytest before you push a branch\n"
    ws, home = workspace({"AGENTS.md": GUIDE, "docs/site/AGENTS.md": nested})
    assert _findings(ws, home, "codex") == []  # docs/ is no launch directory by default
    (ws / "lsp-agents.toml").write_text('launchDirectories = ["docs/site"]\n')
    found = _findings(ws, home, "codex")
    assert [(f["code"], f["path"]) for f in found] == [("duplicate-instruction", "docs/site/AGENTS.md")]
    assert "launched from docs/site/" in found[0]["message"]


def test_fixtures_are_test_data(workspace) -> None:
    ws, home = workspace(
        {
            "AGENTS.md": GUIDE,
            "tests/fixtures/proj/CLAUDE.md": "# C\n\n@missing.md\n",
            "framework/rules/x/tests/fail/.cursor/rules/bad.mdc": "---\npaths: src/**\n---\nBroken on purpose.\n",
        }
    )
    assert _findings(ws, home, "opencode", "claude-code", "cursor") == []


# -- 5. prose is not an import -------------------------------------------------------------------
def test_package_names_are_not_imports(workspace) -> None:
    ws, home = workspace(
        {
            "AGENTS.md": "# A\n\nRender prompts with @vscode/prompt-tsx and type them with @types/node.\n",
            "CLAUDE.md": "# C\n\nUse @vscode/prompt-tsx for prompts.\n",
            "GEMINI.md": "# G\n\nSet @jsxImportSource in the file header.\n",
        }
    )
    found = _findings(ws, home, "opencode", "codex", "claude-code", "gemini")
    assert not {"import-not-expanded", "import-not-found"} & set(_codes(found))


def test_a_path_alias_in_prose_is_not_an_import(workspace) -> None:
    """`@/mocks` is the TypeScript alias of src/mocks: a harness that reads `@/…` as an absolute path
    finds no such file and sends the line as written. An absolute import of a file that is there,
    outside the workspace, is still reported."""
    alias = "- Import the test doubles from @/mocks, never by a relative path\n"
    ws, home = workspace({"CLAUDE.md": "# C\n\n" + alias, "AGENTS.md": "# A\n\n" + alias, "src/mocks/index.ts": "x\n"})
    assert _findings(ws, home, "claude-code", "qwen", "gemini", "copilot-cli") == []
    outside = ws.parent / "team-rules.md"
    outside.write_text("# Team\n\n- Review every change within one working day\n")
    (ws / "CLAUDE.md").write_text(f"# C\n\n{alias}- Team rules: @{outside}\n")
    found = _findings(ws, home, "claude-code", "codex")
    assert [(f["code"], f["path"], f["range"]["start"]["line"]) for f in found] == [("import-outside-workspace", "CLAUDE.md", 3)]


def test_an_import_of_a_file_the_harness_loads_anyway_is_not_lost(workspace) -> None:
    ws, home = workspace({"AGENTS.md": GUIDE, "CLAUDE.md": "@AGENTS.md\n"})
    assert _findings(ws, home, "copilot", "opencode", "claude-code") == []


def test_an_import_of_a_file_the_harness_never_loads_is_sent_literally(workspace) -> None:
    """Off by default (a model reads the literal `@path` as a path it can open): given a severity."""
    ws, home = workspace({"AGENTS.md": "# A\n\n@docs/style.md\n", "docs/style.md": "# Style\n\n- Tabs.\n"})
    assert _findings(ws, home, "opencode") == []
    (ws / "lsp-agents.toml").write_text('[severity]\n"import-not-expanded" = "information"\n')
    found = _findings(ws, home, "opencode")
    assert [(f["code"], f["range"]["start"]) for f in found] == [("import-not-expanded", {"line": 2, "character": 0})]
    assert "docs/style.md" in found[0]["message"]


def test_trailing_comma_breaks_a_claude_import(workspace) -> None:
    ws, home = workspace(
        {
            "CLAUDE.md": "# C\n\nRead these: @docs/feature.md, @docs/other.md\n",
            "docs/feature.md": "# F\n",
            "docs/other.md": "# O\n",
        }
    )
    found = [f for f in _findings(ws, home, "claude-code") if f["code"] == "import-not-found"]
    assert len(found) == 1 and found[0]["range"]["start"] == {"line": 2, "character": 12}
    assert "did you mean @docs/feature.md" in found[0]["message"]


# -- 6. repeated labels are not repeated instructions ------------------------------------------
def test_checklists_for_different_things_repeat_their_items(workspace) -> None:
    checklist = "- [ ] Has non-empty `description` field wrapped in single quotes\n- [ ] File name is lower case with hyphens\n"
    ws, home = workspace(
        {
            "AGENTS.md": "# Review\n\nFor instruction files (*.instructions.md):\n\n"
            + checklist
            + "\nFor agent files (*.agent.md):\n\n"
            + checklist
            + "\n**For Hooks:**\n\n"
            + checklist
        }
    )
    assert _findings(ws, home, "opencode", "codex") == []


def test_per_language_sections_repeat_their_rules(workspace) -> None:
    rules = "- All files must pass both tools with zero warnings\n- Code should be self-documenting through clear names\n"
    ws, home = workspace({"AGENTS.md": "# Style\n\n### Python\n\n" + rules + "\n### Rust\n\n" + rules})
    assert _findings(ws, home, "opencode") == []


def test_per_language_lists_under_labels_repeat_their_rules(workspace) -> None:
    """The same lists per language as labelled paragraphs under one heading, not sub-headings."""
    rules = "- All files must pass both tools with zero warnings\n- Code should be self-documenting through clear names\n"
    ws, home = workspace({"AGENTS.md": "# Style\n\nFor Python code:\n\n" + rules + "\nFor Rust code:\n\n" + rules})
    assert _findings(ws, home, "opencode") == []


def test_listing_entries_and_local_pointers_are_not_instructions(workspace) -> None:
    ws, home = workspace(
        {
            "AGENTS.md": "# Root\n\n- Legacy migrations: `.agents/guides/migrations.md`\n\n"
            "Do not read or write in this folder. Use the CLI instead.\n",
            "pkg/AGENTS.md": "# Pkg\n\n- Legacy migrations: `../.agents/guides/migrations.md`\n\n"
            "Do not read or write in this folder. Use the CLI instead.\n\nSee ../AGENTS.md for the process.\n",
            "pkg/sub/AGENTS.md": "# Sub\n\nSee ../AGENTS.md for the process.\n",
        }
    )
    assert _findings(ws, home, "opencode", "codex") == []


def test_the_same_rule_twice_in_one_section_is_a_duplicate(workspace) -> None:
    ws, home = workspace(
        {
            "AGENTS.md": "# Root\n\n## Docs\n\n- The documentation for importing is at https://example.org/o11\n"
            "- The documentation for importing is at https://example.org/o11\n"
        }
    )
    found = _findings(ws, home, "opencode")
    assert [(f["code"], f["range"]["start"]["line"]) for f in found] == [("duplicate-instruction", 5)]
    assert (
        "wasted: this bullet repeats line 5 earlier in this file; keep one copy. Loaded for opencode, launched from "
        in found[0]["message"]
    )


SERVICE = """# Billing service

## Setup

- Install the dependencies with `uv sync` in this folder
- Copy `.env.example` to `.env` and fill in the keys
- Always run the database migrations before you start the server
- Start the server with `uv run billing serve`

## Code style

- Keep handlers thin and move the logic into the domain module
- Raise domain errors, never HTTP errors, from the domain module
- Every public function gets a docstring and type hints

## Testing

- Run the unit tests with `uv run pytest -q`
- Use the factories in `tests/factories.py` for fixtures
- Never call the real payment provider from a test

## Deployment

- Deploy with the release workflow, never by hand
- Tag the releases as `billing-vX.Y.Z`
- Post the release notes in the team channel
- Announce the deploy window a day ahead
- Watch the error dashboards for an hour after a deploy
- Always run the database migrations before you start the server
"""


def test_the_same_rule_under_two_headings_of_one_file_is_a_duplicate(workspace) -> None:
    """One instruction written twice in a service's guide, under Setup and again under Deployment:
    the model reads it twice. (Lists that repeat several items under each of two headings are
    written per scope: `test_per_language_sections_repeat_their_rules`.)"""
    ws, home = workspace({"AGENTS.md": GUIDE, "services/billing/AGENTS.md": SERVICE, "services/billing/pyproject.toml": ""})
    found = _findings(ws, home, "codex", "opencode")
    located = [
        (f["code"], f["path"], f["range"]["start"]["line"] + 1, f["related"][0]["range"]["start"]["line"] + 1) for f in found
    ]
    assert located == [("duplicate-instruction", "services/billing/AGENTS.md", 29, 7)]


# -- 7. the consequence in the message --------------------------------------------------------
def test_a_rule_with_one_pattern_that_matches_applies(workspace) -> None:
    ws, home = workspace(
        {
            ".cursor/rules/docs.mdc": "---\ndescription: Docs\nglobs: docs/**/*.mdx,docs/**/*.md\n---\n# Docs\n",
            "docs/intro.mdx": "x\n",
        }
    )
    assert _findings(ws, home, "cursor") == []


def test_a_rule_none_of_whose_patterns_matches_never_applies(workspace) -> None:
    ws, home = workspace({".cursor/rules/ts.mdc": "---\nglobs: src/**/*.tsx,src/**/*.jsx\n---\n# TS\n", "src/a.py": "x\n"})
    found = _findings(ws, home, "cursor")
    assert [f["code"] for f in found] == ["glob-matches-nothing"]
    assert found[0]["message"].startswith(
        "none of its globs patterns ('src/**/*.tsx', 'src/**/*.jsx') matches a file in the workspace: "
    )


def test_a_rule_whose_one_pattern_matches_nothing_says_so(workspace) -> None:
    ws, home = workspace({".cursor/rules/ts.mdc": "---\nglobs: ['src/**/*.test.tsx']\n---\n# TS\n", "src/a.test.ts": "x\n"})
    found = _findings(ws, home, "cursor")
    assert [f["code"] for f in found] == ["glob-matches-nothing"]
    assert found[0]["message"].startswith("its globs pattern 'src/**/*.test.tsx' matches no file in the workspace: ")


def test_a_rule_for_files_yet_to_be_created_is_fine(workspace) -> None:
    ws, home = workspace({".github/instructions/issues.instructions.md": "---\napplyTo: '**/github-issues/**'\n---\n# Issues\n"})
    assert _findings(ws, home, "copilot") == []


def test_keys_a_harness_does_not_read_are_left_alone(workspace) -> None:
    """Shared rule files carry other harnesses' keys (applyTo, globs) and teams' own (priority, profile)."""
    ws, home = workspace(
        {
            ".cursor/rules/sec.mdc": "---\ndescription: Security\nalwaysApply: true\npriority: 100\n---\n# S\n",
            ".claude/rules/ts.md": "---\napplyTo: '**/*.ts'\npaths: ['**/*.ts']\nprofile: web\n---\n# TS\n",
            "CLAUDE.md": "# C\n",
            "a.ts": "x\n",
        }
    )
    assert _findings(ws, home, "cursor", "claude-code") == []


def test_an_apply_to_list_is_no_apply_to_for_copilot(workspace) -> None:
    """VS Code reads applyTo as a string only (promptFileParser: getStringAttribute)."""
    ws, home = workspace(
        {".github/instructions/ps.instructions.md": "---\napplyTo:\n  - '**/*.ps1'\n---\n# PS\n", "a.ps1": "x\n"}
    )
    found = _findings(ws, home, "copilot")
    assert [(f["code"], f["severity"], f["range"]["start"]["line"]) for f in found] == [("invalid-frontmatter", "error", 1)]
    assert "reads applyTo only as a string" in found[0]["message"]
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "lsp_agents",
            "cascade",
            str(ws / "a.ps1"),
            "--cwd",
            str(ws),
            "--home",
            str(home),
            "--harness",
            "copilot",
            "--format",
            "json",
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    (copilot,) = json.loads(result.stdout)["harnesses"]
    assert [c["path"] for c in copilot["on_read"]] == []
    assert [c["reason"] for c in copilot["not_loaded"] if c["path"].endswith("ps.instructions.md")] == ["listed-only"]


def test_a_private_key_header_named_as_a_pattern_is_no_secret(workspace) -> None:
    body = "MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gunVTLw7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u+qKhbwKfBstIs+"
    ws, home = workspace({"AGENTS.md": "# A\n\nFlag any `-----BEGIN RSA PRIVATE KEY-----` you find in a diff.\n"})
    assert _findings(ws, home, "opencode") == []
    (ws / "AGENTS.md").write_text(f"# A\n\n-----BEGIN RSA PRIVATE KEY-----\n{body}\n-----END RSA PRIVATE KEY-----\n")
    assert _codes(_findings(ws, home, "opencode")) == ["secret"]


# -- missed before: misplaced rule files, applyTo, the duplicate fix ---------------------------
def test_cline_workflows_hooks_and_subfolders_are_no_rules(workspace) -> None:
    """Cline runs .clinerules/workflows/*.md as slash commands and hooks/ as scripts; its CLI
    reads no subfolder, its extension every other one: nothing there is an unreachable rule."""
    ws, home = workspace(
        {
            ".clinerules/style.md": "- Prefer small modules with one job each.\n",
            ".clinerules/workflows/release.md": "# Release\n\nPrepare and publish a release directly from main.\n",
            ".clinerules/hooks/README.md": "# Hooks\n\nCline hooks run custom scripts at points of a task.\n",
            ".clinerules/team/review.md": "- Ask for a review from the owning team before you merge.\n",
        }
    )
    assert _findings(ws, home, "cline", "claude-code", "opencode") == []
    # The rule in the folder itself still is one (another harness's duplicate of it is found).
    (ws / "AGENTS.md").write_text("- Prefer small modules with one job each.\n")
    assert [(f["code"], f["path"]) for f in _findings(ws, home, "cline")] == [("duplicate-file", ".clinerules/style.md")]


def test_rule_files_where_the_harness_never_looks(workspace) -> None:
    ws, home = workspace(
        {
            ".cursor/api.mdc": "---\nalwaysApply: true\n---\n# API\n",
            ".cursor/rule/db.mdc": "---\nalwaysApply: true\n---\n# DB\n",
            ".claude/rules/style.mdc": "# Style\n\n- Tabs.\n",
            ".github/instructions/style.md": "---\napplyTo: '**'\n---\n# Style\n",
            ".github/instructions/README.md": "# How these files work\n",
            "CLAUDE.md": "# C\n",
        }
    )
    found = {f["path"]: f for f in _findings(ws, home, "cursor", "claude-code", "copilot")}
    assert {p: f["code"] for p, f in found.items()} == {
        ".cursor/api.mdc": "unreachable-file",
        ".cursor/rule/db.mdc": "unreachable-file",
        ".claude/rules/style.mdc": "unreachable-file",
        ".github/instructions/style.md": "unreachable-file",
    }
    assert "Cursor only reads .mdc rules inside .cursor/rules/" in found[".cursor/api.mdc"]["message"]
    renames = {p: f["fix"]["renameTo"] for p, f in found.items()}
    assert renames == {
        ".cursor/api.mdc": ".cursor/rules/api.mdc",
        ".cursor/rule/db.mdc": ".cursor/rules/db.mdc",
        ".claude/rules/style.mdc": ".claude/rules/style.md",
        ".github/instructions/style.md": ".github/instructions/style.instructions.md",
    }


def test_copilot_instructions_without_apply_to(workspace) -> None:
    ws, home = workspace({".github/instructions/py.instructions.md": "---\ndescription: Python\n---\n# Python\n"})
    found = _findings(ws, home, "copilot")
    assert [f["code"] for f in found] == ["missing-apply-to"]
    assert "Copilot in VS Code never attaches it by itself" in found[0]["message"]


def test_the_duplicate_fix_deletes_the_copy_in_the_deprecated_file(workspace) -> None:
    rule = "- Never commit generated files to the repository\n"
    ws, home = workspace({"AGENTS.md": "# Root\n\n" + rule, ".cursorrules": "# Legacy\n\n" + rule + "- Keep it small.\n"})
    found = [f for f in _findings(ws, home, "cursor") if f["code"] == "duplicate-instruction"]
    assert len(found) == 1
    edits = found[0]["fix"]["edits"]
    assert {e["path"] for e in edits} == {".cursorrules"}
    assert apply((ws / ".cursorrules").read_text(), edits) == "# Legacy\n\n- Keep it small.\n"


def test_a_claude_only_repository_is_not_judged_for_opencode(workspace) -> None:
    """opencode reads CLAUDE.md and .claude/ for compatibility; a repository with nothing else shows
    no sign of it, so its literal `@` lines are no finding."""
    ws, home = workspace(
        {
            "CLAUDE.md": "# Claude\n\n@.claude/instructions/style.md\n",
            ".claude/instructions/style.md": "- Prefer small pure functions in every module\n",
        }
    )
    _rc, data = check_json(ws, home)
    assert "opencode" not in data["harnesses"] and data["findings"] == []


def test_codex_is_detected_by_its_override_file(workspace) -> None:
    ws, home = workspace({"AGENTS.override.md": "# Override\n\n- Use the staging database for every test run\n"})
    _rc, data = check_json(ws, home)
    assert "codex" in data["harnesses"] and data["findings"] == []


def test_claude_size_limits_only_for_a_file_claude_loads(workspace) -> None:
    """A huge AGENTS.md beside a CLAUDE.md never reaches Claude Code: its size warning is not Claude's."""
    huge = "# Guide\n\n" + "".join(f"- Rule number {n} says to keep the module {n} small and tested\n" for n in range(900))
    ws, home = workspace({"AGENTS.md": huge, "CLAUDE.md": "# Claude\n\n- Read AGENTS.md before you start work\n"})
    codes = {(f["code"], f["path"]) for f in _findings(ws, home, "claude-code", "codex")}
    assert ("oversized", "AGENTS.md") not in codes
    (ws / "CLAUDE.md").write_text(huge)
    assert ("oversized", "CLAUDE.md") in {(f["code"], f["path"]) for f in _findings(ws, home, "claude-code", "codex")}


def test_a_legacy_name_that_is_an_alias_is_no_finding(workspace) -> None:
    """AGENT.md -> AGENTS.md: a compatibility link for tools that read the old name; nothing is lost."""
    ws, home = workspace({"AGENTS.md": GUIDE})
    os.symlink("AGENTS.md", ws / "AGENT.md")
    assert _findings(ws, home, "codex", "opencode") == []


def test_an_examples_folder_is_no_launch_directory_even_with_a_manifest(workspace) -> None:
    """A CLAUDE.md template under examples/ ("place this in your project root") is not this
    repository's instructions, and neither is an example app's: with its own package.json and
    instruction files generated for every harness, it repeats the root's rules only while it sits
    in this repository. The launchDirectories setting names an example that is worked in."""
    template = "# Template\n\n- Run the whole test suite with pytest before you push a branch\n"
    ws, home = workspace(
        {
            "AGENTS.md": GUIDE,
            "examples/CLAUDE.md": template,
            "examples/app/AGENTS.md": template,
            "examples/app/package.json": "{}\n",
            "examples/app/.github/copilot-instructions.md": template,
        }
    )
    assert [f["path"] for f in _findings(ws, home, "opencode", "claude-code", "codex", "copilot")] == []
    (ws / "lsp-agents.toml").write_text('launchDirectories = [".", "examples/app"]\n')
    assert "examples/app/AGENTS.md" in {f["path"] for f in _findings(ws, home, "opencode", "claude-code", "codex")}


def test_a_kit_of_per_tool_files_is_no_launch_directory(workspace) -> None:
    """A folder with ready-made instruction files for several tools, one sub-folder each, to copy
    into other projects: nobody starts Claude Code in integrations/codex/, so its AGENTS.md is not
    lost to it, whatever CLAUDE.md the repository has; two tool folders are not yet a kit."""
    kit = "# Team rules\n\n- Write a failing test before the fix\n- Keep each commit to one change\n"
    files = {"CLAUDE.md": GUIDE, "integrations/codex/AGENTS.md": kit, "integrations/cursor/AGENTS.md": kit}
    ws, home = workspace({**files, "integrations/opencode/AGENTS.md": kit, "integrations/spec-kit/AGENTS.md": kit})
    assert _findings(ws, home, "claude-code", "codex") == []
    (ws / "integrations" / "opencode" / "AGENTS.md").unlink()
    shadowed = {f["path"] for f in _findings(ws, home, "claude-code", "codex") if f["code"] == "shadowed-file"}
    assert shadowed == {"integrations/codex/AGENTS.md", "integrations/cursor/AGENTS.md", "integrations/spec-kit/AGENTS.md"}


def test_a_complete_example_s_rule_globs_are_checked_against_its_files(workspace) -> None:
    """An example app with a manifest of its own holds its source files, so a rule of it whose glob
    matches none of them never applies; a template's files are made when it is copied out."""
    rule = "---\nglobs: src/**/*.kt\nalwaysApply: false\n---\n- Prefer data classes\n"
    files = {"AGENTS.md": GUIDE, "examples/app/pom.xml": "<project/>\n", "examples/app/src/Main.java": "class Main {}\n"}
    ws, home = workspace({**files, "examples/app/.cursor/rules/kotlin.mdc": rule, "templates/app/.cursor/rules/kotlin.mdc": rule})
    found = _findings(ws, home, "cursor")
    assert [(f["code"], f["path"]) for f in found] == [("glob-matches-nothing", "examples/app/.cursor/rules/kotlin.mdc")]


@pytest.mark.parametrize("mode", ["architect", "ask", "my-custom-mode"])
def test_a_roo_mode_folder_is_sent_in_its_mode(workspace, mode: str) -> None:
    """Roo Code sends `.roo/rules-<mode>/` when that mode is active; the model follows the Code
    mode, but an AGENTS.md in another mode's folder (what Roo's `/init` writes there) reaches the
    model in its own mode: not `unreachable-file`. One in a `.roo` folder no mode reads is."""
    ws, home = workspace(
        {
            "AGENTS.md": GUIDE,
            f".roo/rules-{mode}/AGENTS.md": "# Planning\n\n- Write the plan to plans/ before any code\n",
            ".roo/notes/AGENTS.md": "# Notes\n\n- Keep notes short and dated\n",
        }
    )
    found = _findings(ws, home, "roo", "codex")
    assert _codes(found, f".roo/rules-{mode}/AGENTS.md") == []
    assert _codes(found, ".roo/notes/AGENTS.md") == ["unreachable-file"]
