"""Findings about agents, skills and commands: incremental updates match a fresh analysis, symlinked
skill folders are one definition, test data and hostile files stay quiet, severities can be set."""

from __future__ import annotations

import os
from pathlib import Path

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


def test_an_identical_copy_clashes_only_where_both_are_listed(workspace) -> None:
    """opencode keeps one of two identical skills: the model gets the same either way, so no
    finding; Codex lists both, and the listing repeats the skill."""
    ws, home = workspace({"AGENTS.md": "# A\n", ".agents/skills/fmt/SKILL.md": SKILL, ".agents/skills/copy/SKILL.md": SKILL})
    _rc, data = check_json(ws, home, "--harness", "opencode", "--harness", "codex")
    clashes = [f for f in data["findings"] if f["code"] == "duplicate-definition"]
    assert [f["harnesses"] for f in clashes] == [["codex"]] and "lists both" in clashes[0]["message"]


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
