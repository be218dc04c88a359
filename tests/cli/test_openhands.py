"""The OpenHands CLI through the command line: a workspace written from the model's description
(core/harnesses/openhands.py): the two folders it reads, the skill folders, the user's skills, the
model-family filter and the `<SKILLS>` listing. Each folder holds one instruction file at most, so
that no answer depends on the order the filesystem lists a folder in."""

from __future__ import annotations

from pathlib import Path

from harness_cli import answer
from workspace_files import write_tree

from lsp_agents.core.harnesses.openhands import REPO_HEADER, SKILLS_HEADER

MOVED_BY = ("LLM_MODEL", "OPENHANDS_WORK_DIR", "OPENHANDS_PERSISTENCE_DIR")


def blocks(cwd: Path, home: Path, env: dict[str, str] | None = None) -> list[str]:
    eager = answer("prompt", "openhands", cwd, home, unset=MOVED_BY, env=env)["eager"]
    assert all(b["placement"] == "system" for b in eager)
    return [b["text"] for b in eager]


def context(*items: tuple[str, str]) -> str:
    return (
        REPO_HEADER
        + "".join(f"\n[BEGIN context from [{name}]]\n{text}\n[END Context]\n" for name, text in items)
        + "\n</REPO_CONTEXT>"
    )


def listing(*skills: tuple[str, str]) -> str:
    entries = "".join(f"  <skill>\n    <name>{n}</name>\n    <description>{d}</description>\n  </skill>\n" for n, d in skills)
    return SKILLS_HEADER + "<available_skills>\n" + entries + "</available_skills>\n</SKILLS>"


def test_the_launch_directory_then_the_git_root_and_nothing_between(tmp_path: Path) -> None:
    repo, home = tmp_path / "repo", tmp_path / "home"
    write_tree(
        repo,
        {
            ".git/HEAD": "ref: refs/heads/main\n",
            "AGENTS.md": "Root agents.\n",
            "a/CLAUDE.md": "Between: never read.\n",
            "a/b/.cursorrules": "Cursor rules.\n",
            "a/b/c/GEMINI.md": "Below: never read.\n",
        },
    )
    home.mkdir()
    assert blocks(repo / "a" / "b", home) == [context(("cursorrules", "Cursor rules.\n"), ("agents", "Root agents.\n"))]


def test_a_name_is_taken_once_the_launch_directory_first(tmp_path: Path) -> None:
    repo, home = tmp_path / "repo", tmp_path / "home"
    write_tree(repo, {".git/HEAD": "ref: refs/heads/main\n", "AGENTS.md": "Root.\n", "pkg/agent.md": "Package.\n"})
    home.mkdir()
    assert blocks(repo / "pkg", home) == [context(("agents", "Package.\n"))]


def test_without_git_the_launch_directory_alone(tmp_path: Path) -> None:
    ws, home = tmp_path / "ws", tmp_path / "home"
    write_tree(ws, {"AGENTS.md": "Root.\n", "pkg/x.ts": ""})
    home.mkdir()
    assert blocks(ws / "pkg", home) == []
    assert blocks(ws, home) == [context(("agents", "Root.\n"))]


def test_skill_folders_sent_listed_and_left_out(tmp_path: Path) -> None:
    repo, home = tmp_path / "repo", tmp_path / "home"
    write_tree(
        repo,
        {
            ".git/HEAD": "ref: refs/heads/main\n",
            ".openhands/microagents/repo.md": "---\nname: repo\n---\n\nRepository notes.\n\n",
            ".agents/skills/pdf-tools/SKILL.md": "---\nname: pdf-tools\ndescription: Read <PDF> & more.\n---\nBody.\n",
            ".agents/skills/Bad_Name/SKILL.md": "---\ndescription: Left out.\n---\nBody.\n",
            ".openhands/skills/deploy.md": "---\ntriggers: [deploy]\n---\n# Deploy\n\nShip it.\nMore.\n",
        },
    )
    home.mkdir()
    assert blocks(repo, home) == [
        context(("repo", "Repository notes.")),
        listing(
            ("pdf-tools", "Read &lt;PDF&gt; &amp; more."),  # `.agents/skills` before `.openhands/skills`
            ("deploy", 'Ship it.... [6 characters truncated. Call invoke_skill(name="deploy") to load the full skill]'),
        ),
    ]


def test_the_users_skills_after_the_projects_a_name_taken_once(tmp_path: Path) -> None:
    repo, home = tmp_path / "repo", tmp_path / "home"
    write_tree(repo, {".git/HEAD": "ref: refs/heads/main\n", ".agents/skills/notes.md": "Project notes.\n"})
    write_tree(home, {".openhands/microagents/notes.md": "My notes.\n", ".openhands/skills/mine.md": "Mine.\n"})
    assert blocks(repo, home) == [context(("notes", "Project notes."), ("mine", "Mine."))]


def test_a_model_family_keeps_only_its_own_vendor_file(tmp_path: Path) -> None:
    repo, home = tmp_path / "repo", tmp_path / "home"
    write_tree(repo, {".git/HEAD": "ref: refs/heads/main\n", "CLAUDE.md": "Claude.\n", "pkg/GEMINI.md": "Gemini.\n"})
    home.mkdir()
    both = [context(("gemini", "Gemini.\n"), ("claude", "Claude.\n"))]
    assert blocks(repo / "pkg", home) == both  # no model named: no family
    assert blocks(repo / "pkg", home, {"LLM_MODEL": "openai/some-model"}) == both  # no known family
    assert blocks(repo / "pkg", home, {"LLM_MODEL": "anthropic/claude-sonnet-4-5"}) == [context(("claude", "Claude.\n"))]
    assert blocks(repo / "pkg", home, {"LLM_MODEL": "gemini/gemini-2.5-pro"}) == [context(("gemini", "Gemini.\n"))]
    assert blocks(repo / "pkg", home, {"LLM_MODEL": "openai/gpt-4.1"}) == []
    write_tree(home, {".openhands/agent_settings.json": '{"llm": {"model": "openai/o3-mini"}}'})
    assert blocks(repo / "pkg", home) == []  # the settings file's model


def test_nothing_is_added_on_read(tmp_path: Path) -> None:
    repo, home = tmp_path / "repo", tmp_path / "home"
    write_tree(
        repo, {".git/HEAD": "ref: refs/heads/main\n", "AGENTS.md": "Root.\n", "pkg/AGENTS.md": "Package.\n", "pkg/x.ts": ""}
    )
    home.mkdir()
    reminders = answer("reminders", "openhands", repo, home, str(repo / "pkg" / "x.ts"), unset=MOVED_BY)
    assert reminders["reminders"] == []


def test_the_users_json_files_nested_too_deep_are_taken_as_unreadable(tmp_path: Path) -> None:
    """`agent_settings.json` and the installed skills' `.installed.json` nested past Python's
    recursion limit: no model named, no skill tracked; never a RecursionError out of the model."""
    repo, home = tmp_path / "repo", tmp_path / "home"
    write_tree(repo, {".git/HEAD": "ref: refs/heads/main\n", "CLAUDE.md": "Claude.\n", "GEMINI.md": "Gemini.\n"})
    deep = "[" * 100_000 + "]" * 100_000
    write_tree(
        home,
        {
            ".openhands/agent_settings.json": deep,
            ".openhands/skills/installed/.installed.json": deep,
            ".openhands/skills/installed/lint/SKILL.md": "---\nname: lint\ndescription: Lints.\n---\nLint.\n",
        },
    )
    assert blocks(repo, home)[0] == context(("gemini", "Gemini.\n"), ("claude", "Claude.\n"))
