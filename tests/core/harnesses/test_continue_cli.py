"""Continue CLI's model (`lsp_agents/core/harnesses/continue_cli.py`), called directly: the first of
AGENTS.md, AGENT.md, CLAUDE.md, CODEX.md in cwd, nothing above; the config's `rules`, then the rule
files of cwd's `.continue/rules` and the global folder's that apply always; one `userRules` block."""

from __future__ import annotations

import pytest
from harness_helpers import text

from lsp_agents.core.model import Reason

R = Reason
RULES = ".continue/rules"


@pytest.mark.parametrize(
    ("files", "home", "env", "loaded", "not_loaded"),
    [
        pytest.param(
            {"AGENTS.md": "root\n", "pkg/CODEX.md": "codex\n", "pkg/AGENT.md": "agent\n", "pkg/CLAUDE.md": "claude\n"},
            {},
            {},
            ["pkg/AGENT.md"],
            {"pkg/CLAUDE.md": R.NAME_SHADOWED, "pkg/CODEX.md": R.NAME_SHADOWED},
            id="the-first-agent-file-of-cwd-nothing-above",
        ),
        pytest.param(
            {"pkg/AGENTS.md/x": "a directory\n", "pkg/CLAUDE.md": "claude\n"},
            {},
            {},
            [],
            {"pkg/AGENTS.md": R.NOT_REGULAR_FILE},
            id="an-unreadable-first-silences-the-rest",
        ),
        pytest.param(
            {
                f"pkg/{RULES}/plain.md": "Plain.\n",
                f"pkg/{RULES}/always.md": "---\nalwaysApply: true\nglobs: src/**\n---\nAlways.\n",
                f"pkg/{RULES}/globs.md": "---\nglobs: src/**\n---\nGlobs.\n",
                f"pkg/{RULES}/never.md": "---\nalwaysApply: false\n---\nNever.\n",
                f"pkg/{RULES}/invokable.md": "---\ninvokable: true\n---\nOn demand.\n",
                f"pkg/{RULES}/blank.md": "---\nname: x\n---\n\n",
            },
            {},
            {},
            [f"pkg/{RULES}/always.md", f"pkg/{RULES}/plain.md"],
            {
                f"pkg/{RULES}/blank.md": R.EMPTY,
                f"pkg/{RULES}/globs.md": R.NOT_ALWAYS_APPLIED,
                f"pkg/{RULES}/invokable.md": R.MANUAL,
                f"pkg/{RULES}/never.md": R.NOT_ALWAYS_APPLIED,
            },
            id="rules-that-apply-always",
        ),
        pytest.param(
            {f"pkg/{RULES}/copy.md": "---\nalwaysApply: true\n---\nUse pnpm.\n", f"pkg/{RULES}/nested/deep.md": "Deep.\n"},
            {".continue/config.yaml": "rules:\n  - Use pnpm.\n  - rule: Other.\n", ".continue/rules/mine.md": "Mine.\n"},
            {},
            [f"pkg/{RULES}/nested/deep.md", "~/.continue/rules/mine.md"],
            {f"pkg/{RULES}/copy.md": R.DUPLICATE_PATH},
            id="a-copy-of-a-config-rule-dropped-subfolders-read-global-last",
        ),
        pytest.param(
            {},
            {"g/rules/mine.md": "Mine.\n"},
            {"CONTINUE_GLOBAL_DIR": "~/g"},
            ["~/g/rules/mine.md"],
            {},
            id="continue-global-dir",
        ),
        pytest.param({"pkg/AGENTS.md": ""}, {}, {}, [], {"pkg/AGENTS.md": R.EMPTY}, id="an-empty-agent-file"),
    ],
)
def test_eager(workspace, files, home, env, loaded, not_loaded) -> None:
    ws = workspace(files, home)
    cascade = ws.eager("continue", "pkg", env=env)
    assert ws.loaded(cascade) == loaded
    assert ws.not_loaded(cascade) == not_loaded


def test_one_user_rules_block_agent_file_then_config_rules_then_rule_files(workspace) -> None:
    ws = workspace(
        {"AGENTS.md": "Agent.\n", f"{RULES}/r.md": "---\nalwaysApply: true\n---\n\n File rule. \n"},
        {".continue/config.yaml": "rules:\n  - Config rule.\n"},
    )
    assert text(ws.eager("continue")) == '<context name="userRules">\nAgent.\n\n\nConfig rule.\n\nFile rule.\n</context>'


def test_nothing_on_read(workspace) -> None:
    ws = workspace({"pkg/AGENTS.md": "pkg\n"})
    assert ws.on_read("continue", "pkg/f.ts").files == []
