"""`reminders --session --command` for Claude Code lines its parser does not take as a command (sent as a
plain prompt, without the listings), `/NAME WORD` running `NAME:WORD`, and the reminder naming a typed
skill's directory-scoped variants that its `@path` reads found (FINDINGS.md SV-1, SV-2), and what a line no
command takes reads and finds (§11o, GD-41)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import cli_process
import pytest


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


@pytest.fixture
def repo(tmp_path: Path) -> tuple[Path, Path]:
    ws, home = tmp_path / "ws", tmp_path / "home"
    (ws / ".git").mkdir(parents=True)
    home.mkdir()
    write(ws / ".claude" / "skills" / "db" / "SKILL.md", "---\ndescription: Root db\n---\nRoot db body.\n")
    write(ws / ".claude" / "skills" / "a.b" / "SKILL.md", "---\ndescription: Dotted\n---\nDotted body.\n")
    write(ws / ".claude" / "commands" / "ns" / "tool.md", "Tool: $ARGUMENTS\n")
    write(ws / "api" / ".claude" / "skills" / "db" / "SKILL.md", "---\ndescription: Api db\n---\nApi db body.\n")
    write(ws / "api" / "src" / "index.ts", "export {}\n")
    write(ws / "README.md", "readme\n")
    return ws, home


def typed(repo: tuple[Path, Path], name: str, arguments: str = "") -> subprocess.CompletedProcess:
    ws, home = repo
    args = ["reminders", "--session", "--harness", "claude-code", "--cwd", str(ws), "--home", str(home)]
    return cli_process.run([*args, f"--command={name}", f"--arguments={arguments}", "--format", "json"], timeout=60)


def event(repo: tuple[Path, Path], name: str, arguments: str = "") -> dict:
    result = typed(repo, name, arguments)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)["timeline"][-1]


@pytest.mark.parametrize(
    ("name", "arguments", "reason"),
    [
        ("v1.2", "@README.md", "`v1.2` is no command name"),
        ("-x", "go", "`-x` is no command name"),
        ("x/y", "", "`x/y` is no command name"),
        ("", "x", "no command name follows the `/`"),
        ("", "", "no command name follows the `/`"),
        ("tmp", "now", "`/tmp` is a path on this machine"),
    ],
)
def test_a_line_the_parser_does_not_take_is_a_plain_prompt(repo, name: str, arguments: str, reason: str) -> None:
    found = event(repo, name, arguments)
    assert found["reminders"] == [] and found["left_out"] == ["environment", "agents", "skills"]
    assert reason in found["note"] and "without its environment paragraph" in found["note"]


def test_a_name_the_parser_takes_but_nothing_has_is_no_command(repo) -> None:
    for name, arguments in (("1", ""), ("_x", "go"), ("x:y", "@missing.ts"), ("DB", "api/src/index.ts")):
        result = typed(repo, name, arguments)
        assert result.returncode == 2 and f"Claude Code has no command {name!r} here" in result.stderr


def test_a_line_no_command_takes_still_reads_its_mentions(repo) -> None:
    found = event(repo, "nosuch", "look at @api/src/index.ts")
    assert [r["name"] for r in found["reminders"]] == ["mentions", "skills-found"] and found["left_out"] == []
    assert "sends the line as typed" in found["note"]
    assert found["reminders"][0]["text"].startswith("<system-reminder>\nCalled the Read tool with the following input: ")
    assert found["reminders"][1]["text"].startswith(
        "New skills discovered in api/.claude/skills, now available via the Skill tool:"
    )
    assert [r["name"] for r in event(repo, "DB", "@README.md")["reminders"]] == ["mentions"]


def test_a_plain_prompt_reads_no_mentions(repo) -> None:
    assert event(repo, "v1.2", "@api/src/index.ts")["reminders"] == []


def test_a_found_skill_named_like_a_built_in_is_qualified(repo) -> None:
    ws, _home = repo
    for name in ("init", "release-notes", "cost", "version"):
        write(ws / "api" / ".claude" / "skills" / name / "SKILL.md", f"---\ndescription: Api {name}\n---\n")
    entries = event(repo, "nosuch", "@api/src/index.ts")["reminders"][1]["text"].split("\n\n")[1].split("\n")
    names = [entry.split(": ")[0] for entry in entries]
    assert names == ["- api:cost", "- api:db", "- api:init", "- api:release-notes", "- version"]  # `version` is off here


def test_a_skill_named_with_a_dot_still_runs(repo) -> None:
    found = event(repo, "a.b", "go")
    assert [r["name"] for r in found["reminders"]] == ["command"] and "left_out" not in found


def test_a_first_word_completes_a_namespaced_command(repo) -> None:
    found = event(repo, "ns", "  tool   go on ")
    assert found["reminders"][0]["text"] == (
        "<command-message>ns:tool</command-message>\n<command-name>/ns:tool</command-name>\n"
        "<command-args>go on</command-args>\nTool: go on\n"
    )
    assert typed(repo, "ns", "other").returncode == 2


def test_variants_found_by_a_mention_follow_the_message(repo) -> None:
    found = event(repo, "db", "@api/src/index.ts")
    assert [r["name"] for r in found["reminders"]] == ["mentions", "skills-found", "command", "skill-variants"]
    assert found["reminders"][1]["text"].startswith(
        "New skills discovered in api/.claude/skills, now available via the Skill tool:\n- api:db"
    )
    assert found["reminders"][3]["text"] == (
        '<system-reminder>\nDirectory-scoped variants of the "db" skill exist in this repo:\n'
        "- `api:db` \u2014 for files under api/\n"
        "[Claude Code's advice on choosing a directory-scoped variant: not shown]\n</system-reminder>"
    )


def test_no_variants_without_a_file_read_below_their_folder(repo) -> None:
    ws, _home = repo
    for arguments in ("@README.md", "@api", "@api/missing.ts", "api/src/index.ts"):
        assert "skill-variants" not in [r["name"] for r in event(repo, "db", arguments)["reminders"]]
    write(ws / "api" / ".claude" / "skills" / "db" / "SKILL.md", "---\ndescription: Api\ndisable-model-invocation: true\n---\n")
    assert "skill-variants" not in [r["name"] for r in event(repo, "db", "@api/src/index.ts")["reminders"]]
