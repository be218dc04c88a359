"""The server reads a repository's own settings files with the CLI's rule: `home` and fetching come
only from the user's editor (initializationOptions, workspace/configuration), never from
lsp-agents.toml or `[tool.lsp-agents]`; each ignored key is named in the editor's log. A launch
directory outside the folder is refused whoever sets it: the editor's answer merges in the
repository's own workspace settings (.vscode/settings.json)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "hostile"))
from lsp_session import command, session
from untrusted_settings import REMOTE, SECRET, SETTINGS_FILES, Listener, untrusted_repository

pytestmark = pytest.mark.asyncio


@pytest.fixture
def listener():
    listening = Listener()
    yield listening
    listening.close()


def logged(client, key: str) -> list[str]:
    return [m.message for m in client.log_messages if f"ignoring {key!r}" in m.message]


async def claude_prompt(client, ws: Path) -> str:
    result = await command(client, "lspAgents.effectivePrompt", {"uri": (ws / "CLAUDE.md").as_uri(), "harness": "claude-code"})
    return "\n".join(block["text"] for block in result["eager"])


@pytest.mark.parametrize("settings_file", SETTINGS_FILES)
async def test_a_repository_cannot_choose_the_home_directory(tmp_path: Path, settings_file: str) -> None:
    repo = untrusted_repository(tmp_path, 'home = "{fake_home}"', settings_file=settings_file)
    async with session([repo.ws], repo.home) as client:
        assert SECRET not in await claude_prompt(client, repo.ws)
        [warning] = logged(client, "home")
        assert str(repo.settings_file) in warning
    async with session([repo.ws], repo.home, init={"home": str(repo.fake_home)}) as client:
        assert SECRET in await claude_prompt(client, repo.ws), "the user's own setting is honoured"


@pytest.mark.parametrize("settings_file", SETTINGS_FILES)
async def test_a_repository_cannot_turn_on_fetching(tmp_path: Path, listener: Listener, settings_file: str) -> None:
    repo = untrusted_repository(tmp_path, "fetchRemoteInstructions = true", settings_file=settings_file, url=listener.url)
    async with session([repo.ws], repo.home) as client:  # the whole folder is analysed on opening
        result = await command(
            client, "lspAgents.effectivePrompt", {"uri": (repo.ws / "AGENTS.md").as_uri(), "harness": "opencode"}
        )
        assert REMOTE not in str(result)
        assert listener.connections() == 0
        [warning] = logged(client, "fetchRemoteInstructions")
        assert str(repo.settings_file) in warning
    async with session([repo.ws], repo.home, init={"fetchRemoteInstructions": True}) as client:
        result = await command(
            client, "lspAgents.effectivePrompt", {"uri": (repo.ws / "AGENTS.md").as_uri(), "harness": "opencode"}
        )
        assert REMOTE in str(result), "the user's own setting is honoured"
        assert listener.connections() >= 1


async def test_the_editors_configuration_sets_both(tmp_path: Path, listener: Listener) -> None:
    """workspace/configuration is the editor's (VS Code keeps both settings out of workspace scope)."""
    repo = untrusted_repository(tmp_path, "", url=listener.url)
    user = {"home": str(repo.fake_home), "fetchRemoteInstructions": True}
    async with session([repo.ws], repo.home, configuration=user) as client:
        assert SECRET in await claude_prompt(client, repo.ws)
        result = await command(
            client, "lspAgents.effectivePrompt", {"uri": (repo.ws / "AGENTS.md").as_uri(), "harness": "opencode"}
        )
        assert REMOTE in str(result)
        assert listener.connections() >= 1


@pytest.mark.parametrize("launch_directory", ["..", "/", "escape"])
async def test_a_launch_directory_outside_the_folder_is_refused(tmp_path: Path, launch_directory: str) -> None:
    repo = untrusted_repository(tmp_path, "")
    (repo.ws / "escape").symlink_to(repo.home, target_is_directory=True)
    async with session([repo.ws], repo.home, configuration={"launchDirectory": launch_directory}) as client:
        result = await command(client, "lspAgents.effectivePrompt", {"uri": (repo.ws / "AGENTS.md").as_uri()})
        assert result["cwd"] == str(repo.ws.resolve())
        assert any("outside the workspace folder" in m.message for m in client.log_messages)
