"""Cursor's model (`lsp_agents/core/harnesses/cursor.py`), called directly: `.cursor/rules/**/*.mdc`
by the mode its header picks (`alwaysApply: true`, `globs`, a description, neither), then the root
.cursorrules, AGENTS.md and CLAUDE.md; on read, the glob rules matching the read file and, in each
directory from cwd down to it, its nested rules and AGENTS.md."""

from __future__ import annotations

import pytest
from harness_helpers import text

from lsp_agents.core.model import Reason

R = Reason
RULES = ".cursor/rules"


def _rule(header: str) -> str:
    return f"---\n{header}\n---\nThe rule.\n"


@pytest.mark.parametrize(
    ("files", "loaded", "not_loaded"),
    [
        pytest.param(
            {
                "CLAUDE.md": "claude\n",
                "AGENTS.md": "agents\n",
                ".cursorrules": "legacy\n",
                f"{RULES}/a.mdc": _rule("alwaysApply: true"),
            },
            [f"{RULES}/a.mdc", ".cursorrules", "AGENTS.md", "CLAUDE.md"],
            {},
            id="rules-then-the-root-files-in-order",
        ),
        pytest.param(
            {
                f"{RULES}/quoted.mdc": _rule('alwaysApply: "true"'),
                f"{RULES}/globs.mdc": _rule("globs: *.ts"),
                f"{RULES}/described.mdc": _rule("description: Database access"),
                f"{RULES}/manual.mdc": _rule("alwaysApply: false"),
            },
            [],
            {
                f"{RULES}/described.mdc": R.AGENT_REQUESTED,
                f"{RULES}/globs.mdc": R.CONDITIONAL,
                f"{RULES}/manual.mdc": R.MANUAL,
                f"{RULES}/quoted.mdc": R.MANUAL,
            },
            id="a-quoted-true-is-no-boolean-globs-wait-a-description-is-the-agents-call",
        ),
        pytest.param(
            {f"{RULES}/always.mdc": _rule("alwaysApply: true\nglobs: nothing/**"), f"{RULES}/notes.md": "notes\n"},
            [f"{RULES}/always.mdc"],
            {f"{RULES}/notes.md": R.NOT_CONFIGURED},
            id="always-ignores-globs-and-a-plain-md-is-no-rule",
        ),
        pytest.param(
            {
                f"{RULES}/deep/inner.mdc": _rule("alwaysApply: true"),
                "pkg/AGENTS.md": "nested\n",
                "pkg/.cursor/rules/n.mdc": _rule("alwaysApply: true"),
            },
            [f"{RULES}/deep/inner.mdc"],
            {},
            id="rules-in-subfolders-count-nested-files-wait-for-a-read",
        ),
        pytest.param({".cursorrules": "  \n"}, [], {".cursorrules": R.EMPTY}, id="a-blank-file"),
    ],
)
def test_eager(workspace, files, loaded, not_loaded) -> None:
    ws = workspace(files)
    cascade = ws.eager("cursor")
    assert ws.loaded(cascade) == loaded
    assert ws.not_loaded(cascade) == not_loaded


def test_a_rule_is_sent_without_its_header_in_a_neutral_wrapper(workspace) -> None:
    ws = workspace({f"{RULES}/a.mdc": "---\nalwaysApply: true\n---\n\nUse tabs.\n"})
    assert text(ws.eager("cursor")) == f'<rule path="{ws.path(f"{RULES}/a.mdc")}">\nUse tabs.\n</rule>'


@pytest.mark.parametrize(
    ("files", "target", "loaded", "not_loaded"),
    [
        pytest.param(
            {f"{RULES}/ts.mdc": _rule("globs: *.ts")}, "src/deep/a.ts", [f"{RULES}/ts.mdc"], {}, id="no-slash-any-depth"
        ),
        pytest.param(
            {f"{RULES}/src.mdc": _rule("globs: src/*.ts")},
            "lib/src/a.ts",
            [],
            {f"{RULES}/src.mdc": R.GLOB_NO_MATCH},
            id="a-slash-anchors-at-the-root",
        ),
        pytest.param(
            {"pkg/AGENTS.md": "pkg\n", "pkg/.cursor/rules/n.mdc": _rule("alwaysApply: true"), "other/AGENTS.md": "other\n"},
            "pkg/a.ts",
            ["pkg/.cursor/rules/n.mdc", "pkg/AGENTS.md"],
            {},
            id="nested-rules-and-agents-md-of-the-read-files-directories",
        ),
        pytest.param(
            {"pkg/.cursor/rules/ts.mdc": _rule("globs: lib/*.ts")},
            "pkg/lib/a.ts",
            ["pkg/.cursor/rules/ts.mdc"],
            {},
            id="nested-globs-relative-to-their-folder",
        ),
        pytest.param({f"{RULES}/a.mdc": _rule("alwaysApply: true")}, "a.ts", [], {}, id="root-always-rules-came-at-start"),
    ],
)
def test_on_read(workspace, files, target, loaded, not_loaded) -> None:
    ws = workspace(files)
    cascade = ws.on_read("cursor", target)
    assert ws.loaded(cascade) == loaded
    assert ws.not_loaded(cascade) == not_loaded
