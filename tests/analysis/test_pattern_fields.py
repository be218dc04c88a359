"""Every field whose text becomes a pattern, given a pattern that backtracks exponentially in a
regex engine like Python's `re`: `check` completes and reports what it reports for a harmless
pattern of the same meaning. Then the caps: past one, the rest is ignored, with a warning.

The workspace has a directory named with 200 `a`s (what `*a*a…*b` backtracks on), a 40-level
path of such names, and `x/` (what `**/**/…/x` names, as `**/x` does).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from analysis_helpers import check, check_json
from workspace_files import write_tree

from lsp_agents.core.patterns import MAX_FILE_PATTERNS, MAX_LIST_PATTERNS, MAX_PATTERN_LENGTH

BACKTRACKING = "*a" * 30 + "*b"  # matches no name here
DEEP_STARS = "/".join(["**"] * 40) + "/x"  # means `**/x`
LONG_NAME = "a" * 200
DEEP = "/".join(["a" * 16] * 40)
RULE = "- Run the tests before committing.\n"
BASE = {
    "AGENTS.md": "# Root\n" + RULE,
    "CLAUDE.md": "# Claude\n@AGENTS.md\n",
    f"{LONG_NAME}/AGENTS.md": "# Long\n" + RULE,
    f"{DEEP}/AGENTS.md": "# Deep\n" + RULE,
    "x/AGENTS.md": "# X\n" + RULE,
    "src/app.ts": "export {}\n",
}


def _rule_files(pattern: str) -> dict[str, str]:
    return {
        ".claude/rules/r.md": f"---\npaths:\n  - {json.dumps(pattern)}\n---\n- Claude rule.\n",
        ".cursor/rules/r.mdc": f"---\nglobs: {pattern}\nalwaysApply: false\n---\n- Cursor rule.\n",
        ".github/instructions/r.instructions.md": f"---\napplyTo: {json.dumps(pattern)}\n---\n- Copilot rule.\n",
    }


# Each field: the files that put a pattern into it.
FIELDS = {
    ".gitignore": lambda p: {".gitignore": f"{p}\n", f"{DEEP}/.gitignore": f"{p}\n"},
    "exclude": lambda p: {"lsp-agents.toml": f"exclude = [{json.dumps(p)}]\n"},
    "launchDirectories": lambda p: {"lsp-agents.toml": f"launchDirectories = [{json.dumps(p)}]\n"},
    "rule globs": _rule_files,
    "opencode instructions": lambda p: {"opencode.json": json.dumps({"instructions": [p]})},
}
# (pathological, harmless) pairs of the same meaning here.
SAME_MEANING = [(BACKTRACKING, "*no-such-b"), (DEEP_STARS, "**/x")]


def _run_check(ws: Path, home: Path) -> tuple[set[tuple[str, str]], str]:
    """The (code, path) of every finding (messages quote the patterns) and stderr."""
    completed = check(ws, home, str(ws), "--format", "json", "--fail-on", "never")
    assert completed.returncode == 0, completed.stderr
    return {(f["code"], f["path"]) for f in json.loads(completed.stdout)["findings"]}, completed.stderr


def _findings(tmp_path: Path, name: str, files: dict[str, str]) -> set[tuple[str, str]]:
    ws, home = tmp_path / name / "ws", tmp_path / name / "home"
    (ws / ".git").mkdir(parents=True)
    home.mkdir()
    write_tree(ws, {**BASE, **files})
    return _run_check(ws, home)[0]


@pytest.mark.parametrize("field", FIELDS)
@pytest.mark.parametrize(("pathological", "harmless"), SAME_MEANING, ids=["backtracking", "deep-stars"])
def test_a_pathological_pattern_means_what_a_harmless_one_does(
    tmp_path: Path, field: str, pathological: str, harmless: str
) -> None:
    found = _findings(tmp_path, "pathological", FIELDS[field](pathological))
    assert found == _findings(tmp_path, "harmless", FIELDS[field](harmless))
    if field != "launchDirectories":  # where the launch directories are given, only the root and x/ may be one
        assert ("duplicate-instruction", f"{LONG_NAME}/AGENTS.md") in found, "the long-named folder is searched"


def _reasons(ws: Path, home: Path, target: Path, harness: str) -> dict[str, str]:
    completed = subprocess.run(
        [
            sys.executable,
            "-m",
            "lsp_agents",
            "cascade",
            str(target),
            "--harness",
            harness,
            "--cwd",
            str(ws),
            "--home",
            str(home),
            "--format",
            "json",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert completed.returncode == 0, completed.stderr
    [result] = json.loads(completed.stdout)["harnesses"]
    return {Path(e["path"]).name: e["reason"] for e in result["not_loaded"]}


@pytest.mark.parametrize(
    ("harness", "files"),
    [
        ("qwen", lambda p: {".qwen/rules/r.md": f"---\npaths:\n  - {json.dumps(p)}\n---\n- Qwen rule.\n"}),
        ("opencode", lambda p: {"opencode.json": json.dumps({"instructions": [p]})}),
    ],
)
def test_a_pathological_rule_or_instruction_matches_nothing_like_a_harmless_one(tmp_path: Path, harness: str, files) -> None:
    """Qwen Code's rule globs and opencode's instructions, as the cascade of a file sees them."""
    reasons = []
    for name, pattern in (("pathological", BACKTRACKING), ("harmless", "no-such-name")):
        ws, home = tmp_path / name / "ws", tmp_path / name / "home"
        (ws / ".git").mkdir(parents=True)
        home.mkdir()
        write_tree(ws, {**BASE, **files(pattern), f"{LONG_NAME}/{LONG_NAME}.md": "# matched by no pattern\n"})
        found = _reasons(ws, home, ws / LONG_NAME / f"{LONG_NAME}.md", harness)
        reasons.append({k.replace(pattern, "PATTERN"): v for k, v in found.items()})
    assert reasons[0] == reasons[1]
    assert "glob-no-match" in reasons[0].values()


def test_patterns_past_the_caps_are_ignored_with_a_warning(workspace) -> None:
    """Each cap on its own list: the pattern past it, which would leave `x/` out or match
    `src/app.ts`, does nothing, and one line says what was ignored."""
    too_long = "/".join(["**"] * (MAX_PATTERN_LENGTH // 3 + 1)) + "/x/"
    fillers = [f"no-such-name-{i}" for i in range(MAX_LIST_PATTERNS)]
    ws, home = workspace(
        {
            **BASE,
            ".gitignore": "".join(f"n{i}\n" for i in range(MAX_FILE_PATTERNS)) + f"# a comment is no pattern\nx/\n{too_long}\n",
            "lsp-agents.toml": f"exclude = {json.dumps([*fillers, 'x/'])}\n",
            ".claude/rules/r.md": "---\npaths:\n" + "".join(f"  - {p}/*.ts\n" for p in [*fillers, "src"]) + "---\n- R.\n",
            "opencode.json": json.dumps({"instructions": [*fillers, "x/AGENTS.md"]}),
        }
    )
    found, stderr = _run_check(ws, home)
    assert ("duplicate-instruction", "x/AGENTS.md") in found, "x/ is neither ignored nor excluded"
    assert {("glob-matches-nothing", ".claude/rules/r.md"), ("invalid-frontmatter", ".claude/rules/r.md")} <= found
    warnings = [line for line in stderr.splitlines() if "patterns ignored" in line]
    assert warnings == [
        f"{ws / 'lsp-agents.toml'}: exclude: patterns ignored: 1 past the first {MAX_LIST_PATTERNS:,}",
        f"warning: {ws / '.gitignore'}: patterns ignored: 1 longer than {MAX_PATTERN_LENGTH:,} characters"
        f" and 1 past the first {MAX_FILE_PATTERNS:,}",
        f"warning: opencode instructions: patterns ignored: 1 past the first {MAX_LIST_PATTERNS:,}",
    ], stderr


@pytest.mark.parametrize(
    ("harness", "path"),
    [("kilo", "AGENTS.md"), ("opencode", ".opencode/agent/review.md")],
)
def test_unclosed_references_repeated_in_a_file_are_read_in_linear_time(workspace, harness: str, path: str) -> None:
    """`{env:` and `{file:` without their `}`, 60,000 times: matched as the CLIs write it (`[^}]+`), each
    would scan to the end of the file, minutes of work the analysis gives up on; bounded, every unit
    is evaluated."""
    text = "---\ndescription: Reviews code\n---\n" + "{env:x{file:y" * 60_000 + "\n"
    ws, home = workspace({**BASE, "kilo.json": "{}\n", "opencode.json": "{}\n", path: text})
    _rc, data = check_json(ws, home, "--harness", harness, "--fail-on", "never", "--enable", "all")
    assert [f for f in data["findings"] if f["code"] == "not-evaluated"] == []
