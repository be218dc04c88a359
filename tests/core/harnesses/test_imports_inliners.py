"""The `@path` imports every family shares (`lsp_agents/core/harnesses/import_inliner.py`) in each
dialect (`gemini_imports.py` for Gemini and Qwen, `copilot_imports.py`, `claude_imports.py`), called
through the harness models: relative to the importer's folder, the depth limit, cycles, what stays
outside, and where the imported text stands in the prompt (the table in import_inliner's docstring)."""

from __future__ import annotations

import pytest
from harness_helpers import text

from lsp_agents.core.model import Reason

R = Reason
# harness, the file it loads at start, how many imports deep a file may be
DIALECTS = [("gemini", "GEMINI.md", 5), ("qwen", "QWEN.md", 5), ("copilot-cli", "AGENTS.md", 8), ("claude-code", "CLAUDE.md", 4)]


def _chain(top: str, length: int) -> dict[str, str]:
    """`top` imports c1.md, which imports c2.md, … down to c<length>.md."""
    files = {top: "Top.\n@c1.md\n"}
    files |= {f"c{i}.md": f"Link {i}.\n@c{i + 1}.md\n" for i in range(1, length)}
    files[f"c{length}.md"] = "The end.\n"
    return files


@pytest.mark.parametrize(("harness", "top", "depth"), DIALECTS)
def test_imports_go_as_deep_as_the_dialect_allows(workspace, harness: str, top: str, depth: int) -> None:
    ws = workspace(_chain(top, depth + 1))
    cascade = ws.eager(harness)
    assert ws.loaded(cascade) == [top, *(f"c{i}.md" for i in range(1, depth + 1))]
    assert ws.not_loaded(cascade) == {f"c{depth + 1}.md": R.IMPORT_TOO_DEEP}


@pytest.mark.parametrize(
    ("harness", "files", "loaded", "not_loaded"),
    [
        pytest.param(
            "gemini",
            {"GEMINI.md": "@./docs/a.md\n", "docs/a.md": "a\n@b.md\n", "docs/b.md": "b\n"},
            ["GEMINI.md", "docs/a.md", "docs/b.md"],
            {},
            id="gemini-relative-to-the-importers-folder",
        ),
        pytest.param(
            "gemini",
            {
                "GEMINI.md": "`@a.md` and\n```\n@b.md\n```\n\n    @c.md\n\n@../outside.md\n",
                "a.md": "a\n",
                "b.md": "b\n",
                "c.md": "c\n",
                "../outside.md": "o\n",
            },
            ["GEMINI.md", "c.md"],
            {"../outside.md": R.IMPORT_OUTSIDE_ROOT},
            id="gemini-skips-backtick-regions-not-indented-code-and-refuses-outside-the-root",
        ),
        pytest.param(
            "gemini",
            {"GEMINI.md": "@a.md\n", "a.md": "@b.md\n", "b.md": "@a.md\n"},
            ["GEMINI.md", "a.md", "b.md"],
            {"a.md": R.IMPORT_CYCLE},
            id="gemini-a-file-on-the-chain",
        ),
        pytest.param(
            "qwen",
            {
                "QWEN.md": "`@a.md` and\n```\n@b.md\n```\n\n    @c.md\n\n@missing.md\n",
                "a.md": "a\n",
                "b.md": "b\n",
                "c.md": "c\n",
            },
            ["QWEN.md"],
            {"missing.md": R.IMPORT_NOT_FOUND},
            id="qwen-skips-all-markdown-code",
        ),
        pytest.param(
            "copilot-cli",
            {"AGENTS.md": "@a.md, @../outside.md\n", "a.md": "@b.md\n", "b.md": "@a.md\n", "../outside.md": "o\n"},
            ["AGENTS.md", "a.md", "b.md"],
            {"a.md": R.IMPORT_CYCLE, "../outside.md": R.IMPORT_OUTSIDE_ROOT},
            id="copilot-cli-once-per-instruction-file-and-inside-the-repository",
        ),
        pytest.param(
            "claude-code",
            {"CLAUDE.md": "@a.md\n@data.xyz\n", "a.md": "@CLAUDE.md\n", "data.xyz": "binary-ish\n"},
            ["CLAUDE.md", "a.md"],
            {"CLAUDE.md": R.IMPORT_CYCLE},
            id="claude-a-file-met-again-and-no-import-of-a-non-text-file",
        ),
    ],
)
def test_imports(workspace, harness, files, loaded, not_loaded) -> None:
    ws = workspace(files)
    cascade = ws.eager(harness)
    assert ws.loaded(cascade) == loaded
    assert ws.not_loaded(cascade) == not_loaded


def test_gemini_inlines_in_place_between_comments(workspace) -> None:
    ws = workspace({"GEMINI.md": "Before @a.md after\n", "a.md": "A.\n"})
    assert "Before <!-- Imported from: a.md -->\nA.\n\n<!-- End of import from: a.md --> after" in text(ws.eager("gemini"))


def test_copilot_cli_inlines_after_the_path_then_the_rest_of_the_line(workspace) -> None:
    ws = workspace({"AGENTS.md": "See @a.md, then go on.\n", "a.md": "A.\n\n"})
    assert (
        "See @a.md\n\n"
        f'<imported_custom_instruction source="{ws.path("a.md")}">\nA.\n</imported_custom_instruction>, then go on.'
        in text(ws.eager("copilot-cli"))
    )


def test_claude_imports_from_the_real_folder_and_sends_each_file_as_its_own_entry(workspace) -> None:
    ws = workspace({".claude/CLAUDE.md": "@rules.md\n", ".claude/rules.md": "Rules.\n", "rules.md": "Not this one.\n"})
    (ws.ws / "CLAUDE.md").symlink_to(".claude/CLAUDE.md")
    cascade = ws.eager("claude-code")
    assert ws.loaded(cascade) == ["CLAUDE.md", ".claude/rules.md"]
    assert "@rules.md" in text(cascade) and "Rules." in text(cascade) and "Not this one." not in text(cascade)
