"""Cline CLI's model (`lsp_agents/core/harnesses/cline.py`), called directly: cwd's `.clinerules`
(a folder's own rule files and AGENTS.md, or one file) and AGENTS.md, ~/.agents/AGENTS.md and the
user's rule folders, nothing above cwd; one rule per name; frontmatter dropped (`name:` renames,
`disabled`/`enabled` turn off); sorted by name under `# Rules`."""

from __future__ import annotations

import os

import pytest
from harness_helpers import text

from lsp_agents.core.model import Reason

R = Reason


@pytest.mark.parametrize(
    ("files", "home", "loaded", "not_loaded"),
    [
        pytest.param(
            {"AGENTS.md": "root\n", "pkg/AGENTS.md": "pkg\n", "pkg/.clinerules": "single file\n"},
            {},
            ["pkg/.clinerules", "pkg/AGENTS.md"],
            {},
            id="cwds-rules-file-and-agents-md-nothing-above",
        ),
        pytest.param(
            {
                "pkg/.clinerules/a.md": "a\n",
                "pkg/.clinerules/b.markdown": "b\n",
                "pkg/.clinerules/c.txt": "c\n",
                "pkg/.clinerules/d.json": "{}\n",
                "pkg/.clinerules/sub/e.md": "e\n",
            },
            {},
            ["pkg/.clinerules/a.md", "pkg/.clinerules/b.markdown", "pkg/.clinerules/c.txt"],
            {},
            id="a-folders-own-md-markdown-and-txt-files",
        ),
        pytest.param(
            {
                "pkg/.clinerules/off.md": "---\ndisabled: true\n---\noff\n",
                "pkg/.clinerules/no.md": "---\nenabled: false\n---\nno\n",
                "pkg/.clinerules/bad.md": "---\n: [\n---\nbad header\n",
                "pkg/.clinerules/blank.md": "---\nname: Blank\n---\n  \n",
            },
            {},
            [],
            {
                "pkg/.clinerules/bad.md": R.INVALID_HEADER,
                "pkg/.clinerules/blank.md": R.EMPTY,
                "pkg/.clinerules/no.md": R.DISABLED,
                "pkg/.clinerules/off.md": R.DISABLED,
            },
            id="disabled-invalid-header-or-blank",
        ),
        pytest.param(
            {"pkg/AGENTS.md": "workspace\n"},
            {
                ".agents/AGENTS.md": "global\n",
                ".cline/rules/a.md": "a\n",
                "Documents/Cline/Rules/b.md": "b\n",
                "Cline/Rules/c.md": "c\n",
            },
            ["~/.cline/rules/a.md", "~/Documents/Cline/Rules/b.md", "~/Cline/Rules/c.md", "~/.agents/AGENTS.md", "pkg/AGENTS.md"],
            {},
            id="the-users-rule-folders-and-global-agents-md",
        ),
    ],
)
def test_eager(workspace, files, home, loaded, not_loaded) -> None:
    ws = workspace(files, home)
    cascade = ws.eager("cline", "pkg")
    assert sorted(ws.loaded(cascade)) == sorted(loaded)  # the order sent is by name: see the text test
    assert ws.not_loaded(cascade) == not_loaded


def test_one_rule_per_name_any_case_the_last_listed_wins(workspace) -> None:
    """`loadDefinition` keeps the last file of a name in the folder's (unsorted) listing (GD-31)."""
    ws = workspace({"pkg/.clinerules/style.md": "md\n", "pkg/.clinerules/Style.txt": "txt\n"})
    folder = ws.ws / "pkg" / ".clinerules"
    first, last = (f"pkg/.clinerules/{name}" for name in os.listdir(folder))
    cascade = ws.eager("cline", "pkg")
    assert ws.loaded(cascade) == [last]
    assert ws.not_loaded(cascade) == {first: R.NAME_SHADOWED}


def test_rules_sorted_by_name_frontmatter_dropped_bodies_trimmed(workspace) -> None:
    ws = workspace(
        {
            "AGENTS.md": "\n workspace \n",
            ".clinerules/zeta.md": "---\nname: alpha\n---\n\nrenamed\n",
            ".clinerules/beta.txt": "beta\n",
        }
    )
    assert text(ws.eager("cline")) == "# Rules\n## alpha\nrenamed\n\n## beta\nbeta\n\n## Workspace AGENTS.md\nworkspace"


def test_nothing_on_read(workspace) -> None:
    ws = workspace({".clinerules": "rule\n"})
    assert ws.on_read("cline", "f.ts").files == []
