"""Gemini CLI's model (`lsp_agents/core/harnesses/gemini.py`), called directly: every context file
name from cwd up to the boundary, distinct files sorted by absolute path (so a child directory may
come before its parent); the global files in ~/.gemini; settings choose the names and the
boundary, folder trust keeps the project files out; on read, the JIT loader's walk."""

from __future__ import annotations

import json

import pytest
from harness_helpers import text

from lsp_agents.core.model import Reason

R = Reason


def _settings(**values: object) -> str:
    return json.dumps(values)


@pytest.mark.parametrize(
    ("files", "home", "loaded", "not_loaded"),
    [
        pytest.param(
            {"GEMINI.md": "root\n", "pkg/GEMINI.md": "pkg\n"}, {}, ["GEMINI.md", "pkg/GEMINI.md"], {}, id="up-to-the-git-root"
        ),
        pytest.param(
            {"pkg/AGENTS.md": "agents\n", "pkg/GEMINI.md": "gemini\n"},
            {".gemini/settings.json": _settings(context={"fileName": ["AGENTS.md"]})},
            ["pkg/AGENTS.md", "pkg/GEMINI.md"],
            {},
            id="configured-names-and-still-gemini-md",
        ),
        pytest.param(
            {"pkg/CONTEXT.md": "context\n", "pkg/.gemini/settings.json": _settings(context={"fileName": "CONTEXT.md"})},
            {},
            ["pkg/CONTEXT.md"],
            {},
            id="the-launch-directorys-settings-over-the-users",
        ),
        pytest.param(
            {"pkg/GEMINI.md": "pkg\n"},
            {".gemini/settings.json": _settings(security={"folderTrust": {"enabled": True}})},
            [],
            {"pkg/GEMINI.md": R.UNTRUSTED_FOLDER},
            id="folder-trust-on-and-cwd-not-trusted",
        ),
        pytest.param(
            {"pkg/GEMINI.md": "pkg\n"},
            {".gemini/GEMINI.md": "mine\n"},
            ["~/.gemini/GEMINI.md", "pkg/GEMINI.md"],
            {},
            id="the-global-file-first",
        ),
        pytest.param(
            {"pkg/GEMINI.md": "pkg\n", "GEMINI.md": "root\n"},
            {".gemini/settings.json": _settings(context={"memoryBoundaryMarkers": []})},
            ["pkg/GEMINI.md"],
            {"GEMINI.md": R.OUTSIDE_BOUNDARY},
            id="no-boundary-markers-cwd-alone",
        ),
        pytest.param(
            {"pkg/GEMINI.md": "pkg\n"}, {".gemini/settings.json": "{not json"}, [], {}, id="a-settings-file-that-does-not-parse"
        ),
        pytest.param({"pkg/GEMINI.md": " \n\n"}, {}, [], {"pkg/GEMINI.md": R.EMPTY}, id="a-blank-file"),
    ],
)
def test_eager(workspace, files, home, loaded, not_loaded) -> None:
    ws = workspace(files, home)
    cascade = ws.eager("gemini", "pkg")
    assert ws.loaded(cascade) == loaded
    assert ws.not_loaded(cascade) == not_loaded


def test_files_are_sorted_by_path_so_a_child_directory_may_come_first(workspace) -> None:
    """JavaScript's sort of absolute paths: `pkg/A/GEMINI.md` before `pkg/GEMINI.md` ("A" < "G")."""
    ws = workspace({"pkg/GEMINI.md": "pkg\n", "pkg/A/GEMINI.md": "child\n", "pkg/a/GEMINI.md": "lower\n"})
    assert ws.loaded(ws.eager("gemini", "pkg/A")) == ["pkg/A/GEMINI.md", "pkg/GEMINI.md"]
    assert ws.loaded(ws.eager("gemini", "pkg/a")) == ["pkg/GEMINI.md", "pkg/a/GEMINI.md"]


def test_a_file_above_the_git_root_is_outside_the_boundary(workspace) -> None:
    ws = workspace({"GEMINI.md": "root\n", "../GEMINI.md": "above\n"})
    cascade = ws.eager("gemini")
    assert ws.loaded(cascade) == ["GEMINI.md"]
    assert [c.reason for c in cascade.files if not c.loaded] == [R.OUTSIDE_BOUNDARY]


def test_a_second_path_to_one_file_is_read_once_the_outer_one(workspace) -> None:
    ws = workspace({"GEMINI.md": "root\n"})
    (ws.ws / "pkg").mkdir()
    (ws.ws / "pkg" / "GEMINI.md").symlink_to("../GEMINI.md")
    cascade = ws.eager("gemini", "pkg")
    assert ws.loaded(cascade) == ["GEMINI.md"]
    assert ws.not_loaded(cascade) == {"pkg/GEMINI.md": R.DUPLICATE_PATH}


def test_project_files_come_in_the_first_user_turn_between_context_markers(workspace) -> None:
    ws = workspace({"GEMINI.md": "\nUse pnpm.\n\n"})
    path = ws.path("GEMINI.md")
    assert text(ws.eager("gemini")) == (
        f"<loaded_context>\n<project_context>\n--- Context from: {path} ---\nUse pnpm.\n"
        f"--- End of Context from: {path} ---\n</project_context>\n</loaded_context>"
    )


@pytest.mark.parametrize(
    ("files", "target", "loaded", "not_loaded"),
    [
        pytest.param(
            {"GEMINI.md": "root\n", "a/GEMINI.md": "a\n", "a/b/GEMINI.md": "b\n"},
            "a/b/f.ts",
            ["a/GEMINI.md", "a/b/GEMINI.md"],
            {"GEMINI.md": R.ALREADY_LOADED},
            id="root-first-without-what-the-start-loaded",
        ),
        pytest.param({"a/GEMINI.md": "a\n"}, "../outside/f.ts", [], {}, id="nothing-for-a-file-outside-cwd"),
    ],
)
def test_on_read(workspace, files, target, loaded, not_loaded) -> None:
    ws = workspace(files)
    cascade = ws.on_read("gemini", target)
    assert ws.loaded(cascade) == loaded
    assert ws.not_loaded(cascade) == not_loaded
    if loaded:
        assert text(cascade).startswith("--- Newly Discovered Project Context ---\n--- Context from: ")
