"""`check`'s result cache: a cached answer is the answer `--no-cache` gives, whatever changed.

Generated, not enumerated: from a seed, a random sequence of changes to a workspace and its home
folder (instruction files written, grown past a budget, duplicated, deleted, made links; ignore and
settings files; a harness folder moved by its variable; runs from a subfolder, on files) and after
each one `check` twice, cached and not: the outputs and exit statuses must be identical. A stored
entry is rewritten (a new inode: it is replaced atomically) exactly when the check ran, which tells
hits from misses without a clock.
"""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path

import cli_process
import pytest

LINES = [
    "- Run the whole test suite before a commit.",
    "- Use pnpm, never npm.",
    "- Keep functions under forty lines.",
    "- Write commit messages in the imperative mood.",
    "- Never edit generated files under dist/.",
    "- Prefer small pull requests with one purpose.",
]
INSTRUCTION_FILES = [
    "AGENTS.md",
    "CLAUDE.md",
    "pkg/a/AGENTS.md",
    "pkg/a/CLAUDE.md",
    "pkg/b/AGENTS.md",
    "pkg/b/deep/GEMINI.md",
    ".claude/rules/style.md",
    ".cursor/rules/style.mdc",
]
HOME_FILES = [".claude/CLAUDE.md", ".codex/AGENTS.md", "alt-claude/CLAUDE.md", ".gemini/GEMINI.md"]
CHANGES = {"write": 5, "home": 3, "delete": 2, "link": 1, "touch": 1, "ignore": 1, "settings": 1, "env": 1, "cwd": 1}


def _text(rng: random.Random) -> str:
    lines = [*rng.sample(LINES, rng.randint(1, 4)), f"- A line of its own, number {rng.randint(1, 10**6)}."]
    if rng.random() < 0.3:
        lines += lines[:1]  # a repeated line: a duplicate finding
    if rng.random() < 0.1:
        lines += [f"- Filler instruction number {n} for the budget." for n in range(900)]  # past Codex's 32 KiB
    return "# Rules\n\n" + "\n".join(lines) + "\n"


