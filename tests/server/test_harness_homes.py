"""Every harness's per-user folder is watched, where the server's own environment puts it.

Editors watch the workspace only; the server watches the home folders itself. It once watched five
of the fourteen harnesses' folders (no `.qwen`, `.continue`, `.cline`…), and read `os.environ` for
them where the rest of the server reads its own environment.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from lsp_session import command, session, until_async, write

from lsp_agents.core.settings import Settings
from lsp_agents.server.server import AgentsLanguageServer
from lsp_agents.server.watch import global_directories


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("harness", "folder", "env", "added"),
    [
        pytest.param("qwen", "q-home", {"QWEN_HOME": "{tmp}/q-home"}, "QWEN.md", id="qwen-home"),
        pytest.param("continue", "home/.continue", {}, "rules/style.md", id="continue-rules"),
        pytest.param("cline", "home/Documents/Cline/Rules", {}, "style.md", id="cline-documents-rules"),
        pytest.param("pi", "home/.pi/agent", {}, "AGENTS.md", id="pi-agent-dir"),
    ],
)
async def test_a_file_added_to_a_harness_s_per_user_folder_reaches_its_prompt(
    ws: Path, home: Path, tmp_path: Path, harness: str, folder: str, env: dict, added: str
) -> None:
    (tmp_path / folder).mkdir(parents=True, exist_ok=True)  # watched when it exists at start
    env = {"QWEN_HOME": "", "CONTINUE_GLOBAL_DIR": "", "PI_CODING_AGENT_DIR": ""} | {
        k: v.format(tmp=tmp_path) for k, v in env.items()
    }
    async with session([ws], home, env=env) as client:
        target = {"uri": (ws / "pkg" / "src" / "main.ts").as_uri(), "harness": harness}
        before = await command(client, "lspAgents.effectivePrompt", target)
        assert "PERSONAL RULE" not in str(before)
        write(tmp_path / folder / added, "# Mine\n\nPERSONAL RULE\n")

        async def seen() -> bool:
            return "PERSONAL RULE" in str(await command(client, "lspAgents.effectivePrompt", target))

        await until_async(seen, f"the server to see {added} in {folder}")


def test_the_watched_folders_come_from_the_server_s_environment(tmp_path: Path, monkeypatch) -> None:
    home, codex, elsewhere = tmp_path / "home", tmp_path / "codex", tmp_path / "elsewhere"
    for folder in (home / ".qwen", home / ".kilo", codex, elsewhere):
        folder.mkdir(parents=True)
    monkeypatch.setenv("CODEX_HOME", str(elsewhere))
    server = AgentsLanguageServer()
    server.settings = Settings(home=str(home))
    server.env = {"CODEX_HOME": str(codex)}
    watched = global_directories(server)
    assert str(codex) in watched and str(elsewhere) not in watched
    assert {str(home / ".qwen"), str(home / ".kilo")} <= set(watched)
