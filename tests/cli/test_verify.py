"""`lsp-agents verify` with a recorded CLI answer: no Codex needed.

data/codex-prompt-input.json is what `codex debug prompt-input` (Codex 0.171.0) printed when
launched in pkg/ of a workspace holding the two AGENTS.md files below, with Codex's own texts left
out and the workspace's path written {WS}. A stand-in executable prints it and records how it
was run, so the tests see the arguments and the directory the CLI is given.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import cli_process
import pytest
from workspace_files import write_tree

RECORDED = Path(__file__).with_name("data") / "codex-prompt-input.json"
FILES = {".git/HEAD": "ref: refs/heads/main\n", "AGENTS.md": "# Root\n\n- root rule\n", "pkg/AGENTS.md": "# Pkg\n\n- pkg rule\n"}


@pytest.fixture
def setup(tmp_path: Path) -> tuple[Path, Path, Path]:
    """The workspace, an empty home, and a stand-in `codex` that prints the recorded answer."""
    ws, home, bin_dir = tmp_path / "ws", tmp_path / "home", tmp_path / "bin"
    write_tree(ws, FILES)
    home.mkdir()
    bin_dir.mkdir()
    (tmp_path / "answer.json").write_text(RECORDED.read_text(encoding="utf-8").replace("{WS}", str(ws)), encoding="utf-8")
    fake = bin_dir / "codex"
    fake.write_text(f'#!/bin/sh\nprintf "%s\\n" "$PWD" "$@" > {tmp_path / "asked.txt"}\ncat {tmp_path / "answer.json"}\n')
    fake.chmod(0o755)
    return ws, home, fake


def verify(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return cli_process.run(["verify", *args], timeout=120, env={**os.environ, "HOME": str(home)})


def test_the_model_and_the_recorded_cli_agree(setup) -> None:
    ws, home, fake = setup
    result = verify(home, "--cli", str(fake), "--cwd", str(ws / "pkg"))
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(f"agree: {fake} and lsp-agents send the same instructions from {ws / 'pkg'}")
    asked = (fake.parent.parent / "asked.txt").read_text().splitlines()
    assert asked == [str(ws / "pkg"), "debug", "prompt-input", "-c", "mcp_servers={}"]  # in the launch directory, no MCP servers


def test_a_difference_is_shown_line_by_line(setup) -> None:
    ws, home, fake = setup
    (ws / "pkg" / "AGENTS.md").write_text("# Pkg\n\n- pkg rule, since changed\n")
    result = verify(home, "--cli", str(fake), "--cwd", str(ws / "pkg"))
    assert result.returncode == 1, result.stderr
    assert "\n-- pkg rule\n+- pkg rule, since changed\n" in result.stdout
    assert result.stdout.splitlines()[-1].startswith(f"differ: {fake} and lsp-agents send different instructions")
    coloured = verify(home, "--cli", str(fake), "--cwd", str(ws / "pkg"), "--color", "always")
    assert "\x1b[31m-- pkg rule\x1b[0m\n\x1b[32m+- pkg rule, since changed\x1b[0m\n" in coloured.stdout


def test_json_holds_both_texts(setup) -> None:
    ws, home, fake = setup
    result = verify(home, "--cli", str(fake), "--cwd", str(ws / "pkg"), "--format", "json")
    answer = json.loads(result.stdout)
    assert answer["agree"] is True and answer["harness"] == "codex" and answer["cwd"] == str(ws / "pkg")
    assert answer["cli_text"] == answer["model_text"]
    assert answer["cli_text"].startswith(f"# AGENTS.md instructions for {ws / 'pkg'}\n\n<INSTRUCTIONS>\n# Root")


@pytest.mark.parametrize(
    ("script", "message"),
    [
        pytest.param("echo 'not logged in' >&2; exit 3", "debug prompt-input exited with status 3: not logged in", id="fails"),
        pytest.param("echo '{not json'", "the CLI's answer cannot be read", id="garbage"),
    ],
)
def test_a_cli_that_cannot_answer_is_one_line(setup, script: str, message: str) -> None:
    ws, home, fake = setup
    fake.write_text(f"#!/bin/sh\n{script}\n")
    result = verify(home, "--cli", str(fake), "--cwd", str(ws / "pkg"))
    assert result.returncode == 2
    assert result.stderr.startswith("lsp-agents: error: ") and message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_a_harness_whose_cli_cannot_be_asked_is_refused(setup) -> None:
    ws, home, fake = setup
    result = verify(home, "--harness", "cursor", "--cli", str(fake), "--cwd", str(ws))
    assert result.returncode == 2
    assert result.stderr.startswith(
        "lsp-agents: error: cursor's CLI cannot show its instructions without a model call; verify asks codex"
    )
    assert not (fake.parent.parent / "asked.txt").exists()  # nothing was run


def test_a_missing_cli_is_named(setup, tmp_path: Path) -> None:
    ws, home, _fake = setup
    result = verify(home, "--cli", str(tmp_path / "nowhere" / "codex"), "--cwd", str(ws))
    assert result.returncode == 2
    assert (
        result.stderr.strip()
        == f"lsp-agents: error: '{tmp_path / 'nowhere' / 'codex'}' was not found; name the executable with --cli"
    )
