"""The agents.md open spec's model (`lsp_agents/core/harnesses/agents_md.py`), called directly:
"the closest AGENTS.md wins" as an order, every AGENTS.md from the repository root (else the
launch directory alone) down to cwd, root first; on read, those below cwd down to the read file."""

from __future__ import annotations

import pytest
from harness_helpers import text

from lsp_agents.core.model import Reason

R = Reason


@pytest.mark.parametrize(
    ("files", "git", "loaded", "not_loaded"),
    [
        pytest.param(
            {"AGENTS.md": "root\n", "pkg/AGENTS.md": "pkg\n"},
            True,
            ["AGENTS.md", "pkg/AGENTS.md"],
            {},
            id="root-first-closest-last",
        ),
        pytest.param({"AGENTS.md": "root\n", "pkg/AGENTS.md": "pkg\n"}, False, ["pkg/AGENTS.md"], {}, id="no-git-cwd-alone"),
        pytest.param(
            {"pkg/sub/AGENTS.md": "below\n", "pkg/CLAUDE.md": "claude\n"}, True, [], {}, id="agents-md-only-nothing-below"
        ),
        pytest.param(
            {"AGENTS.md": "\n", "pkg/AGENTS.md": "pkg\n"}, True, ["pkg/AGENTS.md"], {"AGENTS.md": R.EMPTY}, id="a-blank-file"
        ),
    ],
)
def test_eager(workspace, files, git, loaded, not_loaded) -> None:
    ws = workspace(files, git=git)
    cascade = ws.eager("agents-md", "pkg")
    assert ws.loaded(cascade) == loaded
    assert ws.not_loaded(cascade) == not_loaded


def test_each_file_under_a_comment_naming_it(workspace) -> None:
    ws = workspace({"AGENTS.md": "root\n", "pkg/AGENTS.md": "pkg\n"})
    assert (
        text(ws.eager("agents-md", "pkg"))
        == f"<!-- AGENTS.md: {ws.path('AGENTS.md')} -->\nroot\n\n\n<!-- AGENTS.md: {ws.path('pkg/AGENTS.md')} -->\npkg\n"
    )


@pytest.mark.parametrize(
    ("loaded_before", "loaded", "not_loaded"),
    [
        pytest.param([], ["a/AGENTS.md", "a/b/AGENTS.md"], {}, id="below-cwd-root-first"),
        pytest.param(["a/AGENTS.md"], ["a/b/AGENTS.md"], {"a/AGENTS.md": R.ALREADY_LOADED}, id="not-twice"),
    ],
)
def test_on_read(workspace, loaded_before, loaded, not_loaded) -> None:
    ws = workspace({"AGENTS.md": "root\n", "a/AGENTS.md": "a\n", "a/b/AGENTS.md": "b\n"})
    cascade = ws.on_read("agents-md", "a/b/f.ts", loaded=loaded_before)
    assert ws.loaded(cascade) == loaded
    assert ws.not_loaded(cascade) == not_loaded
