"""Findings about agents, skills and commands: incremental updates match a fresh analysis, symlinked
skill folders are one definition, test data and hostile files stay quiet, severities can be set."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from analysis_helpers import GUIDE, check_json, findings
from workspace_files import write_tree

from lsp_agents.core.analysis import Analyzer
from lsp_agents.core.frontmatter import MAX_FRONTMATTER_CHARS
from lsp_agents.core.fs import FileSystem
from lsp_agents.core.settings import Settings
from lsp_agents.core.workspace import WorkspaceIndex

SKILL = "---\nname: fmt\ndescription: Formats the code\n---\nRun the formatter.\n"
TREE = {
    ".git/HEAD": "ref: refs/heads/main\n",
    "AGENTS.md": "# A\n\n- a rule about this package only\n",
    "CLAUDE.md": "@AGENTS.md\n",
    "opencode.json": "{}\n",  # opencode in use: its own config
    ".agents/skills/fmt/SKILL.md": SKILL,
}


def _analyzer(root: Path, home: Path) -> Analyzer:
    index = WorkspaceIndex(str(root), FileSystem())
    index.scan()
    return Analyzer(index, Settings(), home=str(home), env={})


def _codes(findings: dict) -> dict[str, list[str]]:
    return {
        os.path.basename(os.path.dirname(p)) + "/" + os.path.basename(p): sorted(f.code for f in fs)
        for p, fs in findings.items()
        if fs
    }


def test_an_edit_of_a_skill_updates_its_findings(tmp_path: Path) -> None:
    root, home = tmp_path / "ws", tmp_path / "home"
    home.mkdir()
    write_tree(root, TREE)
    root = Path(os.path.realpath(root))
    analyzer = _analyzer(root, home)
    assert "fmt/SKILL.md" not in _codes(analyzer.analyse_all())
    skill = root / ".agents/skills/fmt/SKILL.md"

    skill.write_text("---\nname: fmt\n---\nRun the formatter.\n")
    changed = analyzer.analyse_paths([str(skill)])
    assert _codes(changed)["fmt/SKILL.md"] == ["invalid-definition"]
    assert "Codex CLI does not load this skill: missing field `description`" in changed[str(skill)][0].message
    assert changed == {p: f for p, f in _analyzer(root, home).analyse_all().items() if p in changed}

    skill.write_text(SKILL)
    assert analyzer.analyse_paths([str(skill)])[str(skill)] == []

    copy = root / ".agents/skills/copy/SKILL.md"  # a new file of the same name, saying something else
    write_tree(root, {".agents/skills/copy/SKILL.md": SKILL + "Then run the linter on every file it changed, twice.\n"})
    changed = analyzer.analyse_paths([str(copy)])
    # opencode keeps one of the two (the one it reads last); Codex lists both.
    expected = {"copy/SKILL.md": ["duplicate-definition"], "fmt/SKILL.md": ["duplicate-definition"]}
    assert _codes(changed) == _codes(_analyzer(root, home).analyse_all()) == expected
    assert {tuple(f.harnesses) for fs in changed.values() for f in fs} == {("opencode",), ("codex",)}


def test_continue_lists_both_skills_of_one_name(workspace) -> None:
    """Continue CLI keeps two skills of one name (its `.continue/skills` and `.claude/skills`) and
    lists both: the second is a clash, as under Codex."""
    other = SKILL + "Then run the linter on every file it changed, twice.\n"
    ws, home = workspace({"AGENTS.md": "# A\n", ".continue/skills/fmt/SKILL.md": SKILL, ".claude/skills/fmt/SKILL.md": other})
    _rc, data = check_json(ws, home, "--harness", "continue")
    clashes = [(f["path"], f["harnesses"], f["message"]) for f in data["findings"] if f["code"] == "duplicate-definition"]
    assert len(clashes) == 1
    path, harnesses, message = clashes[0]
    assert (path, harnesses) == (".claude/skills/fmt/SKILL.md", ["continue"])
    assert "this one and .continue/skills/fmt/SKILL.md; Continue CLI lists both under the same name" in message


def test_an_identical_copy_clashes_only_where_both_are_listed(workspace) -> None:
    """opencode keeps one of two identical skills: the model gets the same either way, so no
    finding; Codex lists both, and the listing repeats the skill."""
    ws, home = workspace({"AGENTS.md": "# A\n", ".agents/skills/fmt/SKILL.md": SKILL, ".agents/skills/copy/SKILL.md": SKILL})
    _rc, data = check_json(ws, home, "--harness", "opencode", "--harness", "codex")
    clashes = [f for f in data["findings"] if f["code"] == "duplicate-definition"]
    assert [f["harnesses"] for f in clashes] == [["codex"]] and "lists both" in clashes[0]["message"]


def _clashes(ws: Path, home: Path, *harnesses: str) -> list[tuple[str, list[str], str]]:
    """(path, harnesses, message) of each `duplicate-definition`."""
    _rc, data = check_json(ws, home, "--fail-on", "never", *(a for h in harnesses for a in ("--harness", h)))
    return [(f["path"], f["harnesses"], f["message"]) for f in data["findings"] if f["code"] == "duplicate-definition"]


def test_byte_identical_copies_in_each_harness_folder_are_one_skill(workspace) -> None:
    """One SKILL.md copied byte for byte into .claude, .agents and .gemini: opencode keeps one of its
    two copies, Gemini CLI the .agents one over the .gemini one, and whichever wins, the same skill
    is listed. Once the copies differ, which one wins decides what the model gets."""
    folders = (".claude", ".agents", ".gemini")
    files = {"AGENTS.md": "# A\n", "GEMINI.md": "# G\n", "opencode.json": "{}\n"}
    ws, home = workspace({**files, **{f"{folder}/skills/fmt/SKILL.md": SKILL for folder in folders}})
    assert _clashes(ws, home, "opencode", "gemini", "claude-code", "codex") == []
    for folder in (".claude", ".gemini"):
        (ws / folder / "skills/fmt/SKILL.md").write_text(SKILL + "Then run the linter on every file it changed.\n")
    clashes = _clashes(ws, home, "opencode", "gemini", "claude-code", "codex")
    assert sorted((path, harnesses) for path, harnesses, _message in clashes) == [
        (".claude/skills/fmt/SKILL.md", ["opencode"]),
        (".gemini/skills/fmt/SKILL.md", ["gemini"]),
    ]


OPENCODE_SKILL = "---\nname: release\ndescription: Cuts a release\n---\n{}\n"


def test_opencode_s_config_folder_is_no_launch_directory(workspace) -> None:
    """.opencode/ holds opencode's config (its skills paths written from there, `../skills`), its
    plugins' package.json and skills; its README says to run opencode at the repository root. Nobody
    launches opencode in .opencode/, so no clash is found from there; from the root, a skill of the
    same name in .claude/skills that says something else is one."""
    ws, home = workspace(
        {
            "AGENTS.md": "# A\n",
            ".opencode/opencode.json": '{"skills": {"paths": ["../skills"]}}\n',
            ".opencode/package.json": '{"dependencies": {"@opencode-ai/plugin": "1.0.0"}}\n',
            ".opencode/README.md": "# opencode\n\nRun `opencode` at the repository root; this folder holds its config.\n",
            ".opencode/skills/release/SKILL.md": OPENCODE_SKILL.format("Tag the commit, then push the tag."),
            "skills/release/SKILL.md": OPENCODE_SKILL.format("Bump the version, write the changelog, tag and push."),
        }
    )
    assert _clashes(ws, home, "opencode", "codex") == []
    write_tree(ws, {".claude/skills/release/SKILL.md": OPENCODE_SKILL.format("Write the changelog, then ask for a review.")})
    clashes = _clashes(ws, home, "opencode", "codex")
    assert [(harnesses, "(launched from the workspace root)" in message) for _path, harnesses, message in clashes] == [
        (["opencode"], True)
    ]


def test_paths_through_a_configured_skills_folder_are_shown_normalised(workspace) -> None:
    """A package's opencode.json names `../shared/skills`: every path of a finding about a skill
    found there (the finding's, a related one, the message's) is the file's own, without `..`."""
    ws, home = workspace(
        {
            "AGENTS.md": "# A\n",
            "opencode.json": "{}\n",
            "pkg/AGENTS.md": "# Pkg\n",
            "pkg/opencode.json": '{"skills": {"paths": ["../shared/skills"]}}\n',
            "pkg/.opencode/skills/release/SKILL.md": OPENCODE_SKILL.format("Tag the commit, then push the tag."),
            "shared/skills/release/SKILL.md": OPENCODE_SKILL.format("Bump the version, write the changelog, tag and push."),
            "shared/skills/lint/SKILL.md": "---\ndescription: Lints the code\n---\nRun eslint.\n",
        }
    )
    _rc, data = check_json(ws, home, "--fail-on", "never", "--harness", "opencode")
    found = data["findings"]
    assert sorted((f["code"], f["path"], [r["path"] for r in f["related"]]) for f in found) == [
        ("duplicate-definition", "pkg/.opencode/skills/release/SKILL.md", ["shared/skills/release/SKILL.md"]),
        ("invalid-definition", "shared/skills/lint/SKILL.md", []),
    ]
    assert "this one and shared/skills/release/SKILL.md;" in next(f["message"] for f in found if f["related"])


