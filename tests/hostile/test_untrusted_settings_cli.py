"""The CLI never lets a repository's own settings (lsp-agents.toml, `[tool.lsp-agents]`) choose what
is read outside the workspace or fetched: such a key is ignored with one warning line naming it,
the file and the flag that sets it, and a path-valued setting that leaves the workspace is ignored
too. Each case also runs with the user's own flag, so a test that passes shows the setting would
have mattered."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import cli_process
import pytest
from untrusted_settings import BUDGET, REMOTE, SECRET, SETTINGS_FILES, Listener, Repository, untrusted_repository

from lsp_agents.core.settings import UserOnly, marked


def lsp_agents(repo: Repository, *args: str) -> subprocess.CompletedProcess:
    """The CLI run from the workspace with the user's own (clean) home, and no --home unless given."""
    return cli_process.run(list(args), cwd=repo.ws, timeout=120, env={**os.environ, "HOME": str(repo.home)})


def check(repo: Repository, *args: str) -> tuple[dict, list[str]]:
    """`check`'s JSON and its stderr lines."""
    result = lsp_agents(repo, "check", str(repo.ws), "--format", "json", *args)
    assert result.returncode in (0, 1), result.stderr
    return json.loads(result.stdout), result.stderr.splitlines()


def codes(report: dict) -> set[tuple[str, str]]:
    return {(f["code"], f["path"]) for f in report["findings"]}


def warnings_about(lines: list[str], key: str) -> list[str]:
    return [line for line in lines if f"ignoring {key!r}" in line]


@pytest.fixture
def listener():
    listening = Listener()
    yield listening
    listening.close()


@pytest.mark.parametrize("settings_file", SETTINGS_FILES)
def test_a_repository_cannot_choose_the_home_directory(tmp_path: Path, settings_file: str) -> None:
    repo = untrusted_repository(tmp_path, 'home = "{fake_home}"', settings_file=settings_file)
    report, stderr = check(repo, "--harness", "codex", "--harness", "claude-code")
    assert ("truncated", "AGENTS.md") not in codes(report)
    [warning] = warnings_about(stderr, "home")
    assert str(repo.settings_file) in warning and "--home" in warning
    # The user's own --home is honoured: the fake home's budget would have cut AGENTS.md.
    report, _ = check(repo, "--harness", "codex", "--home", str(repo.fake_home))
    assert ("truncated", "AGENTS.md") in codes(report)
    assert f"at byte {BUDGET}" in next(f["message"] for f in report["findings"] if f["code"] == "truncated")


@pytest.mark.parametrize(
    ("settings_file", "key"),
    [(name, key) for name in SETTINGS_FILES for key in ("fetchRemoteInstructions", "fetch_remote_instructions")],
)
def test_a_repository_cannot_turn_on_fetching(tmp_path: Path, listener: Listener, settings_file: str, key: str) -> None:
    repo = untrusted_repository(tmp_path, f"{key} = true", settings_file=settings_file, url=listener.url)
    _report, stderr = check(repo, "--harness", "opencode")
    assert listener.connections() == 0
    [warning] = warnings_about(stderr, "fetchRemoteInstructions")
    assert str(repo.settings_file) in warning and "--fetch-remote" in warning
    check(repo, "--harness", "opencode", "--fetch-remote")
    assert listener.connections() >= 1


@pytest.mark.parametrize(
    "command",
    [
        ("prompt", "--harness", "claude-code"),
        ("prompt", "--harness", "opencode"),
        ("cascade", "CLAUDE.md", "--harness", "all"),
        ("reminders", "CLAUDE.md", "--harness", "claude-code"),
        ("agents", "--harness", "all"),
    ],
)
def test_the_other_commands_take_home_and_fetching_from_the_user_alone(tmp_path: Path, listener: Listener, command) -> None:
    """prompt, cascade, reminders and agents read no repository settings: the home is --home or
    $HOME, fetching is --fetch-remote, whatever the repository's files say."""
    repo = untrusted_repository(tmp_path, 'home = "{fake_home}"\nfetchRemoteInstructions = true', url=listener.url)
    result = lsp_agents(repo, *command, "--cwd", str(repo.ws), "--format", "json")
    assert result.returncode == 0, result.stderr
    assert SECRET not in result.stdout and REMOTE not in result.stdout
    assert listener.connections() == 0
    trusted = lsp_agents(
        repo, *command, "--cwd", str(repo.ws), "--format", "json", "--home", str(repo.fake_home), "--fetch-remote"
    )
    assert trusted.returncode == 0, trusted.stderr
    if command[:3] == ("prompt", "--harness", "claude-code"):
        assert SECRET in trusted.stdout
    if command[:3] == ("prompt", "--harness", "opencode"):
        assert REMOTE in trusted.stdout and listener.connections() >= 1


@pytest.mark.parametrize(
    ("settings", "key", "outside"),
    [
        ('launchDirectory = "../.."', "launchDirectory", "../.."),
        ('launchDirectory = "/etc"', "launchDirectory", "/etc"),
        ('launchDirectory = "escape"', "launchDirectory", "escape"),  # a symbolic link out of the workspace
        ('launchDirectories = ["packages/*", "../*"]', "launchDirectories", "../*"),
        ('launchDirectories = ["!/../x"]', "launchDirectories", "../x"),
    ],
)
def test_a_repository_path_outside_the_workspace_is_ignored(tmp_path: Path, settings: str, key: str, outside: str) -> None:
    repo = untrusted_repository(tmp_path, settings)
    (repo.ws / "escape").symlink_to(repo.home, target_is_directory=True)
    _report, stderr = check(repo)
    [warning] = warnings_about(stderr, key)
    assert str(repo.settings_file) in warning and f"{outside!r} is outside the workspace" in warning


def test_paths_inside_the_workspace_are_kept(tmp_path: Path) -> None:
    repo = untrusted_repository(tmp_path, 'launchDirectory = "pkg"\nlaunchDirectories = ["/pkg", "packages/*"]')
    _report, stderr = check(repo)
    assert not [line for line in stderr if "ignoring" in line]


@pytest.mark.parametrize(
    ("settings", "key"),
    [
        ('[codex]\nfallbackFilenames = ["../../outside/secret.md"]', "codex.fallbackFilenames"),
        ('[gemini]\nfileNames = ["/etc/passwd"]', "gemini.fileNames"),
    ],
)
def test_harness_file_names_stay_names(tmp_path: Path, settings: str, key: str) -> None:
    repo = untrusted_repository(tmp_path, settings)
    _report, stderr = check(repo)
    assert any(f"invalid value for {key!r}" in line and "not a file name" in line for line in stderr), stderr


@pytest.mark.parametrize("command", ["check", "prompt", "cascade", "reminders", "agents"])
def test_each_user_only_setting_has_its_flag(command: str) -> None:
    """The flag a warning names exists on every command that reads what the setting chooses."""
    result = cli_process.run([command, "--help"], timeout=60)
    assert result.returncode == 0, result.stderr
    for user_only in marked(UserOnly).values():
        assert user_only.flag in result.stdout.split(), (command, user_only.flag)
