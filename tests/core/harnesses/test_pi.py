"""pi's model (`lsp_agents/core/harnesses/pi.py`), called directly: per directory from the
filesystem root down to cwd the first of AGENTS.md, AGENTS.MD, CLAUDE.md, CLAUDE.MD that reads;
the global file in the agent directory the same way; every file verbatim under `## <path>`."""

from __future__ import annotations

import pytest
from harness_helpers import text

from lsp_agents.core.harnesses.pi import HEADER
from lsp_agents.core.model import Reason

R = Reason


@pytest.mark.parametrize(
    ("files", "home", "env", "loaded", "not_loaded"),
    [
        pytest.param(
            {"../AGENTS.md": "above the repository\n", "AGENTS.md": "root\n", "pkg/CLAUDE.md": "pkg\n"},
            {},
            {},
            ["../AGENTS.md", "AGENTS.md", "pkg/CLAUDE.md"],
            {},
            id="from-the-filesystem-root-past-the-git-root",
        ),
        pytest.param(
            {"pkg/AGENTS.md": "a\n", "pkg/AGENTS.MD": "b\n", "pkg/CLAUDE.md": "c\n", "pkg/CLAUDE.MD": "d\n"},
            {},
            {},
            ["pkg/AGENTS.md"],
            {"pkg/AGENTS.MD": R.NAME_SHADOWED, "pkg/CLAUDE.md": R.NAME_SHADOWED, "pkg/CLAUDE.MD": R.NAME_SHADOWED},
            id="the-first-name-per-directory",
        ),
        pytest.param(
            {"pkg/AGENTS.md/x": "a directory\n", "pkg/CLAUDE.md": "c\n"},
            {},
            {},
            ["pkg/CLAUDE.md"],
            {"pkg/AGENTS.md": R.NOT_REGULAR_FILE},
            id="a-name-that-does-not-read-passes-to-the-next",
        ),
        pytest.param({"pkg/AGENTS.md": ""}, {}, {}, ["pkg/AGENTS.md"], {}, id="an-empty-file-too"),
        pytest.param(
            {},
            {".pi/agent/AGENTS.md": "mine\n", ".pi/agent/CLAUDE.md": "x\n"},
            {},
            ["~/.pi/agent/AGENTS.md"],
            {"~/.pi/agent/CLAUDE.md": R.NAME_SHADOWED},
            id="the-global-file",
        ),
        pytest.param(
            {}, {"pi/AGENTS.md": "mine\n"}, {"PI_CODING_AGENT_DIR": "~/pi"}, ["~/pi/AGENTS.md"], {}, id="pi-coding-agent-dir"
        ),
    ],
)
def test_eager(workspace, files, home, env, loaded, not_loaded) -> None:
    ws = workspace(files, home)
    cascade = ws.eager("pi", "pkg", env=env)
    assert ws.loaded(cascade) == loaded
    assert ws.not_loaded(cascade) == not_loaded


def test_files_go_verbatim_under_their_path(workspace) -> None:
    ws = workspace({"AGENTS.md": "\nroot  \n"})
    assert text(ws.eager("pi")) == f"{HEADER}## {ws.path('AGENTS.md')}\n\n\nroot  \n\n\n"


def test_nothing_on_read(workspace) -> None:
    ws = workspace({"pkg/AGENTS.md": "pkg\n"})
    assert ws.on_read("pi", "pkg/f.ts").files == []