@pytest.mark.parametrize(
    ("folder", "unlisted"),
    [("docs/skills", []), (".opencode/skills", [("error", "opencode drops a skill without a `name` in its header")])],
)
def test_files_opencode_json_sends_as_instructions_are_no_dropped_skills(workspace, folder: str, unlisted: list) -> None:
    """`instructions: ["<folder>/*/SKILL.md"]` in opencode.json sends each such file as instructions:
    one without a `name` in its header loses nothing, even where opencode looks for skills too
    (.opencode/skills). Not sent as instructions, a skill there without a name is one opencode drops."""
    guide = "---\ndescription: How we deploy\n---\n# Deploy\n\n- Deploy with the make target, never by hand\n"
    files = {"AGENTS.md": "# A\n", f"{folder}/deploy/SKILL.md": guide}
    ws, home = workspace({**files, "opencode.json": json.dumps({"instructions": [f"{folder}/*/SKILL.md"]})})

    def invalid() -> list[tuple[str, str]]:
        _rc, data = check_json(ws, home, "--fail-on", "never", "--enable", "all", "--harness", "opencode")
        return [(f["severity"], f["message"]) for f in data["findings"] if f["code"] == "invalid-definition"]

    assert invalid() == []
    (ws / "opencode.json").write_text("{}\n")
    assert invalid() == unlisted


