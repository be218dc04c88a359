"""Skipping a launch directory that holds none of a harness's files changes no finding.

The analysis computes a harness's cascade only from launch directories holding a file or folder
it reads (`Harness.directory_names`), or repository roots; launched anywhere else, it loads what
it loads from the launch directory above. Random monorepos mixing every harness's files, with
nested repositories and per-directory settings, are analysed with and without the skip.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest
from workspace_files import write_tree

from lsp_agents.core.analysis import Analyzer
from lsp_agents.core.fs import FileSystem
from lsp_agents.core.harnesses import HARNESSES
from lsp_agents.core.harnesses.base import Harness
from lsp_agents.core.settings import CodexOptions, Settings
from lsp_agents.core.workspace import WorkspaceIndex

WORDS = "always run the tests before pushing keep commits small use the linter format code review every change".split()
FILES = [
    "AGENTS.md",
    "CLAUDE.md",
    "GEMINI.md",
    "QWEN.md",
    "AGENTS.override.md",
    "CONTEXT.md",
    "CLAUDE.local.md",
    ".claude/rules/ts.md",
    ".github/copilot-instructions.md",
    ".cursor/rules/style.mdc",
    ".qwen/rules/ts.md",
    ".clinerules/style.md",
    ".continue/rules/style.md",
    ".kilocode/rules/style.md",
    ".gemini/settings.json",
    ".git/HEAD",
    "opencode.json",
]
SPECIAL = {
    ".gemini/settings.json": '{"context": {"fileName": ["AGENTS.md", "GEMINI.md"]}}\n',
    ".git/HEAD": "ref: refs/heads/main\n",
    "opencode.json": '{"instructions": ["docs/*.md"]}\n',
}


def _bullets(rng: random.Random, count: int) -> str:
    return "".join(f"- {' '.join(rng.choices(WORDS, k=6))}\n" for _ in range(count))


def _tree(rng: random.Random) -> dict[str, str]:
    files = {".git/HEAD": "ref: refs/heads/main\n", "src/index.ts": "export {};\n", "docs/style.md": _bullets(rng, 2)}
    directories = [""]
    for _ in range(16):
        parent = rng.choice(directories)
        directories.append(f"{parent}{rng.choice(['api', 'web', 'core', 'lib'])}{len(directories)}/")
    for directory in directories:
        files[f"{directory}src/main.ts"] = "export {};\n"
        for name in set(rng.sample(FILES, rng.choice([1, 1, 2, 3]))):
            if directory == "" and name == ".git/HEAD":
                continue
            heading = rng.choice(["Testing", "Style", "Review"])
            files[f"{directory}{name}"] = SPECIAL.get(name) or f"# {directory or 'root'}\n\n## {heading}\n\n{_bullets(rng, 3)}"
    return files


def _shape(findings: dict) -> dict:
    return {
        path: [(f.code, f.severity, f.span, f.message, tuple(f.harnesses), tuple(f.related), f.fix) for f in items]
        for path, items in findings.items()
        if items
    }


@pytest.mark.parametrize("seed", range(1, 25))
def test_skipping_changes_no_finding(tmp_path: Path, seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(seed)
    root, home = Path(os.path.realpath(tmp_path)) / "ws", tmp_path / "home"
    home.mkdir()
    write_tree(root, _tree(rng))
    settings = Settings(harnesses=list(HARNESSES), codex=CodexOptions(max_bytes=400))
    index = WorkspaceIndex(str(root), FileSystem())
    index.scan()

    def analyse() -> tuple[dict, int]:
        analyzer = Analyzer(index, settings, home=str(home), env={})
        findings = analyzer.analyse_all()
        return _shape(findings), len(analyzer.store.cascades)

    skipped, fewer = analyse()
    for harness in {type(h) for h in HARNESSES.values()}:
        monkeypatch.setattr(harness, "directory_names", Harness.directory_names)
    every, units = analyse()
    assert fewer < units, "the tree has launch directories some harness skips"
    assert skipped == every


@pytest.mark.parametrize("seed", range(1, 13))
def test_files_coming_and_going_keep_the_skips_right(tmp_path: Path, seed: int) -> None:
    """Creating or deleting a file changes which directories are skipped, and what they stand
    for; the incremental analysis then still gives what a fresh one gives."""
    rng = random.Random(seed)
    root, home = Path(os.path.realpath(tmp_path)) / "ws", tmp_path / "home"
    home.mkdir()
    files = _tree(rng)
    write_tree(root, files)
    settings = Settings(harnesses=list(HARNESSES), codex=CodexOptions(max_bytes=400))
    index = WorkspaceIndex(str(root), FileSystem())
    index.scan()
    analyzer = Analyzer(index, settings, home=str(home), env={})
    state = analyzer.analyse_all()
    directories = sorted({os.path.dirname(p) for p in files if p.endswith("main.ts")})
    names = [n for n in FILES if n not in SPECIAL]
    for _round in range(12):
        path = root / os.path.dirname(rng.choice(directories)) / rng.choice(names)
        if path.exists():
            path.unlink()
        else:
            write_tree(root, {str(path.relative_to(root)): f"# {path.parent.name}\n\n{_bullets(rng, 2)}"})
        state = {**state, **analyzer.analyse_paths([str(path)])}
        fresh = Analyzer(index, settings, home=str(home), env={}).analyse_all()
        assert _shape(state) == _shape(fresh), f"after {'creating' if path.exists() else 'deleting'} {path.relative_to(root)}"
