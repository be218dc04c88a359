"""`Analyzer.analyse_paths`: after an edit, the same findings as a fresh full analysis, and only
the files that share chains or duplicates with the edited one are recomputed."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from workspace_files import write_tree

from lsp_agents.core.analysis import Analyzer, detect_harnesses
from lsp_agents.core.fs import FileSystem
from lsp_agents.core.settings import CodexOptions, Settings
from lsp_agents.core.workspace import WorkspaceIndex

SHARED = "- never commit generated files to the repository\n"
TREE = {
    ".git/HEAD": "ref: refs/heads/main\n",
    "AGENTS.md": "# Root\n\n## Testing\n\n" + SHARED,
    "CLAUDE.md": "# Claude\n\n@AGENTS.md\n",
    "a/AGENTS.md": "# A\n\n- a specific rule about package a only\n",
    "a/deep/AGENTS.md": "# Deep\n\n- deep rule for the deep package here\n",
    "b/AGENTS.md": "# B\n\n- b specific rule about package b only\n",
    "b/CONTEXT.md": "# legacy\n",
    "c/GEMINI.md": "# Gemini\n\n- gemini specific rule for package c\n",
}


def _fresh(root: Path, home: Path) -> dict[str, list]:
    index = WorkspaceIndex(str(root), FileSystem())
    index.scan()
    return Analyzer(index, Settings(), home=str(home), env={}).analyse_all()


def _shape(findings: list) -> list[tuple]:
    return [(f.code, f.severity, f.span, f.message, tuple(f.harnesses)) for f in findings]


@pytest.fixture
def setup(tmp_path: Path):
    root, home = tmp_path / "ws", tmp_path / "home"
    home.mkdir()
    write_tree(root, TREE)
    root = Path(os.path.realpath(root))
    index = WorkspaceIndex(str(root), FileSystem())
    index.scan()
    analyzer = Analyzer(index, Settings(), home=str(home), env={})
    return root, home, analyzer, analyzer.analyse_all()


def _assert_consistent(root: Path, home: Path, before: dict, after: dict) -> None:
    merged = {**before, **after}
    expected = _fresh(root, home)
    assert {p: _shape(f) for p, f in merged.items() if f} == {p: _shape(f) for p, f in expected.items()}


@pytest.mark.parametrize(
    ("edited", "text"),
    [
        ("a/deep/AGENTS.md", "# Deep\n\n## Testing\n\n" + SHARED),  # adds a duplicate and a shadowed section
        ("AGENTS.md", "# Root\n\n- something else entirely for the root\n"),  # removes them again
        ("b/AGENTS.md", ""),  # an empty file
        ("b/AGENTS.md", "  \n\t\n"),  # blank: opencode still loads it, the agents-md profile skips it
        (
            "AGENTS.md",
            "# Root\n\n## Testing\n\n" + SHARED + "- see @docs/style.md for the rest of the rules\n",
        ),  # an @ line sent literally
        ("a/AGENTS.md", "# A\n\n- deep rule for the deep package here\n"),  # now repeats a/deep's bullet
        ("CLAUDE.md", "# Claude\n\n- a rule for Claude alone, with more words\n\n@AGENTS.md\n"),  # same import: cascades kept
        ("CLAUDE.md", "# Claude\n\n" + SHARED),  # the import is gone: AGENTS.md is no longer loaded by Claude
        ("c/GEMINI.md", "# Gemini\n\n- gemini specific rule for package c, reworded\n"),  # Gemini keeps its cascades
        ("c/GEMINI.md", "# Gemini\n\n@../AGENTS.md\n"),  # an import: Gemini's cascades change
    ],
)
def test_edit_gives_the_same_findings_as_a_full_run(setup, edited, text) -> None:
    root, home, analyzer, before = setup
    (root / edited).write_text(text)
    after = analyzer.analyse_paths([str(root / edited)])
    _assert_consistent(root, home, before, after)


def test_edit_of_a_leaf_touches_only_its_chain(setup) -> None:
    root, home, analyzer, before = setup
    edited = root / "a" / "deep" / "AGENTS.md"
    edited.write_text("# Deep\n\n## Testing\n\n" + SHARED)
    after = analyzer.analyse_paths([str(edited)])
    assert str(edited) in after
    touched = {os.path.relpath(p, root) for p in after}
    assert not touched & {"b/AGENTS.md", "b/CONTEXT.md", "c/GEMINI.md"}
    assert any(f.code == "duplicate-instruction" for f in after[str(edited)])
    _assert_consistent(root, home, before, after)


def test_edit_that_keeps_which_files_load_reports_only_what_changed(tmp_path: Path) -> None:
    """opencode and the agents-md profile read an AGENTS.md's content only to skip it when blank:
    after another edit their cascades are kept, and only files whose findings can change are reported."""
    root, home = Path(os.path.realpath(tmp_path)) / "ws", tmp_path / "home"
    home.mkdir()
    write_tree(
        root,
        {
            ".git/HEAD": "x\n",
            "AGENTS.md": "# Root\n\n## Testing\n\n" + SHARED,
            "a/AGENTS.md": "# A\n\n- a specific rule about package a only\n",
            "b/AGENTS.md": "# B\n\n## Testing\n\n- b specific rule about package b only\n",
        },
    )
    settings = Settings(
        harnesses=["opencode", "agents-md"], severity={"shadowed-section": "information", "import-not-expanded": "information"}
    )
    index = WorkspaceIndex(str(root), FileSystem())
    index.scan()
    analyzer = Analyzer(index, settings, home=str(home), env={})
    before = analyzer.analyse_all()
    edited = root / "AGENTS.md"
    edited.write_text("# Root\n\n## Testing\n\n" + SHARED + "- one more rule that nothing else repeats\n")
    after = analyzer.analyse_paths([str(edited)])
    assert set(after) == {str(edited)}
    edited.write_text(
        "# Root\n\n" + SHARED + "- b specific rule about package b only\n"
    )  # b's section no longer shadows; b repeats a bullet
    after = analyzer.analyse_paths([str(edited)])
    assert set(after) == {str(edited), str(root / "b" / "AGENTS.md")}
    fresh = Analyzer(index, settings, home=str(home), env={}).analyse_all()
    merged = {**before, **after}
    assert {p: _shape(f) for p, f in merged.items() if f} == {p: _shape(f) for p, f in fresh.items()}


def test_own_facts_redone_keep_the_chain_facts(tmp_path: Path) -> None:
    """An `@` line added to a file opencode loads changes the unit's own facts (import-not-expanded)
    while its cascade is kept; the facts it shares with its chain (a section the agents-md
    profile sees redefined) stay."""
    root, home = Path(os.path.realpath(tmp_path)) / "ws", tmp_path / "home"
    home.mkdir()
    write_tree(
        root,
        {
            ".git/HEAD": "x\n",
            "AGENTS.md": "# Root\n\n## Testing\n\n" + SHARED,
            "a/AGENTS.md": "# A\n\n## Testing\n\n- a specific rule about package a only\n",
            "docs/style.md": "# Style\n",
        },
    )
    settings = Settings(
        harnesses=["opencode", "agents-md"], severity={"shadowed-section": "information", "import-not-expanded": "information"}
    )
    index = WorkspaceIndex(str(root), FileSystem())
    index.scan()
    analyzer = Analyzer(index, settings, home=str(home), env={})
    state = analyzer.analyse_all()
    (root / "AGENTS.md").write_text("# Root\n\n## Testing\n\n" + SHARED + "\n@docs/style.md\n")
    state = {**state, **analyzer.analyse_paths([str(root / "AGENTS.md")])}
    fresh = Analyzer(index, settings, home=str(home), env={}).analyse_all()
    assert {p: _shape(f) for p, f in state.items() if f} == {p: _shape(f) for p, f in fresh.items()}
    assert {f.code for f in state[str(root / "AGENTS.md")]} >= {"shadowed-section", "import-not-expanded"}


@pytest.mark.parametrize(
    ("edits", "cut"),
    [
        # over the budget (b's file is cut), then back under it
        (
            ["- a longer rule for package a that pushes the chain over the byte budget of Codex here\n" * 2, "- short\n"],
            [True, False],
        ),
        # blank: skipped without spending the budget; then loaded again
        (["   \n", "- back again with a rule\n"], [False, False]),
        # within the budget: the cascades are kept
        (["- a rule for package a only, a little longer\n"], [False]),
    ],
)
def test_codex_budget_through_edits(tmp_path: Path, edits: list[str], cut: list[bool]) -> None:
    """Codex's candidates depend on sizes: an edit that keeps the chain under its budget keeps the
    cascades, one that crosses it (either way) gives what a fresh analysis gives."""
    root, home = Path(os.path.realpath(tmp_path)) / "ws", tmp_path / "home"
    home.mkdir()
    write_tree(
        root,
        {
            ".git/HEAD": "x\n",
            "AGENTS.md": "# Root\n\n" + SHARED,
            "a/AGENTS.md": "- a rule for package a only\n",
            "a/b/AGENTS.md": "- a rule for package b only\n",
        },
    )
    settings = Settings(harnesses=["codex"], codex=CodexOptions(max_bytes=160))
    index = WorkspaceIndex(str(root), FileSystem())
    index.scan()
    analyzer = Analyzer(index, settings, home=str(home), env={})
    state = analyzer.analyse_all()
    for text, expect_cut in zip(edits, cut, strict=True):
        (root / "a" / "AGENTS.md").write_text(text)
        state = {**state, **analyzer.analyse_paths([str(root / "a" / "AGENTS.md")])}
        fresh = Analyzer(index, settings, home=str(home), env={}).analyse_all()
        assert {p: _shape(f) for p, f in state.items() if f} == {p: _shape(f) for p, f in fresh.items()}
        assert any(f.code == "truncated" for items in state.values() for f in items) == expect_cut


def test_created_and_deleted_files(setup) -> None:
    root, home, analyzer, before = setup
    created = root / "b" / "sub" / "AGENTS.md"
    created.parent.mkdir()
    created.write_text("# Sub\n\n" + SHARED)
    after = analyzer.analyse_paths([str(created)])
    assert any(f.code == "duplicate-instruction" for f in after[str(created)])
    _assert_consistent(root, home, before, after)
    state = {**before, **after}
    created.unlink()
    after = analyzer.analyse_paths([str(created)])
    assert after.get(str(created)) == []
    _assert_consistent(root, home, state, after)


def test_unsaved_buffer_overlay(setup) -> None:
    root, _home, analyzer, _before = setup
    edited = str(root / "b" / "AGENTS.md")
    analyzer.index.fs.set_overlay(edited, "# B\n\n" + SHARED)
    after = analyzer.analyse_paths([edited])
    assert any(f.code == "duplicate-instruction" for f in after[edited])


def test_detect_harnesses_auto_rule(tmp_path: Path) -> None:
    write_tree(tmp_path, {"AGENTS.md": "x\n"})
    index = WorkspaceIndex(str(tmp_path), FileSystem())
    index.scan()
    # AGENTS.md alone says Codex (the agents-md profile is enabled by name only); opencode and
    # Copilot CLI need a file or folder of their own, not one every AGENTS.md or Copilot reader reads.
    assert detect_harnesses(index) == ["codex"]
    write_tree(tmp_path, {".gemini/settings.json": "{}", ".github/copilot-instructions.md": "x\n", ".cursorrules": "x\n"})
    index.scan()
    assert detect_harnesses(index) == ["codex", "gemini", "copilot", "cursor"]
    write_tree(tmp_path, {"opencode.json": "{}"})
    index.scan()
    assert detect_harnesses(index)[0] == "opencode"
    write_tree(tmp_path, {"QWEN.md": "x\n", ".clinerules/a.md": "x\n", "pkg/.continue/rules/b.md": "x\n"})
    index.scan()
    assert detect_harnesses(index)[-3:] == ["qwen", "continue", "cline"]
    home = tmp_path / "home"
    write_tree(home, {".pi/agent/AGENTS.md": "x\n", ".factory/AGENTS.md": "x\n", ".copilot/config.json": "{}"})
    assert {"pi", "droid", "copilot-cli"} <= set(detect_harnesses(index, str(home)))
    assert not {"pi", "droid", "copilot-cli"} & set(detect_harnesses(index))


def test_new_source_file_satisfies_a_glob(tmp_path: Path) -> None:
    root = Path(os.path.realpath(tmp_path))
    write_tree(root, {".git/HEAD": "x\n", "CLAUDE.md": "# C\n", ".claude/rules/go.md": '---\npaths: "cmd/**/*.go"\n---\n# Go\n'})
    index = WorkspaceIndex(str(root), FileSystem())
    index.scan()
    analyzer = Analyzer(index, Settings(), home=str(root / "home"), env={})
    rule = str(root / ".claude" / "rules" / "go.md")
    assert [f.code for f in analyzer.analyse_all()[rule]] == ["glob-matches-nothing"]
    write_tree(root, {"cmd/main.go": "package main\n"})
    after = analyzer.analyse_paths([str(root / "cmd" / "main.go")])
    assert after[rule] == []


def test_harness_config_change_reanalyses_everything(tmp_path: Path) -> None:
    root = Path(os.path.realpath(tmp_path))
    write_tree(
        root,
        {
            ".git/HEAD": "x\n",
            "GEMINI.md": "# G\n- gemini rule number one here\n",
            "AGENTS.md": "# A\n- gemini rule number one here\n",
        },
    )
    index = WorkspaceIndex(str(root), FileSystem())
    index.scan()
    analyzer = Analyzer(index, Settings(harnesses=["gemini"]), home=str(root / "home"), env={})
    before = analyzer.analyse_all()
    assert any(f.code == "unreachable-file" for f in before[str(root / "AGENTS.md")])
    settings = root / ".gemini" / "settings.json"
    write_tree(root, {".gemini/settings.json": '{"context": {"fileName": ["AGENTS.md", "GEMINI.md"]}}'})
    after = analyzer.analyse_paths([str(settings)])
    assert not any(f.code == "unreachable-file" for f in after[str(root / "AGENTS.md")])
    assert any(f.code == "duplicate-instruction" for f in after[str(root / "GEMINI.md")])