def test_a_symlinked_skills_folder_is_one_definition(workspace) -> None:
    ws, home = workspace({"AGENTS.md": "# A\n", "CLAUDE.md": "@AGENTS.md\n", ".claude/skills/fmt/SKILL.md": SKILL})
    (ws / ".agents").mkdir()
    os.symlink("../.claude/skills", ws / ".agents" / "skills")
    _rc, data = check_json(ws, home, "--fail-on", "never")
    assert data["findings"] == []


def test_test_data_and_hostile_files_stay_quiet(workspace) -> None:
    bomb = "---\nname: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: [*b, *b, *b, *b, *b, *b, *b]\n---\n"
    ws, home = workspace(
        {
            "AGENTS.md": "# A\n",
            "tests/fixtures/.agents/skills/broken/SKILL.md": "no header\n",  # an example, broken on purpose
            ".agents/skills/bomb/SKILL.md": bomb,
            ".agents/skills/binary/SKILL.md": b"\x00\x01---\nname: x\n",
            ".agents/skills/latin1/SKILL.md": b"---\nname: caf\xe9\ndescription: d\n---\n",
        }
    )
    _rc, data = check_json(ws, home, "--fail-on", "never")
    paths = {f["path"] for f in data["findings"]}
    assert not any(p.startswith("tests/") for p in paths)
    # The bomb's `name` is no text: Codex falls back to the folder name and wants a description.
    assert {f["path"] for f in data["findings"] if f["code"] == "invalid-definition"} >= {
        ".agents/skills/bomb/SKILL.md",
        ".agents/skills/binary/SKILL.md",
    }


