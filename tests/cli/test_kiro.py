"""Kiro's documented profile through the command line: a workspace written from the model's
description (core/harnesses/kiro.py): steering by inclusion mode, the user's first, AGENTS.md
always, `fileMatch` files on a read."""

from __future__ import annotations

from pathlib import Path

from harness_cli import answer
from workspace_files import write_tree


def prompt(cwd: Path, home: Path) -> dict:
    return answer("prompt", "kiro", cwd, home)


def steering(path: Path, text: str) -> str:
    return f'<steering path="{path}">\n{text}\n</steering>'


def reasons(sent: dict) -> dict[str, str | None]:
    return {Path(f["path"]).name: f["reason"] for f in sent["files"]}


def test_inclusion_modes_user_first_then_workspace_then_agents_md(tmp_path: Path) -> None:
    ws, home = tmp_path / "ws", tmp_path / "home"
    write_tree(
        ws,
        {
            ".kiro/steering/tech.md": "Tech stack.\n",
            ".kiro/steering/always.md": "---\ninclusion: always\n---\nAlways.\n",
            ".kiro/steering/react.md": '---\ninclusion: fileMatch\nfileMatchPattern: "components/**/*.tsx"\n---\nReact.\n',
            ".kiro/steering/deploy.md": "---\ninclusion: auto\nname: deploy\ndescription: Deploys\n---\nDeploy.\n",
            ".kiro/steering/manual.md": "---\ninclusion: manual\n---\nManual.\n",
            "AGENTS.md": "Workspace agents.\n",
        },
    )
    write_tree(
        home,
        {
            ".kiro/steering/personal.md": "Personal.\n",
            ".kiro/steering/AGENTS.md": "---\ninclusion: manual\n---\nUser agents, always.\n",
        },
    )
    sent = prompt(ws, home)
    assert sent["eager"] == [
        {
            "placement": "system",
            "text": "\n\n".join(
                [
                    steering(home / ".kiro/steering/AGENTS.md", "User agents, always."),
                    steering(home / ".kiro/steering/personal.md", "Personal."),
                    steering(ws / ".kiro/steering/always.md", "Always."),
                    steering(ws / ".kiro/steering/tech.md", "Tech stack."),
                    steering(ws / "AGENTS.md", "Workspace agents."),
                ]
            ),
        }
    ]
    assert reasons(sent) == {
        "AGENTS.md": None,
        "personal.md": None,
        "always.md": None,
        "deploy.md": "agent-requested",
        "manual.md": "manual",
        "react.md": "conditional",
        "tech.md": None,
    }


def test_file_match_on_read_relative_to_the_workspace(tmp_path: Path) -> None:
    ws, home = tmp_path / "ws", tmp_path / "home"
    write_tree(
        ws,
        {
            ".kiro/steering/react.md": '---\ninclusion: fileMatch\nfileMatchPattern: "components/**/*.tsx"\n---\nReact.\n',
            ".kiro/steering/tests.md": "---\ninclusion: fileMatch\nfileMatchPattern: ['*.test.ts', '**/*.spec.ts']\n---\nTests.\n",
            "components/ui/button.tsx": "",
            "lib/util.test.ts": "",
            "lib/components/x.tsx": "",
        },
    )
    home.mkdir()

    def read(rel: str) -> list[dict]:
        return answer("reminders", "kiro", ws, home, str(ws / rel))["reminders"]

    assert read("components/ui/button.tsx")[0]["text"] == steering(ws / ".kiro/steering/react.md", "React.")
    assert read("lib/util.test.ts")[0]["text"] == steering(ws / ".kiro/steering/tests.md", "Tests.")
    assert read("lib/components/x.tsx") == []


def test_nothing_above_the_workspace(tmp_path: Path) -> None:
    ws, home = tmp_path / "ws", tmp_path / "home"
    write_tree(ws, {".kiro/steering/root.md": "Root.\n", "pkg/AGENTS.md": "Package.\n"})
    home.mkdir()
    sent = prompt(ws / "pkg", home)
    assert sent["eager"][0]["text"] == steering(ws / "pkg/AGENTS.md", "Package.")
