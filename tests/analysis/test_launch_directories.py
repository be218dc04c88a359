"""Which folders `check` treats as places a harness is launched: not archives, backups,
documentation under any name or templates meant to be copied out, whose copies of the root files
are no duplicates; still a package of the repository, whose repeats are. Each layout is written
from the description of its class and checked through `lsp-agents check` with every code on.
"""

from __future__ import annotations

import pytest
from analysis_helpers import GUIDE, REPEATED, findings


def test_an_archive_of_old_instruction_files_is_no_launch_directory(workspace) -> None:
    """Copies of the root files kept in an archive, a backup or a documentation folder of any name
    repeat the root only for a harness started inside that folder, which nobody does."""
    copies = {
        f"{folder}/{name}": GUIDE.replace("pytest", "pytest -x")
        for folder in ("archive/2024-03", "old-docs-backup", "masterdocs/agents")
        for name in ("AGENTS.md", "CLAUDE.md")
    }
    ws, home = workspace({"AGENTS.md": GUIDE, "CLAUDE.md": "@AGENTS.md\n", **copies})
    assert findings(ws, home, "codex", "claude-code") == []


def test_a_package_repeating_the_root_is_still_reported(workspace) -> None:
    ws, home = workspace(
        {
            "AGENTS.md": GUIDE,
            "services/api/AGENTS.md": "# API\n\n" + REPEATED,
            "services/api/package.json": "{}\n",
        }
    )
    assert ("duplicate-instruction", "services/api/AGENTS.md") in findings(ws, home, "codex")


def test_a_package_whose_dotted_name_holds_a_folder_word_is_still_a_project(workspace) -> None:
    """Dots do not part words: `azure.ai.skills` is a package, not a skills folder."""
    ws, home = workspace({"AGENTS.md": GUIDE, "extensions/azure.ai.skills/AGENTS.md": "# Ext\n\n" + REPEATED})
    assert ("duplicate-instruction", "extensions/azure.ai.skills/AGENTS.md") in findings(ws, home, "codex")


def test_a_template_meant_to_be_copied_out_is_no_project(workspace) -> None:
    """A scaffold's instruction files (its manifest is the scaffold's) are written for the project
    made from it: its rules' globs name that project's files, and its AGENTS.md is cut by nobody."""
    rule = '---\npaths:\n  - "cmd/**/*.go"\n---\n- Wrap errors with context\n'
    ws, home = workspace(
        {
            "AGENTS.md": GUIDE,
            "CLAUDE.md": "@AGENTS.md\n",
            "internal/agent_templates/AGENTS.md": "# Generated app\n\n"
            + "".join(f"- step {i}: {'x' * 60}\n" for i in range(600)),
            "internal/agent_templates/package.json": "{}\n",
            "internal/agent_templates/.claude/rules/go.md": rule,
            ".claude/rules/go.md": rule,
        }
    )
    assert findings(ws, home, "codex", "claude-code") == [("glob-matches-nothing", ".claude/rules/go.md")]


@pytest.mark.parametrize(
    ("marker", "expected"),
    [
        ("_gitignore", []),
        ("README.md", [("truncated", "create-app/web/AGENTS.md"), ("unreachable-file", "create-app/web/AGENTS.md")]),
    ],
)
def test_a_scaffolders_template_is_no_launch_directory(workspace, marker: str, expected: list) -> None:
    """A create-* tool ships its template's `.gitignore` as `_gitignore` (npm drops dotfiles): the
    template's AGENTS.md is written for the generated app, and nobody starts a harness inside the
    template, whatever manifest it holds. Without the marker the folder is a package of this
    repository: Codex launched there cuts its AGENTS.md below the root file, and nothing else reads it."""
    ws, home = workspace(
        {
            "AGENTS.md": "# Repository\n\n" + "".join(f"- rule {i}: {'y' * 60}\n" for i in range(500)),
            "create-app/web/AGENTS.md": "# Generated app\n\n- Run the dev server with npm run dev\n",
            "create-app/web/package.json": "{}\n",
            f"create-app/web/{marker}": "node_modules\n",
        }
    )
    assert [f for f in findings(ws, home, "codex") if f[1].startswith("create-app/")] == expected


def test_a_legacy_name_in_a_tool_folder_or_a_template_is_not_to_be_renamed(workspace) -> None:
    """AGENT.md is a legacy name where AGENTS.md would be read; inside another tool's own folder or
    a template to be copied out, no harness would read the new name either."""
    note = "# Agent\n\n- Keep the plan file current\n"
    ws, home = workspace(
        {"AGENTS.md": GUIDE, ".kiro/AGENT.md": note, "templates/agent-os/AGENT.md": note, "services/api/AGENT.md": note}
    )
    assert [f for f in findings(ws, home, "codex") if f[0] == "deprecated-filename"] == [
        ("deprecated-filename", "services/api/AGENT.md")
    ]


@pytest.mark.parametrize(
    ("folder", "reported"),
    [
        ("{{cookiecutter.project_slug}}", False),
        ("{{ project_name }}", False),
        ("{% if api %}api{% endif %}", False),
        ("project_slug", True),
    ],
)
def test_a_folder_named_by_a_template_placeholder_is_no_launch_directory(workspace, folder: str, reported: bool) -> None:
    """Cookiecutter and Copier render a folder named `{{cookiecutter.project_slug}}` into the
    generated project's root: its AGENTS.md and Copilot files are that project's root files, so
    they repeat the repository's own and are reached by no harness only while unrendered. A folder
    named without a placeholder is a package of this repository, whose repeats are reported."""
    ws, home = workspace(
        {
            "AGENTS.md": GUIDE,
            f"{folder}/AGENTS.md": "# Generated project\n\n" + REPEATED,
            f"{folder}/pyproject.toml": "[project]\nname = 'x'\n",
            f"{folder}/.github/instructions/python.instructions.md": "---\napplyTo: '**/*.py'\n---\n- Use type hints\n",
        }
    )
    found = [f for f in findings(ws, home, "codex", "copilot") if f[1].startswith(f"{folder}/")]
    assert bool(found) == reported
