"""Windsurf's documented profile through the command line: a workspace written from the model's
description (core/harnesses/windsurf.py): the global rules first, rules by trigger, AGENTS.md
scoped by its folder, the character limits."""

from __future__ import annotations

import subprocess
from pathlib import Path

from harness_cli import answer
from workspace_files import write_tree

GLOBAL = ".codeium/windsurf/memories/global_rules.md"


def prompt(cwd: Path, home: Path) -> dict:
    return answer("prompt", "windsurf", cwd, home)


def reminders(cwd: Path, home: Path, target: Path) -> dict:
    return answer("reminders", "windsurf", cwd, home, str(target))


def rule(path: Path, text: str) -> str:
    return f'<rule path="{path}">\n{text}\n</rule>'


ALWAYS = "---\ntrigger: always_on\n---\n"


def reasons(sent: dict) -> dict[str, str | None]:
    return {Path(f["path"]).name: f["reason"] for f in sent["files"]}


def test_global_rules_then_rules_by_trigger_then_agents_md(tmp_path: Path) -> None:
    ws, home = tmp_path / "ws", tmp_path / "home"
    write_tree(
        ws,
        {
            ".windsurf/rules/always.md": "---\ntrigger: always_on\n---\nAlways.\n",
            ".windsurf/rules/bare.md": "No header: manual, as the generators targeting Windsurf report.\n",
            ".windsurf/rules/glob.md": '---\ntrigger: glob\nglobs: "*.ts"\n---\nTypeScript.\n',
            ".windsurf/rules/model.md": "---\ntrigger: model_decision\ndescription: Deploys\n---\nDeploy.\n",
            ".windsurf/rules/manual.md": "---\ntrigger: manual\n---\nManual.\n",
            ".windsurfrules": "Legacy.\n",
            "AGENTS.md": "Root agents.\n",
        },
    )
    write_tree(home, {GLOBAL: "Global.\n"})
    sent = prompt(ws, home)
    assert sent["eager"] == [
        {
            "placement": "system",
            "text": "\n\n".join(
                [
                    rule(home / GLOBAL, "Global."),
                    rule(ws / ".windsurfrules", "Legacy."),
                    rule(ws / ".windsurf/rules/always.md", "Always."),
                    rule(ws / "AGENTS.md", "Root agents."),
                ]
            ),
        }
    ]
    assert reasons(sent) == {
        "global_rules.md": None,
        ".windsurfrules": None,
        "always.md": None,
        "bare.md": "manual",
        "glob.md": "conditional",
        "model.md": "agent-requested",
        "manual.md": "manual",
        "AGENTS.md": None,
    }


def test_glob_rules_and_subfolder_agents_md_on_read(tmp_path: Path) -> None:
    ws, home = tmp_path / "ws", tmp_path / "home"
    write_tree(
        ws,
        {
            ".windsurf/rules/ts.md": "---\ntrigger: glob\nglobs: src/**/*.ts\n---\nTypeScript.\n",
            "src/web/AGENTS.md": "Web agents.\n",
            "src/web/app.ts": "",
            "docs/agents.md": "Docs agents, lower case.\n",
            "docs/guide.txt": "",
        },
    )
    home.mkdir()
    sent = reminders(ws, home, ws / "src/web/app.ts")
    assert sent["reminders"][0]["text"] == rule(ws / ".windsurf/rules/ts.md", "TypeScript.") + "\n\n" + rule(
        ws / "src/web/AGENTS.md", "Web agents."
    )
    docs = reminders(ws, home, ws / "docs/guide.txt")
    assert docs["reminders"][0]["text"] == rule(ws / "docs/agents.md", "Docs agents, lower case.")


def test_rule_folders_below_and_above_up_to_the_git_root(tmp_path: Path) -> None:
    repo, home = tmp_path / "repo", tmp_path / "home"
    write_tree(
        repo,
        {
            ".windsurf/rules/top.md": ALWAYS + "Top of the repository.\n",
            "AGENTS.md": "Repository agents.\n",
            "app/.windsurf/rules/app.md": ALWAYS + "App.\n",
            "app/lib/.windsurf/rules/lib.md": ALWAYS + "Library.\n",
        },
    )
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    home.mkdir()
    text = prompt(repo / "app", home)["eager"][0]["text"]
    assert text == "\n\n".join(
        [
            rule(repo / ".windsurf/rules/top.md", "Top of the repository."),
            rule(repo / "app/.windsurf/rules/app.md", "App."),
            rule(repo / "app/lib/.windsurf/rules/lib.md", "Library."),
            rule(repo / "AGENTS.md", "Repository agents."),
        ]
    )


def test_character_limits_cut_files(tmp_path: Path) -> None:
    ws, home = tmp_path / "ws", tmp_path / "home"
    write_tree(ws, {".windsurf/rules/long.md": ALWAYS + "é" * 12_500 + "\n"})
    write_tree(home, {GLOBAL: "g" * 7_000})
    sent = prompt(ws, home)
    text = sent["eager"][0]["text"]
    assert rule(home / GLOBAL, "g" * 6_000) in text
    assert rule(ws / ".windsurf/rules/long.md", "é" * 12_000) in text
    cuts = {Path(f["path"]).name: f["truncated_at"] for f in sent["files"]}
    assert cuts == {"global_rules.md": 6_000, "long.md": len(ALWAYS) + 24_000}