def test_the_severity_setting_applies_to_definition_findings(workspace) -> None:
    files = {"AGENTS.md": "# A\n", ".agents/skills/fmt/SKILL.md": "---\nname: fmt\n---\nRun it.\n"}
    ws, home = workspace(files)
    _rc, data = check_json(ws, home, "--fail-on", "never")
    assert [f["severity"] for f in data["findings"] if f["code"] == "invalid-definition"] == ["hint"]  # by default
    _rc, data = check_json(ws, home, "--fail-on", "never", "--enable", "invalid-definition")
    assert [f["severity"] for f in data["findings"] if f["code"] == "invalid-definition"] == ["error"]
    (ws / "lsp-agents.toml").write_text('[severity]\n"invalid-definition" = "off"\n')
    _rc, data = check_json(ws, home, "--fail-on", "never", "--enable", "invalid-definition")
    assert [f for f in data["findings"] if f["code"] == "invalid-definition"] == []


def test_a_skill_one_harness_drops_and_another_uses_is_a_warning(workspace) -> None:
    """A Claude Code skill without `name` works there (the folder names it); opencode, which
    reads .claude/skills too, drops it: an error only when no enabled harness uses it."""
    ws, home = workspace(
        {"AGENTS.md": "# A\n", ".claude/skills/fmt/SKILL.md": "---\ndescription: Formats the code\n---\nRun it.\n"}
    )

    def invalid(*harnesses: str) -> list[tuple[str, str]]:
        _rc, data = check_json(
            ws, home, "--fail-on", "never", "--enable", "all", *(a for h in harnesses for a in ("--harness", h))
        )
        return [(f["severity"], f["message"]) for f in data["findings"] if f["code"] == "invalid-definition"]

    assert invalid("opencode", "claude-code") == [
        ("warning", "opencode drops a skill without a `name` in its header (claude-code uses it)")
    ]
    assert invalid("opencode") == [("error", "opencode drops a skill without a `name` in its header")]


def test_a_readme_among_claude_agents_is_no_broken_agent(workspace) -> None:
    ws, home = workspace(
        {
            "CLAUDE.md": GUIDE,
            ".claude/agents/README.md": "# Our agents\n\nEach file here is one subagent; keep them short.\n",
            ".claude/agents/swarm/MIGRATION_NOTES.md": "# Migration\n\nThe swarm agents moved here in May.\n",
            ".claude/agents/reviewer.md": "---\nname: reviewer\n---\nReview the change.\n",
        }
    )
    assert findings(ws, home, "claude-code") == [("invalid-definition", ".claude/agents/reviewer.md")]


def test_a_definition_whose_header_is_past_the_parsers_bound_is_not_judged(workspace) -> None:
    """A header longer than MAX_FRONTMATTER_CHARS is not parsed at all: what the harness makes of the
    definition is not known, so nothing is said about it (not "its header does not parse", nor what
    a line-by-line reading of the header would give)."""
    header = "---\nname: big\ndescription: '" + "x" * (MAX_FRONTMATTER_CHARS + 1) + "'\n---\nReview.\n"
    ws, home = workspace({"CLAUDE.md": GUIDE, ".claude/agents/big.md": header})
    _rc, data = check_json(ws, home, "--harness", "claude-code", "--fail-on", "never", "--enable", "all")
    messages = [f["message"] for f in data["findings"] if f["path"] == ".claude/agents/big.md"]
    assert messages == [], messages
