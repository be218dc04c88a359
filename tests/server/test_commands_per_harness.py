"""Every verified harness through the server: each command answers what the CLI prints for the
bundled example monorepo."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from lsp_session import cli, command, session, write

from lsp_agents.core.harnesses import HARNESSES

pytestmark = pytest.mark.asyncio
EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "monorepo"
VERIFIED = [harness_id for harness_id, harness in HARNESSES.items() if harness.spec.verified]


@pytest.fixture
def monorepo(tmp_path: Path) -> Path:
    ws = tmp_path / "monorepo"
    shutil.copytree(EXAMPLE, ws)
    (ws / ".git").mkdir()
    return ws


@pytest.mark.slow
async def test_every_verified_harness_answers_like_the_cli(monorepo: Path, home: Path) -> None:
    write(home / ".pi" / "agent" / "AGENTS.md", "# pi global\n")
    source = monorepo / "packages" / "api" / "src" / "server.test.ts"
    uri = source.as_uri()
    async with session([monorepo], home) as client:
        for harness in VERIFIED:
            cases = [
                ("lspAgents.effectivePrompt", ["prompt", "--harness", harness, "--cwd", str(monorepo)]),
                ("lspAgents.fileReminders", ["reminders", str(source), "--harness", harness, "--cwd", str(monorepo)]),
                ("lspAgents.cascade", ["cascade", str(source), "--harness", harness, "--cwd", str(monorepo)]),
            ]
            for name, cli_args in cases:
                answer = await command(client, name, {"uri": uri, "harness": harness})
                assert answer == cli(*cli_args, home=home), (harness, name)
                assert (
                    answer["harnesses"][0]["harness"] == harness if name == "lspAgents.cascade" else answer["harness"] == harness
                )
        qwen = await command(client, "lspAgents.fileReminders", {"uri": uri, "harness": "qwen"})
        assert "--- Rule from: .qwen/rules/typescript.md ---" in qwen["reminders"][0]["text"]
        cline = await command(client, "lspAgents.effectivePrompt", {"uri": uri, "harness": "cline"})
        assert cline["eager"][0]["text"].startswith("# Rules\n## Review checklist\n")