class Scenario:
    """A workspace and a home folder changed step by step, and the command line of each check."""

    def __init__(self, tmp: Path, seed: int) -> None:
        self.rng = random.Random(seed)
        self.ws, self.home = tmp / "ws", tmp / "home"
        (self.ws / ".git").mkdir(parents=True)
        self.home.mkdir()
        self.env = {**os.environ, "HOME": str(self.home), "XDG_CACHE_HOME": str(tmp / "cache"), "NO_COLOR": "1"}
        self.cache = tmp / "cache" / "lsp-agents" / "check"
        self.cwd, self.paths = self.ws, []
        for base, names in ((self.ws, INSTRUCTION_FILES), (self.home, HOME_FILES)):
            for name in self.rng.sample(names, len(names) // 2):
                (base / name).parent.mkdir(parents=True, exist_ok=True)
                (base / name).write_text(_text(self.rng))

    def change(self) -> str:
        """One random change; what it was."""
        rng = self.rng
        kind = rng.choices(list(CHANGES), weights=list(CHANGES.values()))[0]
        if kind in ("write", "home"):
            base, names = (self.ws, INSTRUCTION_FILES) if kind == "write" else (self.home, HOME_FILES)
            path = base / rng.choice(names)
            if path.is_symlink():
                path.unlink()
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(_text(rng))
            return f"{kind} {path}"
        existing = [p for p in (self.ws / name for name in INSTRUCTION_FILES) if p.exists() or p.is_symlink()]
        if kind == "delete" and existing:
            target = rng.choice(existing)
            target.unlink()
            return f"delete {target}"
        if kind == "link" and existing:
            link = self.ws / rng.choice(INSTRUCTION_FILES)
            if link.exists() or link.is_symlink():
                link.unlink()
            link.parent.mkdir(parents=True, exist_ok=True)
            link.symlink_to(rng.choice(existing))
            return f"link {link}"
        if kind == "touch" and existing:
            target = rng.choice(existing)
            os.utime(target, ns=(rng.randint(1, 10**18), rng.randint(1, 10**18)))
            return f"touch {target}"
        if kind == "ignore":
            (self.ws / ".gitignore").write_text(rng.choice(["pkg/b/\n", "*.mdc\n", "", "deep\n"]))
            return "ignore"
        if kind == "settings":
            settings = self.ws / "lsp-agents.toml"
            choice = rng.choice(['harnesses = ["claude-code", "codex"]\n', 'exclude = ["pkg/a"]\n', None])
            if choice is None:
                settings.unlink(missing_ok=True)
            else:
                settings.write_text(choice)
            return f"settings {choice!r}"
        if kind == "env":
            if "CLAUDE_CONFIG_DIR" in self.env:
                del self.env["CLAUDE_CONFIG_DIR"]
            else:
                self.env["CLAUDE_CONFIG_DIR"] = str(self.home / "alt-claude")
            return "env CLAUDE_CONFIG_DIR"
        (self.ws / "pkg" / "a").mkdir(parents=True, exist_ok=True)
        self.cwd = rng.choice([self.ws, self.ws / "pkg" / "a"])
        self.paths = rng.choice([[], [str(self.ws / "AGENTS.md")]]) if (self.ws / "AGENTS.md").exists() else []
        return f"cwd {self.cwd} paths {self.paths}"

    def check(self, *extra: str) -> subprocess.CompletedProcess[str]:
        args = ["check", *self.paths, "--harness", "all", "--enable", "all", "--format", "json", *extra]
        return cli_process.run(args, cwd=self.cwd, env=self.env)

    def stored(self) -> dict[str, int]:
        """Each stored entry's inode: a new one for every run that was not answered from the cache."""
        return {p.name: p.stat().st_ino for p in self.cache.glob("*.json")} if self.cache.exists() else {}


def _same(cached: subprocess.CompletedProcess[str], fresh: subprocess.CompletedProcess[str]) -> bool:
    return (cached.returncode, cached.stdout, cached.stderr) == (fresh.returncode, fresh.stdout, fresh.stderr)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_cached_answer_is_the_fresh_answer_after_any_change(tmp_path: Path, seed: int) -> None:
    scenario = Scenario(tmp_path, seed)
    hits = 0
    for step in range(14):
        what = scenario.change()
        cached = scenario.check()
        before = scenario.stored()
        again = scenario.check()  # nothing changed since: answered from the cache
        fresh = scenario.check("--no-cache")
        assert _same(cached, fresh) and _same(again, fresh), f"seed {seed} step {step}: {what}"
        assert cached.returncode in (0, 1), cached.stderr
        hits += scenario.stored() == before
    assert hits == 14  # every repeated run was a hit: the cache is used, not only harmless


def test_a_hit_loads_no_analysis(tmp_path: Path) -> None:
    """The point of the cache: an unchanged workspace is answered without the analysis or a model."""
    ws = tmp_path / "ws"
    (ws / ".git").mkdir(parents=True)
    (ws / "AGENTS.md").write_text("# Rules\n\n- Use pnpm.\n- Use pnpm.\n")
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache"), "HOME": str(tmp_path / "home")}
    (tmp_path / "home").mkdir()
    command = [sys.executable, "-X", "importtime", "-m", "lsp_agents", "check", "--format", "json"]
    first, second = (subprocess.run(command, cwd=ws, env=env, capture_output=True, text=True, timeout=120) for _ in range(2))
    assert first.stdout == second.stdout and "findings" in json.loads(second.stdout)
    imported = set(re.findall(r"^import time:\s+\d+ \|\s+\d+ \|\s*(\S+)$", second.stderr, re.M))
    assert "lsp_agents.check_cache" in imported
    assert not {"lsp_agents.core.analysis", "lsp_agents.core.harnesses", "markdown_it"} & imported


def test_a_damaged_or_unwritable_cache_only_costs_time(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / "AGENTS.md").write_text("# Rules\n\n- Use pnpm.\n- Use pnpm.\n")
    cache = tmp_path / "cache"
    env = {**os.environ, "XDG_CACHE_HOME": str(cache), "HOME": str(tmp_path)}
    fresh = cli_process.run(["check", "--no-cache"], cwd=tmp_path, env=env)
    assert not cache.exists()  # --no-cache stores nothing
    assert _same(cli_process.run(["check"], cwd=tmp_path, env=env), fresh)
    for entry in (cache / "lsp-agents" / "check").glob("*.json"):
        entry.write_text('{"journal": {"read\\u0000/x": 1}, "stdout": "forged"')  # cut short
    assert _same(cli_process.run(["check"], cwd=tmp_path, env=env), fresh)
    for entry in (cache / "lsp-agents" / "check").glob("*.json"):
        entry.write_text(
            json.dumps({"max_read_bytes": 1, "journal": {"unknown\u0000/x": 1}, "stdout": "forged", "stderr": "", "status": 0})
        )
    assert _same(cli_process.run(["check"], cwd=tmp_path, env=env), fresh)
    blocked = {**env, "XDG_CACHE_HOME": str(tmp_path / "AGENTS.md")}  # a file: no folder can be made there
    assert _same(cli_process.run(["check"], cwd=tmp_path, env=blocked), fresh)


def test_the_cache_keeps_the_newest_entries(tmp_path: Path) -> None:
    (tmp_path / "ws" / ".git").mkdir(parents=True)
    (tmp_path / "ws" / "AGENTS.md").write_text("# Rules\n\n- Use pnpm.\n")
    folder = tmp_path / "cache" / "lsp-agents" / "check"
    folder.mkdir(parents=True)
    for number in range(70):  # older runs' entries
        old = folder / f"{number:040x}.json"
        old.write_text("{}")
        os.utime(old, ns=(10**18 + number, 10**18 + number))
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache"), "HOME": str(tmp_path)}
    cli_process.run(["check"], cwd=tmp_path / "ws", env=env)
    kept = sorted(p.name for p in folder.glob("*.json"))
    assert len(kept) == 64 and f"{0:040x}.json" not in kept and f"{69:040x}.json" in kept
    assert any(not name.startswith("0000") for name in kept)  # the run's own entry
