"""One byte count and one token estimate: the hover, the commands and the CLI (JSON and text) show
the same numbers for every harness, on the example workspace with a Codex-truncated file (Codex's
budget lowered below the size of AGENTS.md in the home's config)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from lsp_session import cli, command, hover, session, write

from lsp_agents.core.harnesses import HARNESSES
from lsp_agents.core.vocabulary import size_label

pytestmark = pytest.mark.asyncio

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "monorepo"
SOURCE = EXAMPLE / "packages" / "api" / "src" / "server.test.ts"
CODEX_BUDGET = 500  # AGENTS.md at the root has 578 bytes: Codex cuts it
LABEL = re.compile(r"\*\*(?P<harness>[\w-]+)\*\*(?: sends|:) (?P<label>[\d,]+ files? · [\d,]+ B · ~[\d,]+ tokens)")


@pytest.fixture
def codex_home(tmp_path: Path) -> Path:
    home = tmp_path / "home"
    write(home / ".codex" / "config.toml", f"project_doc_max_bytes = {CODEX_BUDGET}\n")
    return home


async def test_hover_commands_and_cli_agree_for_every_harness(codex_home: Path) -> None:
    every = list(HARNESSES)
    uri = SOURCE.as_uri()
    async with session([EXAMPLE], codex_home, configuration={"harnesses": every}) as client:
        cascade = await command(client, "lspAgents.cascade", {"uri": uri})
        assert cascade == cli("cascade", str(SOURCE), "--harness", "all", "--cwd", str(EXAMPLE), home=codex_home)
        totals = {entry["harness"]: entry["total"] for entry in cascade["harnesses"]}
        assert sorted(totals) == sorted(every)
        for entry in cascade["harnesses"]:
            files = entry["eager"] + entry["on_read"]
            assert entry["total"] == {
                "files": len(files),
                "bytes": sum(f["bytes"] for f in files),
                "tokens": sum(f["tokens"] for f in files),
            }, entry["harness"]
            prompt = await command(client, "lspAgents.effectivePrompt", {"uri": uri, "harness": entry["harness"]})
            reminders = await command(client, "lspAgents.fileReminders", {"uri": uri, "harness": entry["harness"]})
            combined = {key: prompt["total"][key] + reminders["total"][key] for key in ("files", "bytes", "tokens")}
            assert combined == entry["total"], entry["harness"]

        codex = next(entry for entry in cascade["harnesses"] if entry["harness"] == "codex")
        cut = codex["eager"][0]
        assert (cut["bytes"], cut["size"], cut["truncated_at"]) == (
            CODEX_BUDGET,
            (EXAMPLE / "AGENTS.md").stat().st_size,
            CODEX_BUDGET,
        )
        assert cut["truncated_line"] == (EXAMPLE / "AGENTS.md").read_bytes()[:CODEX_BUDGET].count(b"\n")
        assert codex["total"]["tokens"] == -(-CODEX_BUDGET // 4)

        text = await hover(client, SOURCE, 0, 0)
        shown = {m["harness"]: m["label"] for m in LABEL.finditer(text)}
        assert shown == {harness: size_label(total) for harness, total in totals.items()}

    printed = subprocess.run(
        [
            sys.executable,
            "-m",
            "lsp_agents",
            "cascade",
            str(SOURCE),
            "--harness",
            "all",
            "--cwd",
            str(EXAMPLE),
            "--home",
            str(codex_home),
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    headings = dict(re.findall(r"^([\w-]+) — (.+?) · (?:verified|documented)", printed.stdout, re.M))
    assert headings == {harness: size_label(total) for harness, total in totals.items()}
