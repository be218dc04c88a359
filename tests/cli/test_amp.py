"""Amp, a documented profile, through the command line: a workspace written from the model's
description (core/harnesses/amp.py): the user's files, AGENTS.md (else AGENT.md, else CLAUDE.md)
from the home directory down to cwd, mentioned files after their AGENTS.md, `globs` held back
until a matching read, and a subtree's AGENTS.md on a read."""

from __future__ import annotations

from pathlib import Path

from harness_cli import answer
from workspace_files import write_tree


def element(path: Path, text: str) -> str:
    return f'<instructions path="{path}">\n{text}\n</instructions>'


def test_user_files_then_home_down_to_cwd_with_fallback_names(tmp_path: Path) -> None:
    home = tmp_path / "home"
    write_tree(
        home,
        {
            ".config/amp/AGENTS.md": "Amp user.\n",
            ".config/AGENTS.md": "Config user.\n",
            "AGENTS.md": "Home.\n",
            "code/AGENT.md": "Singular.\n",
            "code/repo/CLAUDE.md": "Claude fallback.\n",
            "code/repo/pkg/AGENTS.md": "Package.\n",
            "code/repo/pkg/CLAUDE.md": "Passed over.\n",
        },
    )
    sent = answer("prompt", "amp", home / "code/repo/pkg", home)
    assert sent["eager"] == [
        {
            "placement": "system",
            "text": "\n\n".join(
                [
                    element(home / ".config/amp/AGENTS.md", "Amp user."),
                    element(home / ".config/AGENTS.md", "Config user."),
                    element(home / "AGENTS.md", "Home."),
                    element(home / "code/AGENT.md", "Singular."),
                    element(home / "code/repo/CLAUDE.md", "Claude fallback."),
                    element(home / "code/repo/pkg/AGENTS.md", "Package."),
                ]
            ),
        }
    ]
    assert {f["path"]: f["reason"] for f in sent["files"]}[str(home / "code/repo/pkg/CLAUDE.md")] == "name-shadowed"


def test_mentions_follow_their_file_and_globs_wait_for_a_matching_read(tmp_path: Path) -> None:
    home, ws = tmp_path / "home", tmp_path / "ws"
    write_tree(
        ws,
        {
            "AGENTS.md": "See @doc/style.md, @specs/*.md, @doc/ts.md and @missing.md.\n",
            "doc/style.md": "Style.\n",
            "doc/ts.md": "---\nglobs:\n  - '*.ts'\n---\nTypeScript.\n",
            "specs/a.md": "Spec A.\n",
            "specs/b.md": "Spec B.\n",
            "src/x.ts": "",
            "src/y.py": "",
            "sub/AGENTS.md": "Sub.\n",
            "sub/z.py": "",
        },
    )
    home.mkdir()
    sent = answer("prompt", "amp", ws, home)
    root = "See @doc/style.md, @specs/*.md, @doc/ts.md and @missing.md."
    assert sent["eager"][0]["text"] == "\n\n".join(
        [
            element(ws / "AGENTS.md", root),
            element(ws / "doc/style.md", "Style."),
            element(ws / "specs/a.md", "Spec A."),
            element(ws / "specs/b.md", "Spec B."),
        ]
    )
    reasons = {Path(f["path"]).name: f["reason"] for f in sent["files"]}
    assert (reasons["ts.md"], reasons["missing.md"]) == ("conditional", "import-not-found")

    def read(path: Path) -> list[str]:
        return [r["text"] for r in answer("reminders", "amp", ws, home, str(path))["reminders"]]

    assert read(ws / "src/y.py") == []
    assert read(ws / "src/x.ts") == [element(ws / "doc/ts.md", "TypeScript.")]
    assert read(ws / "sub/z.py") == [element(ws / "sub/AGENTS.md", "Sub.")]
