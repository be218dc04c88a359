"""GitHub Copilot CLI's model (`lsp_agents/core/harnesses/copilot_cli.py`), called directly: the
user's copilot-instructions.md, then for the git root and each directory from cwd up (nearest first)
its copilot-instructions.md, AGENTS.md, CLAUDE.md and GEMINI.md in any case, each text once; the
instructions files of the root and of cwd that apply always, a table of the others; on read, the
matching instructions files and the files of the directories from the read file up, escaped."""

from __future__ import annotations

import pytest
from harness_helpers import text

from lsp_agents.core.model import Reason

R = Reason
INSTRUCTIONS = ".github/instructions"


def _instructions(header: str) -> str:
    return f"---\n{header}\n---\nFollow the rule.\n"


@pytest.mark.parametrize(
    ("files", "home", "env", "loaded", "not_loaded"),
    [
        pytest.param(
            {"AGENTS.md": "root\n", "a/AGENTS.md": "a\n", "a/b/AGENTS.md": "b\n", "a/b/GEMINI.md": "gemini\n"},
            {".copilot/copilot-instructions.md": "mine\n"},
            {},
            ["~/.copilot/copilot-instructions.md", "AGENTS.md", "a/b/AGENTS.md", "a/b/GEMINI.md", "a/AGENTS.md"],
            {},
            id="user-root-then-cwd-up-nearest-first",
        ),
        pytest.param(
            {".github/copilot-instructions.md": "copilot\n", "claude.MD": "claude\n", "Agents.md": "agents\n"},
            {},
            {},
            [".github/copilot-instructions.md", "Agents.md", "claude.MD"],
            {},
            id="names-in-any-case",
        ),
        pytest.param(
            {"AGENTS.md": "same\n", "CLAUDE.md": "same\n"},
            {},
            {},
            ["AGENTS.md"],
            {"CLAUDE.md": R.DUPLICATE_PATH},
            id="each-text-once",
        ),
        pytest.param(
            {"AGENTS.md": "See @docs/setup.md\n", "docs/setup.md": "setup\n"},
            {},
            {},
            ["AGENTS.md", "docs/setup.md"],
            {},
            id="imports-inlined",
        ),
        pytest.param(
            {
                f"{INSTRUCTIONS}/none.instructions.md": "No header.\n",
                f"{INSTRUCTIONS}/all.instructions.md": _instructions('applyTo: "*, **"'),
                f"{INSTRUCTIONS}/ts.instructions.md": _instructions('applyTo: "**/*.ts"'),
                f"{INSTRUCTIONS}/alias.instructions.md": _instructions("applyTo: **/*.py"),
                f"{INSTRUCTIONS}/review.instructions.md": _instructions("excludeAgent: coding-agent"),
            },
            {},
            {},
            [f"{INSTRUCTIONS}/all.instructions.md", f"{INSTRUCTIONS}/none.instructions.md"],
            {f"{INSTRUCTIONS}/alias.instructions.md": R.CONDITIONAL, f"{INSTRUCTIONS}/ts.instructions.md": R.CONDITIONAL},
            id="always-sent-others-listed-yaml-alias-read-by-line-coding-agent-excluded",
        ),
        pytest.param(
            {
                f"a/{INSTRUCTIONS}/between.instructions.md": "between\n",
                f"a/b/{INSTRUCTIONS}/cwd.instructions.md": "cwd\n",
            },
            {},
            {},
            [f"a/b/{INSTRUCTIONS}/cwd.instructions.md"],
            {},
            id="instructions-of-the-root-and-cwd-not-between",
        ),
        pytest.param(
            {},
            {"ch/copilot-instructions.md": "mine\n"},
            {"COPILOT_HOME": "~/ch"},
            ["~/ch/copilot-instructions.md"],
            {},
            id="copilot-home",
        ),
    ],
)
def test_eager(workspace, files, home, env, loaded, not_loaded) -> None:
    ws = workspace(files, home)
    cascade = ws.eager("copilot-cli", "a/b", env=env)
    assert ws.loaded(cascade) == loaded
    assert ws.not_loaded(cascade) == not_loaded


def test_files_in_custom_instruction_blocks_then_the_table(workspace) -> None:
    ws = workspace(
        {
            "AGENTS.md": "root\n",
            f"{INSTRUCTIONS}/ts.instructions.md": _instructions('applyTo: "**/*.ts"\ndescription: TypeScript'),
        }
    )
    rendered = text(ws.eager("copilot-cli"))
    assert rendered.startswith("<custom_instruction>\nroot\n\n</custom_instruction>\n\nHere is a list of instruction files")
    assert rendered.endswith(f"| **/*.ts | '{INSTRUCTIONS}/ts.instructions.md' | TypeScript |")


@pytest.mark.parametrize(
    ("files", "target", "loaded", "not_loaded"),
    [
        pytest.param(
            {"AGENTS.md": "root\n", "a/AGENTS.md": "a\n", "a/b/AGENTS.md": "b\n"},
            "a/b/f.ts",
            ["a/b/AGENTS.md", "a/AGENTS.md"],
            {},
            id="the-read-files-directories-nearest-first",
        ),
        pytest.param(
            {f"{INSTRUCTIONS}/ts.instructions.md": _instructions('applyTo: "*.ts"')},
            "src/deep/f.ts",
            [f"{INSTRUCTIONS}/ts.instructions.md"],
            {},
            id="no-slash-matches-at-any-depth",
        ),
        pytest.param(
            {f"{INSTRUCTIONS}/src.instructions.md": _instructions('applyTo: "src/*.ts"')},
            "lib/src/f.ts",
            [],
            {},
            id="a-slash-anchors-at-the-root",
        ),
        pytest.param(
            {f"a/{INSTRUCTIONS}/x.instructions.md": "always\n"},
            "a/f.ts",
            [f"a/{INSTRUCTIONS}/x.instructions.md"],
            {},
            id="nested-always",
        ),
    ],
)
def test_on_read(workspace, files, target, loaded, not_loaded) -> None:
    ws = workspace(files)
    cascade = ws.on_read("copilot-cli", target)
    assert ws.loaded(cascade) == loaded
    assert ws.not_loaded(cascade) == not_loaded


def test_a_read_reminder_is_html_escaped_and_names_its_file(workspace) -> None:
    ws = workspace({"a/AGENTS.md": "Use <b> & 'x'\n"})
    assert text(ws.on_read("copilot-cli", "a/f.ts")) == (
        "\n<system_reminder>\nCustom instructions from a/AGENTS.md. Apply these to any code you write here:\n\n"
        "Use &lt;b&gt; &amp; &apos;x&apos;\n\n</system_reminder>"
    )
