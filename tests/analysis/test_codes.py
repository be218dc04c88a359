"""Every finding code: a workspace that triggers it and a clean counterpart that must not, both
checked through `lsp-agents check --format json` as a subprocess."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from lsp_agents.core.analysis.codes import CODES
from analysis_helpers import check_json

LONG = "Run the complete test suite with pytest and the type checker before you open a pull request for review today"


@dataclass
class Case:
    code: str
    harnesses: tuple[str, ...]
    trigger: dict
    clean: dict
    path: str  # where the trigger's finding sits
    home: dict = field(default_factory=dict)
    clean_home: dict | None = None
    id: str = ""


def _chain(depth: int) -> dict:
    files = {"CLAUDE.md": "# root\n\n@c1.md\n"}
    for i in range(1, depth + 1):
        files[f"c{i}.md"] = f"# chain {i}\n\n@c{i + 1}.md\n" if i < depth else f"# chain {i}\n"
    return files


def _wide(count: int) -> dict:
    """A CLAUDE.md importing `count` files of near-identical bullets: every pair is compared."""
    files = {"CLAUDE.md": "# root\n\n" + "".join(f"@w{i}.md\n" for i in range(count))}
    for i in range(count):
        files[f"w{i}.md"] = f"# part {i}\n\n- {LONG} number {i}\n- {LONG} again {i}\n"
    return files


CASES = [
    Case("shadowed-file", ("opencode", "claude-code"),
         {"AGENTS.md": "# A\n- use tabs for indentation everywhere\n", "CLAUDE.md": "# C\n- keep functions short and focused\n"},
         {"AGENTS.md": "# A\n- use tabs for indentation everywhere\n"}, "CLAUDE.md", id="opencode-family"),
    Case("shadowed-file", ("codex", "agents-md"),
         {"AGENTS.md": "# A\n- use tabs for indentation everywhere\n", "AGENTS.override.md": "# O\n- spaces this week, please\n"},
         {"AGENTS.md": "# A\n- use tabs for indentation everywhere\n"}, "AGENTS.md", id="codex-override"),
    Case("unreachable-file", ("claude-code",),
         {"AGENTS.md": "# A\n- use tabs for indentation everywhere\n", "CLAUDE.md": "# C\n- keep functions short and focused\n"},
         {"AGENTS.md": "# A\n- use tabs for indentation everywhere\n", "CLAUDE.md": "# C\n\n@AGENTS.md\n"}, "AGENTS.md"),
    Case("shadowed-section", ("agents-md",),
         {"AGENTS.md": "# Root\n\n## Testing\n\n- run the whole suite with pytest\n",
          "pkg/AGENTS.md": "# Pkg\n\n## Testing\n\n- run only the fast tests in this package\n"},
         {"AGENTS.md": "# Root\n\n## Testing\n\n- run the whole suite with pytest\n",
          "pkg/AGENTS.md": "# Pkg\n\n## Building\n\n- run only the fast tests in this package\n"}, "AGENTS.md"),
    Case("duplicate-instruction", ("agents-md",),
         {"AGENTS.md": "# Root\n\n- never commit generated files to the repository\n",
          "pkg/AGENTS.md": "# Pkg\n\n- Never commit *generated* files to the repository\n"},
         {"AGENTS.md": "# Root\n\n- never commit generated files to the repository\n",
          "pkg/AGENTS.md": "# Pkg\n\n- keep package exports sorted by name\n"}, "pkg/AGENTS.md"),
    Case("duplicate-instruction", ("gemini",),
         {"GEMINI.md": "# G\n\n@AGENTS.md\n", "AGENTS.md": "# A\n- keep functions short and focused\n",
          ".gemini/settings.json": '{"context": {"fileName": ["AGENTS.md", "GEMINI.md"]}}'},
         {"GEMINI.md": "# G\n\nSee the agents file.\n", "AGENTS.md": "# A\n- keep functions short and focused\n",
          ".gemini/settings.json": '{"context": {"fileName": ["AGENTS.md", "GEMINI.md"]}}'}, "GEMINI.md", id="import-of-loaded-file"),
    Case("near-duplicate-instruction", ("agents-md",),
         {"AGENTS.md": f"# Root\n\n- {LONG} now\n", "pkg/AGENTS.md": f"# Pkg\n\n- {LONG} please\n"},
         {"AGENTS.md": f"# Root\n\n- {LONG} now\n", "pkg/AGENTS.md": "# Pkg\n\n- keep package exports sorted by name\n"},
         "pkg/AGENTS.md"),
    Case("duplicate-file", ("copilot",),
         {"AGENTS.md": "# Rules\n- keep functions short and focused\n", "CLAUDE.md": "# Rules\n- keep functions short and focused\n"},
         {"a/AGENTS.md": "# Rules\n- keep functions short and focused\n", "b/AGENTS.md": "# Rules\n- keep functions short and focused\n"},
         "CLAUDE.md"),
    Case("truncated", ("codex",),
         {"AGENTS.md": "# root\n" + "r" * 80 + "\n", "pkg/AGENTS.md": "# pkg\n" + "p" * 60 + "\n"},
         {"AGENTS.md": "# root\n" + "r" * 80 + "\n", "pkg/AGENTS.md": "# pkg\n" + "p" * 60 + "\n"},
         "pkg/AGENTS.md", home={".codex/config.toml": "project_doc_max_bytes = 100\n"}, clean_home={}),
    Case("oversized", ("claude-code",),
         {"CLAUDE.md": "# Big\n\n" + "".join(f"Paragraph {i} says something different.\n\n" for i in range(1200))},
         {"CLAUDE.md": "# Small\n\n- keep functions short and focused\n"}, "CLAUDE.md"),
    Case("import-not-found", ("claude-code",),
         {"CLAUDE.md": "# C\n\n@docs/missing.md\n"}, {"CLAUDE.md": "# C\n\n@docs/style.md\n", "docs/style.md": "# Style\n"}, "CLAUDE.md"),
    Case("import-cycle", ("claude-code",),
         {"CLAUDE.md": "# C\n\n@a.md\n", "a.md": "# A\n\n@b.md\n", "b.md": "# B\n\n@a.md\n"},
         {"CLAUDE.md": "# C\n\n@a.md\n", "a.md": "# A\n\n@b.md\n", "b.md": "# B\n"}, "b.md"),
    Case("import-too-deep", ("claude-code",), _chain(5), _chain(4), "c4.md"),
    Case("import-outside-workspace", ("claude-code",),
         {"CLAUDE.md": "# C\n\n@../home/shared.md\n"}, {"CLAUDE.md": "# C\n\n@docs/shared.md\n", "docs/shared.md": "# S\n"},
         "CLAUDE.md", home={"shared.md": "# shared\n"}),
    Case("import-not-expanded", ("opencode",),
         {"AGENTS.md": "# A\n\n@docs/style.md\n", "docs/style.md": "# Style\n"},
         {"AGENTS.md": "# A\n\nRead docs/style.md for the style guide.\n"}, "AGENTS.md"),
    Case("glob-matches-nothing", ("claude-code",),
         {"CLAUDE.md": "# C\n", ".claude/rules/ts.md": "---\npaths:\n  - \"nothing/**/*.zz\"\n---\n# TS rules\n", "src/a.ts": "x\n"},
         {"CLAUDE.md": "# C\n", ".claude/rules/ts.md": "---\npaths:\n  - \"src/**/*.ts\"\n---\n# TS rules\n", "src/a.ts": "x\n"},
         ".claude/rules/ts.md"),
    Case("invalid-frontmatter", ("cursor",),
         {".cursor/rules/api.mdc": "---\ndescription: API\nalwaysApply: \"true\"\n---\nUse Zod.\n"},
         {".cursor/rules/api.mdc": "---\ndescription: API\nalwaysApply: true\n---\nUse Zod.\n"}, ".cursor/rules/api.mdc",
         id="cursor-string-true"),
    Case("invalid-frontmatter", ("claude-code",),
         {"CLAUDE.md": "# C\n", ".claude/rules/r.md": "---\npaths: [unclosed\n---\n# R\n"},
         {"CLAUDE.md": "# C\n", ".claude/rules/r.md": "---\ndescription: fine\n---\n# R\n"}, ".claude/rules/r.md", id="yaml-error"),
    Case("invalid-frontmatter", ("copilot",),
         {".github/instructions/x.instructions.md": "---\napplyTo: \"**\"\nglobs: \"*.ts\"\n---\nDo X.\n"},
         {".github/instructions/x.instructions.md": "---\napplyTo: \"**\"\nname: X\n---\nDo X.\n"},
         ".github/instructions/x.instructions.md", id="unknown-key"),
    Case("invalid-frontmatter", ("claude-code",),
         {"CLAUDE.md": "# C\n", ".claude/rules/r.md": "---\npaths: \"" + "{a,b}" * 12 + "\"\n---\n# R\n"},
         {"CLAUDE.md": "# C\n", ".claude/rules/r.md": "---\npaths: \"{a,b}/*.md\"\n---\n# R\n", "a/x.md": "x\n"},
         ".claude/rules/r.md", id="glob-out-of-bounds"),
    Case("invalid-config", ("gemini",),
         {"GEMINI.md": "# G\n", ".gemini/settings.json": "{ \"context\": \n"},
         {"GEMINI.md": "# G\n", ".gemini/settings.json": "{\n  // comments are fine\n  \"context\": {}\n}\n"}, ".gemini/settings.json"),
    Case("deprecated-filename", ("opencode",), {"AGENT.md": "# A\n- keep functions short\n"},
         {"AGENTS.md": "# A\n- keep functions short\n"}, "AGENT.md"),
    Case("empty-file", ("codex",), {"AGENTS.md": "# A\n- keep functions short\n", "AGENTS.override.md": "  \n"},
         {"AGENTS.md": "# A\n- keep functions short\n"}, "AGENTS.override.md"),
    Case("unreadable-file", ("agents-md",), {"AGENTS.md": b"# A\n\xff\xfe broken\n"}, {"AGENTS.md": "# A\n- fine\n"}, "AGENTS.md"),
    Case("hidden-unicode", ("agents-md",), {"AGENTS.md": "# A\n\nAlways obey\u200b\u202e the rules.\n"},
         {"AGENTS.md": "\ufeff# A\n\nPair with a dev 👩\u200d💻 daily.\n"}, "AGENTS.md"),
    Case("not-evaluated", ("claude-code",), _wide(3000), _wide(20), "CLAUDE.md"),
    Case("secret", ("agents-md",), {"AGENTS.md": "# A\n\nToken: ghp_Zq8LmN3vR7tY2wX5kP9aB4cD6eF1gH0jK8sT\n"},
         {"AGENTS.md": "# A\n\nExample key: AKIAIOSFODNN7EXAMPLE\n"}, "AGENTS.md"),
]


def _run(workspace, files: dict, home: dict, harnesses: tuple[str, ...]) -> dict:
    ws, home_dir = workspace(files, home)
    args = [a for h in harnesses for a in ("--harness", h)]
    _rc, data = check_json(ws, home_dir, *args, "--fail-on", "never")
    return data


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c.code}{'-' + c.id if c.id else ''}")
def test_trigger(case: Case, workspace) -> None:
    data = _run(workspace, case.trigger, case.home, case.harnesses)
    hits = [f for f in data["findings"] if f["code"] == case.code]
    assert [f["path"] for f in hits if f["path"] == case.path], data["findings"]
    for hit in hits:
        assert hit["severity"] in ("error", "warning", "information", "hint") and hit["message"]


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c.code}{'-' + c.id if c.id else ''}")
def test_clean_counterpart(case: Case, workspace) -> None:
    home = case.home if case.clean_home is None else case.clean_home
    data = _run(workspace, case.clean, home, case.harnesses)
    assert [f for f in data["findings"] if f["code"] == case.code] == []


def test_every_code_has_a_case() -> None:
    assert {c.code for c in CASES} == set(CODES)
