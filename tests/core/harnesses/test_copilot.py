"""GitHub Copilot in VS Code's model (`lsp_agents/core/harnesses/copilot.py`), called directly: every
request attaches the instructions files that apply to everything, then copilot-instructions.md, the
root AGENTS.md and the CLAUDE.md family; the other instructions files and every nested AGENTS.md are
listed for the model to read; on read, the files whose `applyTo` matches (unanchored, any case)."""

from __future__ import annotations

import pytest
from harness_helpers import text

from lsp_agents.core.model import Reason

R = Reason
INSTRUCTIONS = ".github/instructions"


def _instructions(apply_to: str | None) -> str:
    return (f"---\napplyTo: {apply_to}\n---\n" if apply_to is not None else "") + "Follow the rule.\n"


@pytest.mark.parametrize(
    ("files", "home", "loaded", "not_loaded"),
    [
        pytest.param(
            {
                "CLAUDE.local.md": "local\n",
                ".claude/CLAUDE.md": "dot claude\n",
                "CLAUDE.md": "claude\n",
                "AGENTS.md": "agents\n",
                ".github/copilot-instructions.md": "copilot\n",
            },
            {".claude/CLAUDE.md": "mine\n"},
            [
                ".github/copilot-instructions.md",
                "AGENTS.md",
                "CLAUDE.md",
                ".claude/CLAUDE.md",
                "CLAUDE.local.md",
                "~/.claude/CLAUDE.md",
            ],
            {},
            id="the-always-on-files-in-vs-codes-order",
        ),
        pytest.param(
            {"AGENTS.md": "agents\n", f"{INSTRUCTIONS}/all.instructions.md": _instructions('"**"')},
            {},
            [f"{INSTRUCTIONS}/all.instructions.md", "AGENTS.md"],
            {},
            id="instructions-for-everything-come-first",
        ),
        pytest.param(
            {
                f"{INSTRUCTIONS}/ts.instructions.md": _instructions('"**/*.ts"'),
                f"{INSTRUCTIONS}/none.instructions.md": _instructions(None),
                f"{INSTRUCTIONS}/list.instructions.md": _instructions('["**/*.ts"]'),
                f"{INSTRUCTIONS}/plain.md": _instructions('"**"'),
            },
            {},
            [],
            {
                f"{INSTRUCTIONS}/list.instructions.md": R.LISTED_ONLY,
                f"{INSTRUCTIONS}/none.instructions.md": R.LISTED_ONLY,
                f"{INSTRUCTIONS}/plain.md": R.NOT_CONFIGURED,
                f"{INSTRUCTIONS}/ts.instructions.md": R.CONDITIONAL,
            },
            id="applyTo-a-string-or-listed-only-and-instructions-md-files-alone",
        ),
        pytest.param(
            {"AGENTS.md": "root\n", "pkg/AGENTS.md": "pkg\n", "node_modules/dep/AGENTS.md": "dependency\n"},
            {},
            ["AGENTS.md"],
            {"pkg/AGENTS.md": R.LISTED_ONLY},
            id="a-nested-agents-md-is-only-listed",
        ),
        pytest.param(
            {".claude/rules/all.md": "every file\n", ".claude/rules/src.md": '---\npaths: "src/**"\n---\nsrc\n'},
            {},
            [".claude/rules/all.md"],
            {".claude/rules/src.md": R.CONDITIONAL},
            id="claude-rules-read-paths-default-everything",
        ),
        pytest.param(
            {},
            {".copilot/instructions/me.instructions.md": _instructions("'**'"), ".claude/rules/me.md": "mine\n"},
            ["~/.copilot/instructions/me.instructions.md", "~/.claude/rules/me.md"],
            {},
            id="the-users-instructions-and-claude-rules",
        ),
        pytest.param({"AGENTS.md": "\n \n"}, {}, [], {"AGENTS.md": R.EMPTY}, id="a-blank-file"),
    ],
)
def test_eager(workspace, files, home, loaded, not_loaded) -> None:
    ws = workspace(files, home)
    cascade = ws.eager("copilot")
    assert ws.loaded(cascade) == loaded
    assert ws.not_loaded(cascade) == not_loaded


def test_attachments_then_the_listing(workspace) -> None:
    ws = workspace({"AGENTS.md": "\nroot\n\n", "pkg/AGENTS.md": "pkg\n"})
    rendered = text(ws.eager("copilot"))
    root, nested = ws.path("AGENTS.md"), ws.path("pkg/AGENTS.md")
    assert rendered.startswith(f'<attachment filePath="{root}">\nroot\n</attachment>\n<instructions>\n')
    assert (
        f"<instruction>\n<description>Instructions for folder 'pkg'</description>\n<file>{nested}</file>\n</instruction>"
        in rendered
    )


@pytest.mark.parametrize(
    ("apply_to", "target", "loaded", "not_loaded"),
    [
        pytest.param('"src/*.ts"', "pkg/src/a.ts", ["x.instructions.md"], {}, id="a-relative-pattern-matches-anywhere"),
        pytest.param('"**/*.TS"', "src/a.ts", ["x.instructions.md"], {}, id="any-case"),
        pytest.param('"**/*.ts"', "src/a.py", [], {"x.instructions.md": R.GLOB_NO_MATCH}, id="no-match"),
        pytest.param('"**"', "src/a.ts", [], {}, id="attached-already-at-start"),
    ],
)
def test_on_read(workspace, apply_to, target, loaded, not_loaded) -> None:
    ws = workspace({f"{INSTRUCTIONS}/x.instructions.md": _instructions(apply_to)})
    cascade = ws.on_read("copilot", target)
    strip = len(INSTRUCTIONS) + 1
    assert [p[strip:] for p in ws.loaded(cascade)] == loaded
    assert {p[strip:]: r for p, r in ws.not_loaded(cascade).items()} == not_loaded
