"""Roo Code's documented profile through the command line: a workspace written from the model's
description (core/harnesses/roo.py): the `.roo/rules` folders and what they replace, the Code
mode's rules, AGENTS.md, the section sent."""

from __future__ import annotations

import json
from pathlib import Path

from harness_cli import answer, run
from workspace_files import write_tree

HEADER = (
    "\n====\n\nUSER'S CUSTOM INSTRUCTIONS\n\nThe following additional instructions are provided by the user, "
    "and should be followed to the best of your ability.\n\n"
    'Language Preference:\nYou should always speak and think in the "English" (en) language unless the user '
    "gives you instructions below to do otherwise.\n\nRules:\n\n"
)


def prompt(cwd: Path, home: Path) -> dict:
    return answer("prompt", "roo", cwd, home)


def reasons(sent: dict) -> dict[str, str | None]:
    return {Path(f["path"]).name: f["reason"] for f in sent["files"]}


def test_mode_rules_agents_md_then_rule_folders(tmp_path: Path) -> None:
    ws, home = tmp_path / "ws", tmp_path / "home"
    write_tree(
        ws,
        {
            ".roo/rules/b.md": "\n  B rule.  \n",
            ".roo/rules/sub/A.txt": "A rule, in a subfolder.\n",
            ".roo/rules/empty.md": "",
            ".roo/rules/notes.log": "Never read.\n",
            ".roo/rules-code/style.md": "Code mode.\n",
            ".roo/rules-architect/plan.md": "Architect mode: not the Code mode.\n",
            ".roorules": "Passed over: .roo/rules has files.\n",
            "AGENTS.md": "Agents.\n",
            "AGENT.md": "Passed over.\n",
            "AGENTS.local.md": "Local.\n",
        },
    )
    write_tree(home, {".roo/rules/user.md": "User rule.\n"})
    sent = prompt(ws, home)
    assert sent["eager"] == [
        {
            "placement": "system",
            "text": HEADER
            + "# Rules from rules-code directories:\n\n# Rules from .roo/rules-code/style.md:\nCode mode.\n\n"
            + "# Agent Rules Standard (AGENTS.md):\nAgents.\n\n# Agent Rules Local (AGENTS.local.md):\nLocal.\n\n"
            + "# Rules from .roo directories:\n\n"
            + "# Rules from ../home/.roo/rules/user.md:\nUser rule.\n\n"
            + "# Rules from .roo/rules/sub/A.txt:\nA rule, in a subfolder.\n\n"
            + "# Rules from .roo/rules/b.md:\nB rule.\n\n"
            + "# Rules from .roo/rules/empty.md:\n\n",
        }
    ]
    assert reasons(sent) == {
        "style.md": None,
        "AGENTS.md": None,
        "AGENT.md": "name-shadowed",
        "AGENTS.local.md": None,
        "user.md": None,
        "A.txt": None,
        "b.md": None,
        "empty.md": None,
        "notes.log": "not-configured",
        ".roorules": "name-shadowed",
    }


def test_legacy_files_without_rule_folders(tmp_path: Path) -> None:
    ws, home = tmp_path / "ws", tmp_path / "home"
    write_tree(
        ws,
        {
            ".roorules": "  \n",
            ".clinerules": "Cline rules.\n",
            ".clinerules-code": "Cline code mode.\n",
            "AGENTS.md": "",
            "AGENT.md": "Agent, singular.\n",
        },
    )
    home.mkdir()
    sent = prompt(ws, home)
    assert sent["eager"][0]["text"] == (
        HEADER
        + "# Rules from .clinerules-code:\nCline code mode.\n\n"
        + "# Agent Rules Standard (AGENT.md):\nAgent, singular.\n\n"
        + "# Rules from .clinerules:\nCline rules.\n"
    )
    assert reasons(sent)[".roorules"] == reasons(sent)["AGENTS.md"] == "empty"


def test_nothing_outside_the_workspace_folder_and_nothing_on_read(tmp_path: Path) -> None:
    ws, home = tmp_path / "ws", tmp_path / "home"
    write_tree(ws, {"AGENTS.md": "Root.\n", "pkg/.roo/rules/p.md": "Package rules.\n", "pkg/x.ts": ""})
    home.mkdir()
    sent = prompt(ws / "pkg", home)
    assert (
        sent["eager"][0]["text"] == HEADER + "# Rules from .roo directories:\n\n# Rules from .roo/rules/p.md:\nPackage rules.\n"
    )
    assert answer("reminders", "roo", ws, home, str(ws / "pkg/x.ts"))["reminders"] == []


def test_custom_modes_or_a_mode_rules_file_say_roo_code_is_in_use(tmp_path: Path) -> None:
    """`.roomodes` (Roo Code's custom modes) or `.roorules-code` alone, without a `.roo` folder or a
    `.roorules`: "auto" enables Roo Code, which loads the Code mode's file, so it is no unreachable file."""
    for markers in ({".roomodes": '{"customModes": []}\n'}, {}):
        ws, home = tmp_path / f"ws{len(markers)}", tmp_path / "home"
        write_tree(ws, {".git/HEAD": "ref: refs/heads/main\n", ".roorules-code": "Use tabs.\n", **markers})
        home.mkdir(exist_ok=True)
        result = run(["check", str(ws), "--home", str(home), "--format", "json", "--enable", "all", "--no-cache"])
        report = json.loads(result.stdout)
        assert "roo" in report["harnesses"], report
        assert [f for f in report["findings"] if f["code"] == "unreachable-file"] == [], report
