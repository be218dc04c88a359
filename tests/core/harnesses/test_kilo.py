"""Kilo Code CLI's model (`lsp_agents/core/harnesses/kilo.py`, a fork of `opencode.py`), called
directly: opencode's rules under Kilo's names, `$KILO_CONFIG_DIR/AGENTS.md` first, no walk above cwd
without git; then the user's and cwd's rule folders (one file per name across each pair), the legacy
.kilocoderules and the mode folders; `{file:…}` filled in, a project file asking for `{env:…}` dropped."""

from __future__ import annotations

import pytest
from harness_helpers import text

from lsp_agents.core.model import Reason

R = Reason


@pytest.mark.parametrize(
    ("files", "home", "env", "loaded", "not_loaded"),
    [
        pytest.param(
            {"AGENTS.md": "root\n", "pkg/CLAUDE.md": "claude\n"},
            {},
            {},
            ["AGENTS.md"],
            {"pkg/CLAUDE.md": R.FAMILY_SHADOWED},
            id="opencodes-family-rule",
        ),
        pytest.param(
            {
                "pkg/AGENTS.md": "pkg\n",
                "pkg/.kilocode/rules/r.md": "same name, second folder\n",
                "pkg/.kilo/rules/r.md": "rule\n",
                "pkg/.kilo/rules/notes.txt": "not markdown\n",
                "pkg/.kilocoderules": "legacy\n",
                "pkg/.kilocode/rules-code/m.md": "code mode\n",
                "pkg/.kilocoderules-ask": "ask mode\n",
            },
            {".kilocode/rules/u.md": "user rule\n"},
            {},
            [
                "pkg/AGENTS.md",
                "~/.kilocode/rules/u.md",
                "pkg/.kilo/rules/r.md",
                "pkg/.kilocoderules",
                "pkg/.kilocode/rules-code/m.md",
                "pkg/.kilocoderules-ask",
            ],
            {},
            id="rule-folders-after-the-project-files-one-per-name",
        ),
        pytest.param(
            {},
            {"kc/AGENTS.md": "config dir\n", ".config/kilo/AGENTS.md": "default\n"},
            {"KILO_CONFIG_DIR": "~/kc"},
            ["~/kc/AGENTS.md"],
            {"~/.config/kilo/AGENTS.md": R.GLOBAL_SHADOWED},
            id="kilo-config-dir-before-the-default-global-file",
        ),
        pytest.param(
            {"pkg/AGENTS.md": "Token: {env:TOKEN}\n"},
            {".config/kilo/AGENTS.md": "Mine: {env:TOKEN}\n"},
            {"TOKEN": "t"},
            ["~/.config/kilo/AGENTS.md"],
            {"pkg/AGENTS.md": R.SUBSTITUTION_REFUSED},
            id="a-project-file-asking-for-env-is-dropped",
        ),
        pytest.param(
            {"pkg/AGENTS.md": "pkg\n", "kilo.json": '{"instructions": ["docs/*.md"]}', "pkg/docs/a.md": "a\n"},
            {},
            {},
            ["pkg/AGENTS.md", "pkg/docs/a.md"],
            {},
            id="kilo-json-instructions",
        ),
    ],
)
def test_eager(workspace, files, home, env, loaded, not_loaded) -> None:
    ws = workspace(files, home)
    cascade = ws.eager("kilo", "pkg", env=env)
    assert ws.loaded(cascade) == loaded
    assert ws.not_loaded(cascade) == not_loaded


def test_without_git_no_walk_above_cwd(workspace) -> None:
    ws = workspace({"AGENTS.md": "root\n", "pkg/AGENTS.md": "pkg\n"}, git=False)
    cascade = ws.eager("kilo", "pkg")
    assert ws.loaded(cascade) == ["pkg/AGENTS.md"]
    assert ws.not_loaded(cascade) == {"AGENTS.md": R.OUTSIDE_BOUNDARY}


def test_a_project_file_linking_out_of_the_worktree_is_not_read(workspace) -> None:
    ws = workspace({"../shared.md": "shared\n"})
    (ws.ws / "AGENTS.md").symlink_to(ws.ws.parent / "shared.md")
    cascade = ws.eager("kilo")
    assert ws.not_loaded(cascade) == {"AGENTS.md": R.OUTSIDE_BOUNDARY}


def test_file_references_are_filled_in_and_global_env_values_too(workspace) -> None:
    ws = workspace(
        {"AGENTS.md": "See {file:docs/a.md}{file:missing.md}.\n", "docs/a.md": "\n the guide \n"},
        {".config/kilo/AGENTS.md": "Hi {env:NAME}\n"},
    )
    rendered = text(ws.eager("kilo", env={"NAME": "Ada"}))
    assert "Hi Ada\n" in rendered
    assert "See the guide.\n" in rendered
