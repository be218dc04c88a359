"""`lsp-agents check` on workspaces whose patterns are large or pathological, beside a plain one.

Four workspaces, generated in the same run and checked one after the other (each a subprocess,
median wall time of `--runs`): (a) a plain workspace, (b) the same with a 200,000-line
`.gitignore`, (c) `pattern_workspace` of tests/hostile/hostile_workspace.py (patterns that make a
backtracking matcher take exponential time in every pattern-bearing field, above a 200-level-deep
path), (d) the plain workspace with 10,000 rule files (Claude Code, Cursor, Copilot and Qwen Code
rules with globs). Each time is printed as a ratio to (a), and so is one `cascade` on (d). A run
still going after `--timeout` seconds is stopped and shown as such. Nothing is asserted; the
exit status is 0.

Usage: python benchmarks/bench_patterns.py [--runs 3] [--timeout 300] [--keep DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "hostile"))
from hostile_workspace import pattern_workspace

GITIGNORE_LINES = 200_000
RULE_FILES = 10_000
SOURCE_FOLDERS = 100


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def plain(root: Path) -> Path:
    """A small repository: root instructions, a nested AGENTS.md, source folders."""
    (root / ".git").mkdir(parents=True)
    _write(root / "AGENTS.md", "# Plain\n- Run the tests before committing.\n")
    _write(root / "CLAUDE.md", "# Claude\n@AGENTS.md\n")
    _write(root / "src" / "AGENTS.md", "# Sources\n- Keep functions short.\n")
    for i in range(SOURCE_FOLDERS):
        _write(root / "src" / f"m{i}" / "index.ts", "export {}\n")
    return root


def huge_gitignore(root: Path) -> Path:
    """Distinct lines of the kinds real `.gitignore` files hold (no line repeats another)."""
    plain(root)
    kinds = ("build-{i}/", "*.gen{i}", "/out/{i}/", "!keep-{i}.log", "logs/**/trace-{i}.txt", "# note {i}", "src/m{i}/tmp-*")
    _write(root / ".gitignore", "".join(kinds[i % len(kinds)].format(i=i) + "\n" for i in range(GITIGNORE_LINES)))
    return root


def many_rules(root: Path) -> Path:
    plain(root)
    for i in range(RULE_FILES):
        folder = f"src/m{i % SOURCE_FOLDERS}"
        path, header = [
            (".claude/rules/r{i}.md", f'paths:\n  - "{folder}/**/*.ts"'),
            (".cursor/rules/r{i}.mdc", f"globs: {folder}/*.ts\nalwaysApply: false"),
            (".github/instructions/r{i}.instructions.md", f'applyTo: "{folder}/**"'),
            (".qwen/rules/r{i}.md", f'paths:\n  - "{folder}/**/*.ts"'),
        ][i % 4]
        _write(root / path.format(i=i), f"---\n{header}\n---\n- Rule {i}.\n")
    return root


def run(args: list[str], home: Path, timeout: float) -> float | None:
    """Wall time of one CLI run, or None when it was stopped at `timeout`."""
    started = time.perf_counter()
    try:
        result = subprocess.run(
            [sys.executable, "-m", "lsp_agents", *args],
            capture_output=True,
            timeout=timeout,
            env={**os.environ, "HOME": str(home)},
            stdin=subprocess.DEVNULL,
        )
    except subprocess.TimeoutExpired:
        return None
    elapsed = time.perf_counter() - started
    if result.returncode not in (0, 1, 2) or (args[0] == "check" and not json.loads(result.stdout).get("summary")):
        print(
            f"unexpected result of {' '.join(args[:2])}: exit {result.returncode}\n{result.stderr.decode()[-2000:]}",
            file=sys.stderr,
        )
    return elapsed


def median(args: list[str], home: Path, runs: int, timeout: float) -> float | None:
    times = [run(args, home, timeout) for _ in range(runs)]
    return None if None in times else statistics.median(t for t in times if t is not None)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="runs per workspace (the median is shown)")
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds after which a run is stopped")
    parser.add_argument("--keep", metavar="DIR", help="generate into DIR (must not exist) and keep it")
    args = parser.parse_args()
    base = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="lsp-agents-patterns-"))
    try:
        home = base / "home"
        home.mkdir(parents=True)
        started = time.perf_counter()
        workspaces = {
            "(a) plain workspace": plain(base / "a"),
            f"(b) {GITIGNORE_LINES:,}-line .gitignore": huge_gitignore(base / "b"),
            "(c) pathological patterns, 200-level path": base / "c",
            f"(d) {RULE_FILES:,} rule files": many_rules(base / "d"),
        }
        pattern_workspace(base / "c")
        print(f"generated the workspaces in {time.perf_counter() - started:.1f} s", file=sys.stderr)
        print(f"lsp-agents check wall time, median of {args.runs}; Python {sys.version.split()[0]}, {os.cpu_count()} CPUs")
        rows = [
            (
                label,
                median(
                    ["check", str(ws), "--home", str(home), "--format", "json", "--fail-on", "never", "--no-cache"],
                    home,
                    args.runs,
                    args.timeout,
                ),
            )
            for label, ws in workspaces.items()
        ]
        target = str(base / "d" / "src" / "m7" / "index.ts")
        rows.append(
            (
                "cascade of one file in (d), all harnesses",
                median(
                    ["cascade", target, "--harness", "all", "--cwd", str(base / "d"), "--home", str(home), "--format", "json"],
                    home,
                    args.runs,
                    args.timeout,
                ),
            )
        )
        baseline = rows[0][1]
        for label, seconds in rows:
            if seconds is None:
                print(f"{label:<46} stopped after {args.timeout:.0f} s")
            else:
                ratio = f"x{seconds / baseline:.1f}" if baseline else "-"
                print(f"{label:<46} {seconds:8.2f} s  {ratio:>7}")
    finally:
        if not args.keep:
            shutil.rmtree(base, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
