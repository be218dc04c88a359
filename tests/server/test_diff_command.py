"""`lspAgents.diff` answers what `lsp-agents diff BASE --format json` prints in the workspace folder,
with the editor's unsaved buffers as part of the work tree; a revision that is no commit (or looks
like an option) is answered with an error, and the server lives on. `lspAgents.revisions` offers
what to compare with."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
from pathlib import Path

import cli_process
import pytest
from lsp_session import change_document, command, open_document, session, write
from lsprotocol import types

from lsp_agents.workers.comparison import ComparisonError, ComparisonRequest, run_comparison

pytestmark = pytest.mark.asyncio
COMPARISON_TIMEOUT = 300.0  # two analyses in a process of their own, on a busy machine
GIT_ENV = {
    **os.environ,
    "GIT_AUTHOR_NAME": "Test",
    "GIT_AUTHOR_EMAIL": "test@example.com",
    "GIT_COMMITTER_NAME": "Test",
    "GIT_COMMITTER_EMAIL": "test@example.com",
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_CONFIG_GLOBAL": os.devnull,
}
ROOT = "# Rules\n\n- Run the tests before committing.\n"
EDITED_ROOT = ROOT + "- Keep the changelog current.\n"
PKG = "# Package\n\n- Export only what the API names.\n"


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], env=GIT_ENV, check=True, capture_output=True, text=True).stdout


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """One commit (opencode.json, AGENTS.md), then uncommitted edits: AGENTS.md grows, pkg/AGENTS.md is new."""
    repo = tmp_path / "repo"
    write(repo / "opencode.json", "{}\n")
    write(repo / "AGENTS.md", ROOT)
    git(repo, "init", "-q", "-b", "main")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "rules")
    write(repo / "AGENTS.md", EDITED_ROOT)
    write(repo / "pkg" / "AGENTS.md", PKG)
    return repo


def cli_diff(repo: Path, home: Path, base: str) -> dict:
    done = cli_process.run(
        ["diff", base, "--format", "json", "--home", str(home)],
        cwd=repo,
        timeout=COMPARISON_TIMEOUT,
        env={**os.environ, "HOME": str(home)},
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


async def compare(client, arguments: dict) -> dict:
    params = types.ExecuteCommandParams(command="lspAgents.diff", arguments=[arguments])
    return await asyncio.wait_for(client.workspace_execute_command_async(params), COMPARISON_TIMEOUT)


def resized(answer: dict, path: str) -> dict:
    return next(r for change in answer["changes"] for r in change["resized"] if r["path"] == path)


async def test_diff_answers_what_the_cli_prints(repo: Path, home: Path) -> None:
    uri = (repo / "AGENTS.md").as_uri()
    async with session([repo], home) as client:
        answer = await compare(client, {"uri": uri, "base": "HEAD"})
        assert answer == cli_diff(repo, home, "HEAD")
        assert answer["summary"]["prompts_changed"] > 0
        assert resized(answer, "AGENTS.md")["after"]["bytes"] == len(EDITED_ROOT)
        assert any(a["path"] == "pkg/AGENTS.md" for change in answer["changes"] for a in change["added"])


async def test_unsaved_buffers_count_as_the_work_tree(repo: Path, home: Path) -> None:
    unsaved = EDITED_ROOT + "- Never commit generated files.\n"
    async with session([repo], home) as client:
        open_document(client, repo / "AGENTS.md")
        change_document(client, repo / "AGENTS.md", unsaved, version=2)
        answer = await compare(client, {"uri": (repo / "AGENTS.md").as_uri(), "base": "HEAD"})
        assert resized(answer, "AGENTS.md")["after"]["bytes"] == len(unsaved)
        assert resized(answer, "AGENTS.md")["before"]["bytes"] == len(ROOT)


async def test_a_bad_revision_is_an_error_answer(repo: Path, home: Path, tmp_path: Path) -> None:
    uri = (repo / "AGENTS.md").as_uri()
    planted = tmp_path / "planted"
    async with session([repo], home) as client:
        assert await compare(client, {"uri": uri, "base": "no-such-branch"}) == {
            "error": f"'no-such-branch' is not a commit of {os.path.realpath(repo)}"
        }
        assert await compare(client, {"uri": uri, "base": f"--output={planted}"}) == {
            "error": f"'--output={planted}' is not a revision"
        }
        assert not planted.exists()
        assert await command(client, "lspAgents.diff", {"uri": uri}) is None  # no base: malformed, logged
        # The server lives on and still compares.
        assert (await compare(client, {"uri": uri, "base": "main"}))["base"]["name"] == "main"


async def test_a_folder_outside_git_has_nothing_to_compare(tmp_path: Path, home: Path) -> None:
    plain = tmp_path / "plain"
    write(plain / "AGENTS.md", ROOT)
    uri = (plain / "AGENTS.md").as_uri()
    env = {"GIT_CEILING_DIRECTORIES": str(tmp_path)}  # no repository above tmp_path counts
    async with session([plain], home, env=env) as client:
        answer = await compare(client, {"uri": uri, "base": "HEAD"})
        assert answer == {"error": f"{os.path.realpath(plain)} is not in a git work tree"}
        assert "not in a git work tree" in (await command(client, "lspAgents.revisions", {"uri": uri}))["error"]


async def test_revisions_offer_head_its_parent_branches_and_tags(repo: Path, home: Path) -> None:
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "more rules")
    git(repo, "tag", "v1")
    git(repo, "branch", "feature")
    async with session([repo], home) as client:
        answer = await command(client, "lspAgents.revisions", {"uri": (repo / "AGENTS.md").as_uri()})
    offered = [(r["name"], r["kind"], r["subject"]) for r in answer["revisions"]]
    assert offered[:2] == [("HEAD", "commit", "more rules"), ("HEAD~1", "commit", "rules")]
    assert sorted(offered[2:]) == [
        ("feature", "branch", "more rules"),
        ("main", "branch", "more rules"),
        ("v1", "tag", "more rules"),
    ]


async def test_a_comparison_past_its_time_or_at_shutdown_is_stopped(repo: Path, home: Path) -> None:
    request = ComparisonRequest(str(repo), "HEAD", (), str(home))
    with pytest.raises(ComparisonError, match="took more than 0 s and was stopped"):
        await asyncio.to_thread(run_comparison, request, lambda: False, 0.0)
    with pytest.raises(ComparisonError, match="the server is shutting down"):
        await asyncio.to_thread(run_comparison, request, lambda: True)
