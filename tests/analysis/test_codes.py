"""Every finding code: a workspace that triggers it and a clean counterpart that must not, both
checked through `lsp-agents check --format json` as a subprocess."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest
from analysis_helpers import check_json

from lsp_agents.core.analysis.codes import CODES

SECTIONS_ON = '[severity]\n"shadowed-section" = "information"\n'
LITERAL_IMPORTS_ON = '[severity]\n"import-not-expanded" = "information"\n'
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


def _skill(name: str, description: str | None = None, extra: str = "") -> str:
    header = f"name: {name}\n" + (f"description: {description}\n" if description is not None else "") + extra
    return f"---\n{header}---\nDo the {name} steps.\n"


def _skills(count: int, size: int, root: str = ".claude/skills") -> dict:
    """`count` skills whose descriptions take `size` characters, the first one 100 more."""
    return {f"{root}/s{i:02d}/SKILL.md": _skill(f"s{i:02d}", "d" * (size + (100 if i == 0 else 0))) for i in range(count)}


def _wide(count: int) -> dict:
    """A CLAUDE.md importing `count` files of near-identical bullets: every pair is compared."""
    files = {"CLAUDE.md": "# root\n\n" + "".join(f"@w{i}.md\n" for i in range(count))}
    for i in range(count):
        files[f"w{i}.md"] = f"# part {i}\n\n- {LONG} number {i}\n- {LONG} again {i}\n"
    return files


CASES = [
    Case(
        "shadowed-file",
        ("claude-code", "opencode"),
        {
            "CLAUDE.md": "# C\n- keep functions short and focused\n",
            "pkg/AGENTS.md": "# P\n- use tabs for indentation everywhere\n",
        },
        {
            "CLAUDE.md": "# C\n- keep functions short and focused\n",
            "pkg/AGENTS.md": "# P\n- use tabs for indentation everywhere\n",
            "pkg/CLAUDE.md": "@AGENTS.md\n",
        },
        "pkg/AGENTS.md",
        id="claude-nested",
    ),
    Case(
        "shadowed-file",
        ("codex", "agents-md"),
        {"AGENTS.md": "# A\n- use tabs for indentation everywhere\n", "AGENTS.override.md": "# O\n- spaces this week, please\n"},
        {"AGENTS.md": "# A\n- use tabs for indentation everywhere\n"},
        "AGENTS.md",
        id="codex-override",
    ),
    Case(
        "unreachable-file",
        ("claude-code",),
        {"AGENTS.md": "# A\n- use tabs for indentation everywhere\n", "CLAUDE.md": "# C\n- keep functions short and focused\n"},
        {"AGENTS.md": "# A\n- use tabs for indentation everywhere\n", "CLAUDE.md": "# C\n\n@AGENTS.md\n"},
        "AGENTS.md",
    ),
    Case(
        "shadowed-section",
        ("agents-md",),  # off by default: given a severity here
        {
            "AGENTS.md": "# Root\n\n## Testing\n\n- run the whole suite with pytest\n",
            "pkg/AGENTS.md": "# Pkg\n\n## Testing\n\n- run only the fast tests in this package\n",
            "lsp-agents.toml": SECTIONS_ON,
        },
        {
            "AGENTS.md": "# Root\n\n## Testing\n\n- run the whole suite with pytest\n",
            "pkg/AGENTS.md": "# Pkg\n\n## Building\n\n- run only the fast tests in this package\n",
            "lsp-agents.toml": SECTIONS_ON,
        },
        "AGENTS.md",
    ),
    Case(
        "duplicate-instruction",
        ("agents-md",),
        {
            "AGENTS.md": "# Root\n\n- never commit generated files to the repository\n",
            "pkg/AGENTS.md": "# Pkg\n\n- Never commit *generated* files to the repository\n",
        },
        {
            "AGENTS.md": "# Root\n\n- never commit generated files to the repository\n",
            "pkg/AGENTS.md": "# Pkg\n\n- keep package exports sorted by name\n",
        },
        "pkg/AGENTS.md",
    ),
    Case(
        "duplicate-instruction",
        ("gemini",),
        {
            "GEMINI.md": "# G\n\n@AGENTS.md\n",
            "AGENTS.md": "# A\n- keep functions short and focused\n",
            ".gemini/settings.json": '{"context": {"fileName": ["AGENTS.md", "GEMINI.md"]}}',
        },
        {
            "GEMINI.md": "# G\n\nSee the agents file.\n",
            "AGENTS.md": "# A\n- keep functions short and focused\n",
            ".gemini/settings.json": '{"context": {"fileName": ["AGENTS.md", "GEMINI.md"]}}',
        },
        "GEMINI.md",
        id="import-of-loaded-file",
    ),
    Case(
        "near-duplicate-instruction",
        ("agents-md",),
        {"AGENTS.md": f"# Root\n\n- {LONG} now\n", "pkg/AGENTS.md": f"# Pkg\n\n- {LONG} please\n"},
        {"AGENTS.md": f"# Root\n\n- {LONG} now\n", "pkg/AGENTS.md": "# Pkg\n\n- keep package exports sorted by name\n"},
        "pkg/AGENTS.md",
    ),
    Case(
        "duplicate-file",
        ("copilot",),
        {
            "AGENTS.md": "# Rules\n- keep functions short and focused\n",
            "CLAUDE.md": "# Rules\n- keep functions short and focused\n",
        },
        {
            "a/AGENTS.md": "# Rules\n- keep functions short and focused\n",
            "b/AGENTS.md": "# Rules\n- keep functions short and focused\n",
        },
        "CLAUDE.md",
    ),
    Case(
        "truncated",
        ("codex",),
        {"AGENTS.md": "# root\n" + "r" * 80 + "\n", "pkg/AGENTS.md": "# pkg\n" + "p" * 60 + "\n"},
        {"AGENTS.md": "# root\n" + "r" * 80 + "\n", "pkg/AGENTS.md": "# pkg\n" + "p" * 60 + "\n"},
        "pkg/AGENTS.md",
        home={".codex/config.toml": "project_doc_max_bytes = 100\n"},
        clean_home={},
    ),
    Case(
        "oversized",
        ("claude-code",),
        {"CLAUDE.md": "# Big\n\n" + "".join(f"Paragraph {i} says something different.\n\n" for i in range(1200))},
        {"CLAUDE.md": "# Small\n\n- keep functions short and focused\n"},
        "CLAUDE.md",
    ),
    Case(
        "import-not-found",
        ("claude-code",),
        {"CLAUDE.md": "# C\n\n@docs/missing.md\n"},
        {"CLAUDE.md": "# C\n\n@docs/style.md\n", "docs/style.md": "# Style\n"},
        "CLAUDE.md",
    ),
    Case(
        "import-cycle",
        ("claude-code",),
        {"CLAUDE.md": "# C\n\n@a.md\n", "a.md": "# A\n\n@b.md\n", "b.md": "# B\n\n@a.md\n"},
        {"CLAUDE.md": "# C\n\n@a.md\n", "a.md": "# A\n\n@b.md\n", "b.md": "# B\n"},
        "b.md",
    ),
    Case("import-too-deep", ("claude-code",), _chain(5), _chain(4), "c4.md"),
    Case(
        "import-outside-workspace",
        ("claude-code",),
        {"CLAUDE.md": "# C\n\n@../home/shared.md\n"},
        {"CLAUDE.md": "# C\n\n@docs/shared.md\n", "docs/shared.md": "# S\n"},
        "CLAUDE.md",
        home={"shared.md": "# shared\n"},
    ),
    Case(
        "import-not-expanded",
        ("opencode",),  # off by default: given a severity here
        {"AGENTS.md": "# A\n\n@docs/style.md\n", "docs/style.md": "# Style\n", "lsp-agents.toml": LITERAL_IMPORTS_ON},
        {"AGENTS.md": "# A\n\nRead docs/style.md for the style guide.\n", "lsp-agents.toml": LITERAL_IMPORTS_ON},
        "AGENTS.md",
    ),
    Case(
        "glob-matches-nothing",
        ("claude-code",),
        {"CLAUDE.md": "# C\n", ".claude/rules/ts.md": '---\npaths:\n  - "nothing/**/*.zz"\n---\n# TS rules\n', "src/a.ts": "x\n"},
        {"CLAUDE.md": "# C\n", ".claude/rules/ts.md": '---\npaths:\n  - "src/**/*.ts"\n---\n# TS rules\n', "src/a.ts": "x\n"},
        ".claude/rules/ts.md",
    ),
    Case(  # Claude Code matches a rule's paths without regard to case (FINDINGS.md GD-71)
        "glob-matches-nothing",
        ("claude-code",),
        {"CLAUDE.md": "# C\n", ".claude/rules/ts.md": '---\npaths:\n  - "SRC/**/*.TSX"\n---\n# TS rules\n', "src/a.ts": "x\n"},
        {"CLAUDE.md": "# C\n", ".claude/rules/ts.md": '---\npaths:\n  - "SRC/**/*.TS"\n---\n# TS rules\n', "src/a.ts": "x\n"},
        ".claude/rules/ts.md",
        id="claude-case",
    ),
    Case(  # Cursor's globs keep their case
        "glob-matches-nothing",
        ("cursor",),
        {".cursor/rules/ts.mdc": "---\nglobs: SRC/**/*.ts\nalwaysApply: false\n---\nUse TS.\n", "src/a.ts": "x\n"},
        {".cursor/rules/ts.mdc": "---\nglobs: src/**/*.ts\nalwaysApply: false\n---\nUse TS.\n", "src/a.ts": "x\n"},
        ".cursor/rules/ts.mdc",
        id="cursor-case",
    ),
    Case(
        "invalid-frontmatter",
        ("cursor",),
        {".cursor/rules/api.mdc": '---\ndescription: API\nalwaysApply: "true"\n---\nUse Zod.\n'},
        {".cursor/rules/api.mdc": "---\ndescription: API\nalwaysApply: true\n---\nUse Zod.\n"},
        ".cursor/rules/api.mdc",
        id="cursor-string-true",
    ),
    Case(
        "invalid-frontmatter",
        ("claude-code",),
        {"CLAUDE.md": "# C\n", ".claude/rules/r.md": "---\npaths: [unclosed\n---\n# R\n"},
        {"CLAUDE.md": "# C\n", ".claude/rules/r.md": "---\ndescription: fine\n---\n# R\n"},
        ".claude/rules/r.md",
        id="yaml-error",
    ),
    Case(
        "invalid-frontmatter",
        ("copilot",),
        {".github/instructions/x.instructions.md": '---\napplyTo:\n  - "**/*.ts"\n  - "**/*.tsx"\n---\nDo X.\n', "a.ts": "x\n"},
        {".github/instructions/x.instructions.md": '---\napplyTo: "**/*.ts, **/*.tsx"\nname: X\n---\nDo X.\n', "a.ts": "x\n"},
        ".github/instructions/x.instructions.md",
        id="apply-to-list",
    ),
    Case(
        "invalid-frontmatter",
        ("claude-code",),
        {"CLAUDE.md": "# C\n", ".claude/rules/r.md": '---\npaths: "' + "{a,b}" * 12 + '"\n---\n# R\n'},
        {"CLAUDE.md": "# C\n", ".claude/rules/r.md": '---\npaths: "{a,b}/*.md"\n---\n# R\n', "a/x.md": "x\n"},
        ".claude/rules/r.md",
        id="glob-out-of-bounds",
    ),
    Case(
        "missing-apply-to",
        ("copilot",),
        {".github/instructions/py.instructions.md": "---\ndescription: Python\n---\n# Python\n"},
        {
            ".github/instructions/py.instructions.md": "---\ndescription: Python\napplyTo: '**/*.py'\n---\n# Python\n",
            "a.py": "x\n",
        },
        ".github/instructions/py.instructions.md",
    ),
    Case(
        "invalid-config",
        ("gemini",),
        {"GEMINI.md": "# G\n", ".gemini/settings.json": '{ "context": \n'},
        {"GEMINI.md": "# G\n", ".gemini/settings.json": '{\n  // comments are fine\n  "context": {}\n}\n'},
        ".gemini/settings.json",
    ),
    Case(
        "deprecated-filename",
        ("opencode",),
        {"AGENT.md": "# A\n- keep functions short\n"},
        {"AGENTS.md": "# A\n- keep functions short\n"},
        "AGENT.md",
    ),
    Case(
        "empty-file",
        ("codex",),
        {"AGENTS.md": "# A\n- keep functions short\n", "AGENTS.override.md": "  \n"},
        {"AGENTS.md": "# A\n- keep functions short\n"},
        "AGENTS.override.md",
    ),
    Case(
        "path-only-file",
        ("copilot",),
        {".github/copilot-instructions.md": "../.ai/rules/general.md", ".ai/rules/general.md": "# General\n"},
        {".github/copilot-instructions.md": "Read ../.ai/rules/general.md first.\n", ".ai/rules/general.md": "# General\n"},
        ".github/copilot-instructions.md",
    ),
    Case(
        "unreadable-file", ("agents-md",), {"AGENTS.md": b"# A\n\xff\xfe broken\n"}, {"AGENTS.md": "# A\n- fine\n"}, "AGENTS.md"
    ),
    Case(
        "hidden-unicode",
        ("agents-md",),
        {"AGENTS.md": "# A\n\nAlways obey\u200b\u202e the rules.\n"},
        {"AGENTS.md": "\ufeff# A\n\nPair with a dev 👩\u200d💻 daily.\n"},
        "AGENTS.md",
    ),
    Case("not-evaluated", ("claude-code",), _wide(3000), _wide(20), "CLAUDE.md"),
    Case(
        "secret",
        ("agents-md",),
        {"AGENTS.md": "# A\n\nToken: ghp_Zq8LmN3vR7tY2wX5kP9aB4cD6eF1gH0jK8sT\n"},
        {"AGENTS.md": "# A\n\nExample key: AKIAIOSFODNN7EXAMPLE\n"},
        "AGENTS.md",
    ),
    Case(
        "invalid-definition",
        ("codex",),
        {"AGENTS.md": "# A\n", ".agents/skills/fmt/SKILL.md": _skill("fmt")},
        {"AGENTS.md": "# A\n", ".agents/skills/fmt/SKILL.md": _skill("fmt", "Formats the code")},
        ".agents/skills/fmt/SKILL.md",
        id="codex-no-description",
    ),
    Case(
        "invalid-definition",
        ("claude-code",),
        {"CLAUDE.md": "# C\n", ".claude/agents/rev.md": "---\ndescription: Reviews diffs\n---\nYou review.\n"},
        {"CLAUDE.md": "# C\n", ".claude/agents/rev.md": "---\nname: rev\ndescription: Reviews diffs\n---\nYou review.\n"},
        ".claude/agents/rev.md",
        id="claude-agent-without-name",
    ),
    Case(
        "duplicate-definition",
        ("gemini",),
        {
            "GEMINI.md": "# G\n",
            ".gemini/skills/a/SKILL.md": _skill("fmt", "one"),
            ".agents/skills/b/SKILL.md": _skill("fmt", "two"),
        },
        {
            "GEMINI.md": "# G\n",
            ".gemini/skills/a/SKILL.md": _skill("fmt", "one"),
            ".agents/skills/b/SKILL.md": _skill("lint", "two"),
        },
        ".gemini/skills/a/SKILL.md",
    ),
    Case(
        "skill-description-too-long",
        ("claude-code",),
        {"CLAUDE.md": "# C\n", ".claude/skills/fmt/SKILL.md": _skill("fmt", "x" * 1600)},
        {"CLAUDE.md": "# C\n", ".claude/skills/fmt/SKILL.md": _skill("fmt", "x" * 1500)},
        ".claude/skills/fmt/SKILL.md",
    ),
    Case(
        "skills-over-budget",
        ("claude-code",),
        {"CLAUDE.md": "# C\n", **_skills(30, 300)},
        {"CLAUDE.md": "# C\n", **_skills(20, 300)},
        ".claude/skills/s00/SKILL.md",
        id="claude",
    ),
    Case(
        "skills-over-budget",
        ("codex",),
        {"AGENTS.md": "# A\n", **_skills(60, 400, ".agents/skills")},
        {"AGENTS.md": "# A\n", **_skills(45, 400, ".agents/skills")},
        ".agents/skills/s00/SKILL.md",
        id="codex",
    ),
    Case(
        "skill-name-mismatch",
        ("claude-code", "opencode"),
        {"CLAUDE.md": "# C\n", ".claude/skills/fmt/SKILL.md": _skill("format", "Formats the code")},
        {"CLAUDE.md": "# C\n", ".claude/skills/fmt/SKILL.md": _skill("fmt", "Formats the code")},
        ".claude/skills/fmt/SKILL.md",
    ),
    Case(
        "missing-prompt-file",
        ("opencode",),
        {"AGENTS.md": "# A\n", "opencode.json": '{"agent": {"rev": {"prompt": "{file:./prompts/rev.md}"}}}'},
        {
            "AGENTS.md": "# A\n",
            "opencode.json": '{"agent": {"rev": {"prompt": "{file:./prompts/rev.md}"}}}',
            "prompts/rev.md": "You review.\n",
        },
        "opencode.json",
    ),
    Case(
        "manual-skill-listed",
        ("codex",),
        {"AGENTS.md": "# A\n", ".agents/skills/rel/SKILL.md": _skill("rel", "Releases", "disable-model-invocation: true\n")},
        {
            "AGENTS.md": "# A\n",
            ".agents/skills/rel/SKILL.md": _skill("rel", "Releases", "disable-model-invocation: true\n"),
            ".agents/skills/rel/agents/openai.yaml": "policy:\n  allow_implicit_invocation: false\n",
        },
        ".agents/skills/rel/SKILL.md",
    ),
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
