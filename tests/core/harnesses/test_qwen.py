"""Qwen Code's model (`lsp_agents/core/harnesses/qwen.py`), called directly: for each context file
name (QWEN.md, then AGENTS.md) the global file then that name from the git root's parent down to
cwd; then the git root's `.qwen/QWEN.local.md` and the rules without `paths:`; headers name paths
from cwd (rules from the root); on read, the rules whose `paths:` match, once per session."""

from __future__ import annotations

import json

import pytest
from harness_helpers import text

from lsp_agents.core.model import Reason

R = Reason
SRC_RULE = "---\npaths:\n  - src/**\n---\nSource rule.\n"


@pytest.mark.parametrize(
    ("files", "home", "loaded", "not_loaded"),
    [
        pytest.param(
            {"AGENTS.md": "agents\n", "pkg/QWEN.md": "pkg\n", "QWEN.md": "root\n", "pkg/sub/QWEN.md": "below cwd\n"},
            {},
            ["QWEN.md", "pkg/QWEN.md", "AGENTS.md"],
            {},
            id="one-name-at-a-time-root-first-nothing-below-cwd",
        ),
        pytest.param(
            {"QWEN.md": "root\n", "AGENTS.md": "agents\n"},
            {".qwen/QWEN.md": "mine\n", ".qwen/AGENTS.md": "my agents\n"},
            ["~/.qwen/QWEN.md", "QWEN.md", "~/.qwen/AGENTS.md", "AGENTS.md"],
            {},
            id="each-names-global-file-first",
        ),
        pytest.param(
            {"../QWEN.md": "above\n", "QWEN.md": "root\n"}, {}, ["../QWEN.md", "QWEN.md"], {}, id="from-the-git-roots-parent"
        ),
        pytest.param(
            {
                "QWEN.md": "root\n",
                "CUSTOM.md": "custom\n",
                "pkg/.qwen/settings.json": json.dumps({"context": {"fileName": "CUSTOM.md"}}),
            },
            {},
            ["CUSTOM.md"],
            {},
            id="context-file-name-from-the-launch-directorys-settings",
        ),
        pytest.param(
            {
                ".qwen/rules/b.md": SRC_RULE,
                ".qwen/rules/a.md": "Always.\n",
                ".qwen/rules/c.md": "<!-- a note only -->\n",
                ".qwen/QWEN.local.md": "local\n",
                "QWEN.md": "root\n",
            },
            {".qwen/rules/mine.md": "Mine.\n"},
            ["QWEN.md", ".qwen/QWEN.local.md", "~/.qwen/rules/mine.md", ".qwen/rules/a.md"],
            {".qwen/rules/b.md": R.CONDITIONAL, ".qwen/rules/c.md": R.EMPTY},
            id="local-file-then-user-rules-then-the-roots",
        ),
        pytest.param(
            {"QWEN.md": "root\n"},
            {".qwen/settings.json": json.dumps({"security": {"folderTrust": {"enabled": True}}})},
            [],
            {},
            id="an-untrusted-folder-reads-no-project-file",
        ),
    ],
)
def test_eager(workspace, files, home, loaded, not_loaded) -> None:
    ws = workspace(files, home)
    cascade = ws.eager("qwen", "pkg")
    assert ws.loaded(cascade) == loaded
    assert ws.not_loaded(cascade) == not_loaded


def test_qwen_home(workspace) -> None:
    ws = workspace({}, {"q/QWEN.md": "mine\n", ".qwen/QWEN.md": "not read\n"})
    assert ws.loaded(ws.eager("qwen", env={"QWEN_HOME": "~/q"})) == ["~/q/QWEN.md"]


def test_two_paths_to_one_file_are_read_once(workspace) -> None:
    ws = workspace({"QWEN.md": "root\n"})
    (ws.ws / "AGENTS.md").symlink_to("QWEN.md")
    cascade = ws.eager("qwen")
    assert ws.loaded(cascade) == ["QWEN.md"]
    assert ws.not_loaded(cascade) == {"AGENTS.md": R.DUPLICATE_PATH}


def test_headers_name_files_from_cwd_and_rules_from_the_root(workspace) -> None:
    ws = workspace({"QWEN.md": "\n root \n", ".qwen/rules/a.md": "Always.\n"})
    assert text(ws.eager("qwen", "pkg")) == (
        "--- Context from: ../QWEN.md ---\nroot\n--- End of Context from: ../QWEN.md ---\n\n"
        "--- Rule from: .qwen/rules/a.md ---\nAlways.\n--- End of Rule from: .qwen/rules/a.md ---"
    )


@pytest.mark.parametrize(
    ("target", "loaded_before", "loaded", "not_loaded"),
    [
        pytest.param("src/a/b.ts", [], [".qwen/rules/src.md"], {}, id="paths-match-from-the-root"),
        pytest.param("lib/src/b.ts", [], [], {".qwen/rules/src.md": R.GLOB_NO_MATCH}, id="anchored-at-the-root"),
        pytest.param("src/b.ts", [".qwen/rules/src.md"], [], {".qwen/rules/src.md": R.ALREADY_LOADED}, id="once-per-session"),
    ],
)
def test_on_read(workspace, target, loaded_before, loaded, not_loaded) -> None:
    ws = workspace({".qwen/rules/src.md": SRC_RULE})
    cascade = ws.on_read("qwen", target, loaded=loaded_before)
    assert ws.loaded(cascade) == loaded
    assert ws.not_loaded(cascade) == not_loaded
    if loaded:
        assert text(cascade) == (
            "<system-reminder>\n--- Rule from: .qwen/rules/src.md ---\nSource rule.\n--- End of Rule from: .qwen/rules/src.md ---\n</system-reminder>"
        )
