"""The agents and session commands answer what the CLI prints; hovering an agent or skill file
says who takes it, when, and what is sent."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsp_session import change_document, cli, command, hover, open_document, session, until, write

pytestmark = pytest.mark.asyncio


def _definitions(ws: Path) -> None:
    write(ws / "CLAUDE.md", "@AGENTS.md\n")
    write(
        ws / ".claude" / "skills" / "fmt" / "SKILL.md", "---\nname: fmt\ndescription: Formats the code\n---\nRun the formatter.\n"
    )
    write(ws / ".claude" / "agents" / "rev.md", "---\nname: rev\ndescription: Reviews diffs\n---\nYou review diffs.\n")
    write(ws / ".opencode" / "agent" / "planner.md", "---\ndescription: Plans\nmode: primary\n---\nYou plan.\n")
    write(ws / ".agents" / "skills" / "bare" / "SKILL.md", "---\nname: bare\n---\nNo description.\n")


async def test_agent_commands_return_what_the_cli_prints(ws: Path, home: Path) -> None:
    _definitions(ws)
    source = ws / "pkg" / "src" / "main.ts"
    uri = source.as_uri()
    async with session([ws], home) as client:
        cases = [
            ({"uri": uri}, "lspAgents.agents", ["agents", "--harness", "all", "--cwd", str(ws)]),
            (
                {"uri": uri, "harness": "claude-code"},
                "lspAgents.agents",
                ["agents", "--harness", "claude-code", "--cwd", str(ws)],
            ),
            ({"uri": uri, "agent": "planner"}, "lspAgents.effectivePrompt", ["prompt", "--cwd", str(ws), "--agent", "planner"]),
            (
                {"uri": uri, "agent": "plan", "switchTo": "build", "reads": [uri]},
                "lspAgents.sessionReminders",
                ["reminders", "--session", "--cwd", str(ws), "--agent", "plan", "--switch-to", "build", "--read", str(source)],
            ),
            (
                {"uri": uri, "harness": "claude-code", "plan": True},
                "lspAgents.sessionReminders",
                ["reminders", "--session", "--harness", "claude-code", "--cwd", str(ws), "--plan"],
            ),
        ]
        for arguments, name, cli_args in cases:
            assert await command(client, name, arguments) == cli(*cli_args, home=home), (name, arguments)
        prompt = await command(client, "lspAgents.effectivePrompt", {"uri": uri, "agent": "planner"})
        assert prompt["layers"][0] == {"name": "agent", "placement": "system", "text": "You plan.", "source": "workspace"}
        assert await command(client, "lspAgents.effectivePrompt", {"uri": uri, "agent": "nobody"}) is None


async def test_hover_on_a_skill_file_says_who_takes_it(ws: Path, home: Path) -> None:
    _definitions(ws)
    async with session([ws], home) as client:
        text = await hover(client, ws / ".claude" / "skills" / "fmt" / "SKILL.md", 0, 1)
        assert "**skill `fmt`**" in text
        assert "**claude-code** (skill `fmt`): listed at start; its name and description (16 characters)" in text
        assert "**opencode** (skill `fmt`): listed at start" in text
        assert "its body when the agent loads the skill (18 characters)" in text
        assert "Not read by: codex" in text  # Codex reads .agents/skills only
        bare = await hover(client, ws / ".agents" / "skills" / "bare" / "SKILL.md", 0, 1)
        assert "Codex CLI does not load this skill: missing field `description`" in bare
        agent = await hover(client, ws / ".opencode" / "agent" / "planner.md", 0, 1)
        assert "**opencode** (agent `planner`): only on use; its prompt in place of the base prompt" in agent


async def test_a_skill_edited_in_the_editor_gets_and_loses_its_diagnostic(ws: Path, home: Path) -> None:
    skill = ws / ".agents" / "skills" / "fmt" / "SKILL.md"
    write(skill, "---\nname: fmt\ndescription: Formats the code\n---\nRun it.\n")
    codes = lambda: [d.code for d in client.diagnostics.get(skill.as_uri(), [])]
    async with session([ws], home) as client:
        await until(lambda: client.analyses, "the first analysis")
        assert codes() == []
        open_document(client, skill)
        change_document(client, skill, "---\nname: fmt\n---\nRun it.\n", version=2)
        await until(lambda: codes() == ["invalid-definition"], "the invalid-definition diagnostic")
        change_document(client, skill, "---\nname: fmt\ndescription: Formats\n---\nRun it.\n", version=3)
        await until(lambda: codes() == [], "the diagnostic to clear")
