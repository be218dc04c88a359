"""The documented (unverified) models: GitHub Copilot in VS Code, Cursor and the agents.md spec.

No captures exist for these harnesses, so each test builds a small workspace, runs the real CLI as
a subprocess and checks one documented rule: which files load, in which order, with which text,
and which reason every file that does not load carries. Expected values are derived from the
files the test writes, never copied from a previous run.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import cli_process
import pytest


# -- helpers --------------------------------------------------------------------------------
def lsp_agents(command: str, *args: str, ws: Path, home: Path, cwd: Path | None = None) -> tuple[dict, str]:
    completed = cli_process.run([command, *args, "--cwd", str(cwd or ws), "--home", str(home), "--format", "json"], timeout=60)
    assert completed.returncode == 0, completed.stderr
    return json.loads(completed.stdout), completed.stderr


def prompt(harness: str, ws: Path, home: Path, cwd: Path | None = None) -> tuple[dict, str]:
    return lsp_agents("prompt", "--harness", harness, ws=ws, home=home, cwd=cwd)


def reminders(harness: str, target: Path, ws: Path, home: Path, *loaded: Path, cwd: Path | None = None) -> dict:
    extra = [arg for path in loaded for arg in ("--loaded", str(path))]
    return lsp_agents("reminders", str(target), "--harness", harness, *extra, ws=ws, home=home, cwd=cwd)[0]


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def loaded(data: dict) -> list[str]:
    return [f["path"] for f in data["files"] if f["loaded"]]


def reasons(data: dict) -> dict[str, str]:
    return {f["path"]: f["reason"] for f in data["files"] if not f["loaded"]}


def explanations(data: dict) -> dict[str, str]:
    return {f["path"]: f["explanation"] for f in data["files"] if not f["loaded"]}


def text_of(data: dict, key: str = "eager") -> str:
    return "\n".join(block["text"] for block in data[key])


def header(fields: str, body: str) -> str:
    return f"---\n{fields}\n---\n{body}"


@pytest.fixture
def tree(tmp_path: Path) -> tuple[Path, Path]:
    """A git workspace and an empty home, by their real paths (the CLI resolves the launch directory)."""
    root = Path(os.path.realpath(tmp_path))
    ws, home = root / "ws", root / "home"
    (ws / ".git").mkdir(parents=True)
    home.mkdir()
    return ws, home


# -- GitHub Copilot in VS Code ----------------------------------------------------------------
def test_copilot_attaches_every_always_on_file(tree) -> None:
    ws, home = tree
    files = [
        (write(ws / ".github" / "copilot-instructions.md", "COPILOT\n"), "project"),
        (write(ws / "AGENTS.md", "AGENTS\n"), "project"),
        (write(ws / "CLAUDE.md", "CLAUDE\n"), "project"),
        (write(ws / ".claude" / "CLAUDE.md", "DOT CLAUDE\n"), "project"),
        (write(ws / "CLAUDE.local.md", "LOCAL\n"), "local"),
        (write(home / ".claude" / "CLAUDE.md", "USER CLAUDE\n"), "global"),
    ]
    data, _ = prompt("copilot", ws, home)
    assert [(f["path"], f["role"]) for f in data["files"] if f["loaded"]] == [(str(p), role) for p, role in files]
    assert [b["placement"] for b in data["eager"]] == ["user"]
    text = text_of(data)
    positions = [text.index(f'<attachment filePath="{p}">\n{p.read_text().strip()}\n</attachment>') for p, _ in files]
    assert positions == sorted(positions)


@pytest.mark.parametrize(
    ("apply_to", "relative", "applies"),
    [
        ("src/**/*.ts", "lib/src/a.ts", True),  # relative patterns get a `**/` prefix: unanchored
        ("src/**/*.ts", "src/deep/a.ts", True),
        ("src/**/*.ts", "srcx/a.ts", False),
        ("**/*.PY", "pkg/tool.py", True),  # case-insensitive
        ("**/*.{ts,tsx}", "ui/App.tsx", True),  # no comma split inside braces
        ("docs/*.md, **/*.rs", "crates/main.rs", True),  # comma-separated list
        ("docs/*.md, **/*.rs", "crates/main.go", False),
        ("/src/**", "src/a.ts", False),  # a leading slash anchors at the filesystem root
    ],
)
def test_copilot_apply_to_matching(tree, apply_to: str, relative: str, applies: bool) -> None:
    ws, home = tree
    rule = write(ws / ".github" / "instructions" / "x.instructions.md", header(f'applyTo: "{apply_to}"', "RULE BODY\n"))
    target = write(ws / relative, "code\n")
    data = reminders("copilot", target, ws, home)
    assert loaded(data) == ([str(rule)] if applies else [])
    assert reasons(data) == ({} if applies else {str(rule): "glob-no-match"})
    if applies:
        assert data["reminders"] == [
            {"placement": "user", "text": f'<attachment filePath="{rule}">\n{rule.read_text().strip()}\n</attachment>'}
        ]
    else:
        assert data["reminders"] == []


@pytest.mark.parametrize("always", ["**", "*", "**/*", "src/**, **"])
def test_copilot_wildcard_apply_to_is_always_on(tree, always: str) -> None:
    ws, home = tree
    rule = write(ws / ".github" / "instructions" / "all.instructions.md", header(f'applyTo: "{always}"', "ALL\n"))
    data, _ = prompt("copilot", ws, home)
    assert loaded(data) == [str(rule)]
    assert f'<attachment filePath="{rule}">' in text_of(data)
    target = write(ws / "src" / "a.ts", "code\n")
    assert reminders("copilot", target, ws, home)["files"] == []  # already in every request


def test_copilot_without_apply_to_is_only_listed(tree) -> None:
    ws, home = tree
    rule = write(ws / ".github" / "instructions" / "style.instructions.md", header("description: House style", "STYLE\n"))
    data, _ = prompt("copilot", ws, home)
    assert reasons(data) == {str(rule): "listed-only"}
    assert "STYLE" not in text_of(data)
    assert f"<description>House style</description>\n<file>{rule}</file>\n</instruction>" in text_of(data)
    target = write(ws / "a.py", "code\n")
    assert reminders("copilot", target, ws, home)["files"] == []


def test_copilot_lists_nested_agents_md_and_never_loads_them(tree) -> None:
    ws, home = tree
    root = write(ws / "AGENTS.md", "ROOT\n")
    nested = write(ws / "pkg" / "api" / "AGENTS.md", "NESTED\n")
    write(ws / "node_modules" / "dep" / "AGENTS.md", "VENDORED\n")
    data, _ = prompt("copilot", ws, home)
    assert loaded(data) == [str(root)]
    assert reasons(data) == {str(nested): "listed-only"}
    text = text_of(data)
    assert "NESTED" not in text and "VENDORED" not in text
    assert f"<description>Instructions for folder 'pkg/api'</description>\n<file>{nested}</file>" in text
    target = write(ws / "pkg" / "api" / "server.ts", "code\n")
    read = reminders("copilot", target, ws, home)
    assert read["reminders"] == [] and read["files"] == []


def test_copilot_claude_rules_use_paths_and_default_to_all_files(tree) -> None:
    ws, home = tree
    always = write(ws / ".claude" / "rules" / "general.md", "GENERAL\n")
    scoped = write(ws / ".claude" / "rules" / "tests.md", header('paths:\n  - "**/*.test.ts"', "TESTS\n"))
    user = write(home / ".copilot" / "instructions" / "me.instructions.md", header('applyTo: "**"', "MINE\n"))
    ignored = write(ws / ".github" / "instructions" / "notes.md", "NOT AN INSTRUCTIONS FILE\n")
    data, _ = prompt("copilot", ws, home)
    assert loaded(data) == [str(always), str(user)]
    assert {f["path"]: f["role"] for f in data["files"]}[str(user)] == "global"
    assert reasons(data) == {str(scoped): "conditional", str(ignored): "not-configured"}
    target = write(ws / "src" / "a.test.ts", "test\n")
    assert loaded(reminders("copilot", target, ws, home)) == [str(scoped)]


def test_copilot_read_skips_instructions_loaded_earlier(tree) -> None:
    ws, home = tree
    rule = write(ws / ".github" / "instructions" / "py.instructions.md", header('applyTo: "*.py"', "PY\n"))
    target = write(ws / "tool.py", "code\n")
    data = reminders("copilot", target, ws, home, rule)
    assert data["reminders"] == []
    assert reasons(data) == {str(rule): "already-loaded"}


def test_copilot_empty_unreadable_and_invalid_files(tree) -> None:
    ws, home = tree
    empty = write(ws / ".github" / "instructions" / "empty.instructions.md", header('applyTo: "**"', "\n  \n"))
    (ws / "AGENTS.md").mkdir()
    broken = write(ws / ".github" / "instructions" / "broken.instructions.md", "---\napplyTo: [unclosed\n---\nBODY\n")
    data, stderr = prompt("copilot", ws, home)
    assert loaded(data) == []
    assert reasons(data) == {str(empty): "empty", str(ws / "AGENTS.md"): "not-regular-file", str(broken): "listed-only"}
    assert f"warning: {broken}: invalid YAML frontmatter" in stderr


def test_copilot_glob_beyond_the_bounds_is_reported_not_evaluated(tree) -> None:
    ws, home = tree
    explosive = "{a,b,c,d}" * 6  # 4**6 brace alternatives, above the bound
    rule = write(ws / ".github" / "instructions" / "bomb.instructions.md", header(f"applyTo: 'src/{explosive}/**'", "BOMB\n"))
    data, stderr = prompt("copilot", ws, home)
    assert reasons(data) == {str(rule): "glob-not-evaluable"}
    assert f"warning: {rule}: globs not evaluated" in stderr


# -- Cursor ---------------------------------------------------------------------------------
def test_cursor_rule_modes(tree) -> None:
    ws, home = tree
    rules = ws / ".cursor" / "rules"
    always = write(rules / "always.mdc", header("alwaysApply: true", "ALWAYS\n"))
    quoted = write(rules / "quoted.mdc", header('alwaysApply: "true"', "QUOTED\n"))
    globbed = write(rules / "ts.mdc", header("globs: *.ts\nalwaysApply: false", "TS\n"))
    described = write(rules / "agent.mdc", header("description: Database migrations\nalwaysApply: false", "AGENT\n"))
    manual = write(rules / "manual.mdc", "MANUAL\n")
    empty_globs = write(rules / "empty-globs.mdc", header("description:\nglobs:\nalwaysApply: false", "EMPTY GLOBS\n"))
    plain = write(rules / "plain.md", header("alwaysApply: true", "PLAIN\n"))
    data, stderr = prompt("cursor", ws, home)
    assert stderr == ""  # `globs: *.ts` is Cursor's own format, not a YAML error
    assert loaded(data) == [str(always)]
    # Only a rule with globs waits for a read; one with a description alone for the agent; the
    # others (empty globs, no description, alwaysApply false or quoted) for an @-mention.
    assert reasons(data) == {
        str(quoted): "manual",
        str(globbed): "conditional",
        str(described): "agent-requested",
        str(manual): "manual",
        str(empty_globs): "manual",
        str(plain): "not-configured",
    }
    assert explanations(data)[str(empty_globs)].startswith(
        "a manual rule (no globs, no description, not always applied): sent only when you @-mention it"
    )
    assert data["eager"] == [{"placement": "system", "text": f'<rule path="{always}">\nALWAYS\n</rule>'}]
    read = reminders("cursor", write(ws / "web" / "app.ts", "code\n"), ws, home)
    assert loaded(read) == [str(globbed)]
    assert reasons(read) == {}  # rules without globs do not take part in a read


def test_cursor_project_files_follow_the_rules(tree) -> None:
    ws, home = tree
    rule = write(ws / ".cursor" / "rules" / "team" / "core.mdc", header("alwaysApply: true", "CORE\n"))
    files = [write(ws / ".cursorrules", "LEGACY\n"), write(ws / "AGENTS.md", "AGENTS\n"), write(ws / "CLAUDE.md", "CLAUDE\n")]
    write(ws / "pkg" / "AGENTS.md", "NESTED\n")
    data, _ = prompt("cursor", ws, home)
    assert loaded(data) == [str(rule)] + [str(f) for f in files]
    expected = [rule, *files]
    assert text_of(data) == "\n\n".join(f'<rule path="{p}">\n{p.read_text().split("---")[-1].strip()}\n</rule>' for p in expected)


@pytest.mark.parametrize(
    ("globs", "relative", "applies"),
    [
        ("*.ts", "a/b/c.ts", True),  # no slash: any depth
        ("docs/*.md", "docs/guide.md", True),  # a slash: relative to the project root
        ("docs/*.md", "sub/docs/guide.md", False),
        ("**/*.py, *.rs", "src/lib.rs", True),
        ("\n  - src/**\n  - '*.go'", "cmd/main.go", True),  # a YAML list
        ("\n  - src/**\n  - '*.go'", "lib/x.c", False),
    ],
)
def test_cursor_globs(tree, globs: str, relative: str, applies: bool) -> None:
    ws, home = tree
    rule = write(ws / ".cursor" / "rules" / "scoped.mdc", header(f"globs: {globs}", "SCOPED\n"))
    data = reminders("cursor", write(ws / relative, "x\n"), ws, home)
    assert loaded(data) == ([str(rule)] if applies else [])
    assert reasons(data) == ({} if applies else {str(rule): "glob-no-match"})


def test_cursor_nested_agents_md_on_read(tree) -> None:
    ws, home = tree
    write(ws / "AGENTS.md", "ROOT\n")
    outer = write(ws / "pkg" / "AGENTS.md", "PKG\n")
    inner = write(ws / "pkg" / "api" / "AGENTS.md", "API\n")
    write(ws / "web" / "AGENTS.md", "WEB\n")
    target = write(ws / "pkg" / "api" / "src" / "server.ts", "code\n")
    data = reminders("cursor", target, ws, home)
    assert loaded(data) == [str(outer), str(inner)]
    assert data["reminders"] == [
        {
            "placement": "system",
            "text": f'<rule path="{outer}">\nPKG\n</rule>\n\n<rule path="{inner}">\nAPI\n</rule>',
        }
    ]
    again = reminders("cursor", target, ws, home, outer)
    assert loaded(again) == [str(inner)] and reasons(again) == {str(outer): "already-loaded"}
    from_pkg = reminders("cursor", target, ws, home, cwd=ws / "pkg")
    assert loaded(from_pkg) == [str(inner)]  # the launch directory's own file is eager, not on read


def test_cursor_empty_rule_and_files_outside_the_project(tree, tmp_path: Path) -> None:
    ws, home = tree
    empty = write(ws / ".cursor" / "rules" / "empty.mdc", header("alwaysApply: true", "\n"))
    scoped = write(ws / ".cursor" / "rules" / "all.mdc", header("globs: '**'", "ALL\n"))
    data, _ = prompt("cursor", ws, home)
    assert reasons(data) == {str(empty): "empty", str(scoped): "conditional"}
    outside = write(Path(os.path.realpath(tmp_path)) / "elsewhere" / "x.ts", "x\n")
    assert reasons(reminders("cursor", outside, ws, home)) == {str(scoped): "glob-no-match"}


# -- agents.md open spec --------------------------------------------------------------------
def test_agents_md_stacks_from_the_repository_root_to_cwd(tree) -> None:
    ws, home = tree
    write(ws.parent / "AGENTS.md", "ABOVE THE REPOSITORY\n")
    chain = [
        write(ws / "AGENTS.md", "ROOT\n"),
        write(ws / "pkg" / "AGENTS.md", "PKG\n"),
        write(ws / "pkg" / "api" / "AGENTS.md", "API\n"),
    ]
    write(ws / "pkg" / "api" / "deeper" / "AGENTS.md", "BELOW CWD\n")
    data, _ = prompt("agents-md", ws, home, cwd=ws / "pkg" / "api")
    assert loaded(data) == [str(p) for p in chain]  # the closest comes last and wins
    assert data["files"] == [f for f in data["files"] if f["loaded"]]
    assert data["eager"] == [
        {
            "placement": "system",
            "text": "\n\n".join(f"<!-- AGENTS.md: {p} -->\n{p.read_text()}" for p in chain),
        }
    ]


def test_agents_md_without_git_reads_cwd_only(tree) -> None:
    ws, home = tree
    (ws / ".git").rmdir()
    write(ws / "AGENTS.md", "PARENT\n")
    own = write(ws / "app" / "AGENTS.md", "APP\n")
    data, _ = prompt("agents-md", ws, home, cwd=ws / "app")
    assert loaded(data) == [str(own)]


def test_agents_md_on_read(tree, tmp_path: Path) -> None:
    ws, home = tree
    write(ws / "AGENTS.md", "ROOT\n")
    chain = [write(ws / "a" / "AGENTS.md", "A\n"), write(ws / "a" / "b" / "AGENTS.md", "B\n")]
    write(ws / "a" / "b" / "c" / "AGENTS.md", "BELOW THE FILE\n")
    write(ws / "z" / "AGENTS.md", "SIBLING\n")
    target = write(ws / "a" / "b" / "file.py", "x\n")
    data = reminders("agents-md", target, ws, home)
    assert loaded(data) == [str(p) for p in chain]
    assert data["reminders"] == [
        {
            "placement": "tool-result",
            "text": "\n\n".join(f"<!-- AGENTS.md: {p} -->\n{p.read_text()}" for p in chain),
        }
    ]
    again = reminders("agents-md", target, ws, home, chain[0])
    assert reasons(again) == {str(chain[0]): "already-loaded"} and loaded(again) == [str(chain[1])]
    outside = write(Path(os.path.realpath(tmp_path)) / "elsewhere" / "x.py", "x\n")
    assert reminders("agents-md", outside, ws, home)["files"] == []


def test_agents_md_empty_and_unreadable(tree) -> None:
    ws, home = tree
    write(ws / "AGENTS.md", " \n\n")
    (ws / "pkg" / "AGENTS.md").mkdir(parents=True)
    data, _ = prompt("agents-md", ws, home, cwd=ws / "pkg")
    assert data["eager"] == []
    assert reasons(data) == {str(ws / "AGENTS.md"): "empty", str(ws / "pkg" / "AGENTS.md"): "not-regular-file"}


# -- all three in the cascade view ----------------------------------------------------------
def test_cascade_marks_the_documented_models_unverified(tree) -> None:
    ws, home = tree
    write(ws / "AGENTS.md", "ROOT\n")
    rule = write(ws / ".github" / "instructions" / "ts.instructions.md", header('applyTo: "**/*.ts"', "TS\n"))
    nested = write(ws / "pkg" / "AGENTS.md", "PKG\n")
    target = write(ws / "pkg" / "main.ts", "code\n")
    data, _ = lsp_agents("cascade", str(target), "--harness", "all", ws=ws, home=home)
    by_id = {h["harness"]: h for h in data["harnesses"]}
    for harness in ("copilot", "cursor", "agents-md"):
        assert by_id[harness]["verified"] is False
        assert [e["path"] for e in by_id[harness]["eager"]] == [str(ws / "AGENTS.md")]
    assert [e["path"] for e in by_id["copilot"]["on_read"]] == [str(rule)]
    assert [(e["path"], e["role"], e["reason"]) for e in by_id["copilot"]["not_loaded"]] == [
        (str(nested), "project", "listed-only")
    ]
    assert [e["path"] for e in by_id["cursor"]["on_read"]] == [str(nested)]
    assert [e["path"] for e in by_id["agents-md"]["on_read"]] == [str(nested)]
