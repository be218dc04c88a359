"""Random edits, each re-analysed incrementally, always give what a fresh full analysis gives.

A generated monorepo (AGENTS.md, AGENTS.override.md, CLAUDE.md, GEMINI.md, Claude rules, sections
and bullets from a small vocabulary, so duplicates and redefined sections abound; Copilot and
Cursor files too) takes a seeded
series of unsaved-buffer edits of the kinds that keep or change what loads: more bullets, a new
section, a blank file, an `@` line, a repeated bullet, a much longer file (Codex's budget).
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest
from workspace_files import write_tree

from lsp_agents.core.analysis import Analyzer
from lsp_agents.core.fs import FileSystem
from lsp_agents.core.settings import CodexOptions, Settings
from lsp_agents.core.workspace import WorkspaceIndex

WORDS = "always run the tests before pushing keep commits small use the linter format code review every change".split()
NAMES = ["AGENTS.md", "AGENTS.md", "AGENTS.md", "CLAUDE.md", "GEMINI.md", "AGENTS.override.md"]
EDITS = [
    lambda rng, text: text + f"\n- {' '.join(rng.choices(WORDS, k=7))}\n",
    lambda rng, text: text + f"\n## {rng.choice(['Testing', 'Style', 'Review'])}\n\n- {' '.join(rng.choices(WORDS, k=6))}\n",
    lambda rng, text: "   \n",
    lambda rng, text: text + "\n@docs/style.md\n",
    lambda rng, text: text + "\n" + next((line for line in text.splitlines() if line.startswith("- ")), "- a b c d e") + "\n",
    lambda rng, text: text * 4,
    lambda rng, text: text.replace("## ", "### ", 1),
]


def _tree(rng: random.Random) -> dict[str, str]:
    files = {".git/HEAD": "ref: refs/heads/main\n", "src/index.ts": "export {};\n"}
    directories = [""]
    for _ in range(14):
        parent = rng.choice(directories)
        directories.append(f"{parent}{rng.choice(['api', 'web', 'core', 'lib'])}{len(directories)}/")
    for directory in directories:
        for name in set(rng.sample(NAMES, 2)):
            heading = rng.choice(["Testing", "Style", "Review"])
            bullets = "".join(f"- {' '.join(rng.choices(WORDS, k=6))}\n" for _ in range(3))
            files[f"{directory}{name}"] = f"# {directory or 'root'}\n\n## {heading}\n\n{bullets}"
    files[".claude/rules/tests.md"] = '---\npaths: "**/*.ts"\n---\n- always run the tests before pushing\n'
    files[".github/copilot-instructions.md"] = "- keep commits small and review every change\n"
    files[".github/instructions/ts.instructions.md"] = '---\napplyTo: "**/*.ts"\n---\n- format code with the linter\n'
    files[".cursor/rules/style.mdc"] = '---\nglobs: "**/*.ts"\nalwaysApply: false\n---\n- use the linter\n'
    return files


def _shape(findings: dict) -> dict:
    return {
        path: [(f.code, f.severity, f.span, f.message, tuple(f.harnesses), tuple(f.related), f.fix) for f in items]
        for path, items in findings.items()
        if items
    }


# Redefined sections count only for a closest-wins harness, and only once given a severity.
SECTIONS = {
    "harnesses": ["opencode", "codex", "claude-code", "gemini", "agents-md", "kilo"],
    "severity": {"shadowed-section": "warning"},
}


@pytest.mark.parametrize(("seed", "options"), [(1, {}), (2, {}), (3, {}), (4, {}), (5, {}), (6, SECTIONS), (7, SECTIONS)])
def test_random_edits_match_a_fresh_analysis(tmp_path: Path, seed: int, options: dict) -> None:
    rng = random.Random(seed)
    root, home = Path(os.path.realpath(tmp_path)) / "ws", tmp_path / "home"
    home.mkdir()
    write_tree(root, _tree(rng))
    settings = Settings(codex=CodexOptions(max_bytes=600), **options)  # small enough for edits to cross it
    fs = FileSystem()
    index = WorkspaceIndex(str(root), fs)
    index.scan()
    analyzer = Analyzer(index, settings, home=str(home), env={})
    state = analyzer.analyse_all()
    instruction_files = sorted(index.instruction_files)
    for _round in range(25):
        edited = rng.sample(instruction_files, rng.choice([1, 1, 2]))
        for path in edited:
            fs.set_overlay(path, rng.choice(EDITS)(rng, fs.read(path).text()))
        state = {**state, **analyzer.analyse_paths(edited)}
        fresh = Analyzer(index, settings, home=str(home), env={}).analyse_all()
        assert _shape(state) == _shape(fresh), f"after editing {[os.path.relpath(p, root) for p in edited]}"
    if options:
        assert any(f.code == "shadowed-section" for items in state.values() for f in items)
