"""Command-line conventions, as a subprocess: the workspace found from the current directory,
`--harness all` everywhere, one error style, full `--help`, colour only where it belongs."""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys
from pathlib import Path

import cli_process
import pytest

from lsp_agents.core.harness_ids import HARNESS_IDS

ESC = "\x1b["


def run(*args: str, cwd: Path | None = None, env: dict | None = None) -> subprocess.CompletedProcess:
    environment = {key: value for key, value in os.environ.items() if key != "NO_COLOR"}
    return cli_process.run(list(args), cwd=cwd, timeout=120, env={**environment, **(env or {})})


def run_on_a_terminal(*args: str, cwd: Path, env: dict | None = None) -> str:
    """What the command writes to a pseudo-terminal (its standard output is one)."""
    environment = {key: value for key, value in os.environ.items() if key != "NO_COLOR"}
    main, secondary = pty.openpty()
    with subprocess.Popen(
        [sys.executable, "-m", "lsp_agents", *args],
        stdout=secondary,
        stderr=subprocess.DEVNULL,
        cwd=cwd,
        env={**environment, "TERM": "xterm", **(env or {})},
    ) as process:
        os.close(secondary)
        chunks = []
        while True:
            try:
                chunk = os.read(main, 65536)
            except OSError:  # EIO: the command ended and closed the terminal
                break
            if not chunk:
                break
            chunks.append(chunk)
        process.wait(timeout=120)
    os.close(main)
    return b"".join(chunks).decode("utf-8", "replace")


@pytest.fixture
def repo(tmp_path: Path) -> tuple[Path, Path]:
    """A git repository whose root AGENTS.md and pkg/AGENTS.md repeat one bullet (a finding
    about pkg/AGENTS.md, from launch directory pkg/), and a CLAUDE.md importing AGENTS.md."""
    ws, home = tmp_path / "ws", tmp_path / "home"
    (ws / ".git").mkdir(parents=True)
    (ws / "pkg" / "src" / "deep").mkdir(parents=True)
    home.mkdir()
    bullet = "- Run the whole test suite before you say that a change is done.\n"
    (ws / "AGENTS.md").write_text(f"# Root\n\n{bullet}")
    (ws / "CLAUDE.md").write_text("@AGENTS.md\n")
    (ws / "pkg" / "AGENTS.md").write_text(f"# Package\n\n- Use the package's own linter.\n{bullet}")
    (ws / "pkg" / "src" / "main.ts").write_text("export {}\n")
    return ws, home


# -- the workspace root ------------------------------------------------------------------------
def _summary(result: subprocess.CompletedProcess) -> str:
    return result.stdout.splitlines()[-1]


def test_check_in_a_subdirectory_checks_the_repository(repo) -> None:
    ws, home = repo
    at_root = run("check", "--home", str(home), "--format", "json", cwd=ws)
    below = run("check", "--home", str(home), "--format", "json", cwd=ws / "pkg" / "src" / "deep")
    assert at_root.returncode == below.returncode == 0, below.stderr
    assert json.loads(below.stdout) == json.loads(at_root.stdout)
    findings = json.loads(below.stdout)["findings"]
    assert ("duplicate-instruction", "pkg/AGENTS.md") in {(f["code"], f["path"]) for f in findings}
    text = run("check", "--home", str(home), cwd=ws / "pkg" / "src")
    assert _summary(text).endswith(f"; workspace: {os.path.realpath(ws)}")
    assert _summary(run("check", "--home", str(home), cwd=ws)).endswith("; workspace: .")


def test_the_nearest_settings_file_wins_over_the_git_root(repo) -> None:
    ws, home = repo
    (ws / "pkg" / "pyproject.toml").write_text("[project]\nname = 'not-ours'\n")  # no [tool.lsp-agents]: not a marker
    assert _summary(run("check", "--home", str(home), cwd=ws / "pkg" / "src")).endswith(f"; workspace: {os.path.realpath(ws)}")
    (ws / "pkg" / "pyproject.toml").write_text("[tool.lsp-agents]\nexclude = []\n")
    assert _summary(run("check", "--home", str(home), cwd=ws / "pkg" / "src")).endswith(
        f"; workspace: {os.path.realpath(ws / 'pkg')}"
    )
    (ws / "pkg" / "src" / "lsp-agents.toml").write_text("")
    assert _summary(run("check", "--home", str(home), cwd=ws / "pkg" / "src")).endswith("; workspace: .")


def test_without_markers_the_current_directory_is_the_workspace(tmp_path: Path) -> None:
    (tmp_path / "AGENTS.md").write_text("# Rules\n")
    result = run("check", "--home", str(tmp_path), cwd=tmp_path)
    assert result.returncode == 0 and _summary(result).endswith("; workspace: .")


def test_files_are_reported_within_the_discovered_workspace(repo) -> None:
    """A pre-commit hook's files, given from a subdirectory: reported, within the repository."""
    ws, home = repo
    result = run("check", "AGENTS.md", "--home", str(home), "--format", "json", cwd=ws / "pkg")
    assert result.returncode == 0, result.stderr
    assert {f["path"] for f in json.loads(result.stdout)["findings"]} == {"pkg/AGENTS.md"}


# -- --harness all -------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "command",
    [
        ["prompt"],
        ["reminders", "pkg/src/main.ts"],
        ["reminders", "--session", "pkg/src/main.ts"],
        ["agents"],
        ["cascade", "pkg/src/main.ts"],
        ["check"],
    ],
)
def test_every_command_takes_harness_all(repo, command: list[str]) -> None:
    ws, home = repo
    text = run(*command, "--harness", "all", "--home", str(home), cwd=ws)
    assert text.returncode == 0, text.stderr
    if command[0] == "check":
        assert _summary(text).split("harnesses: ")[1].split(";")[0] == ", ".join(HARNESS_IDS)
        return
    assert all(harness in text.stdout for harness in HARNESS_IDS)
    data = json.loads(run(*command, "--harness", "all", "--home", str(home), "--format", "json", cwd=ws).stdout)
    assert [entry["harness"] for entry in data["harnesses"]] == list(HARNESS_IDS)


# -- help ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("command", ["prompt", "reminders", "agents", "cascade", "check", "harnesses", "serve"])
def test_every_command_has_a_full_help(command: str) -> None:
    result = run(command, "--help")
    assert result.returncode == 0 and result.stderr == ""
    text = " ".join(result.stdout.split())  # unwrapped
    assert f"usage: lsp-agents {command}" in text
    description = result.stdout.split("\n\n")[1]
    assert len(description.split()) >= 5, description  # a sentence, not the bare usage
    if command != "serve":
        assert "--format" in text and "json" in text and "--color" in text and "NO_COLOR" in text
    if command in ("prompt", "reminders", "agents", "cascade", "check"):
        assert f"one of {', '.join(HARNESS_IDS)}, or all" in text


def test_positional_arguments_are_explained() -> None:
    assert "FILE the file the agent reads" in " ".join(run("cascade", "--help").stdout.split())
    assert "FILE the file the agent reads" in " ".join(run("reminders", "--help").stdout.split())
    check = " ".join(run("check", "--help").stdout.split())
    assert "PATH one directory: the workspace root" in check and "the way ruff finds its project" in check


# -- errors --------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["check", "--harness", "nope"], "argument --harness: invalid choice: 'nope'"),
        (["cascade", "--harness", "nope", "x"], "argument --harness: invalid choice: 'nope'"),
        (["check", "--format", "xml"], "argument --format: invalid choice: 'xml'"),
        (["check", "--enable", "no-such-code"], "--enable: unknown code 'no-such-code'"),
        (["check", "missing-dir"], "no such file or directory: missing-dir"),
        (["cascade"], "the following arguments are required: FILE"),
        (["agents", "--cwd", "/definitely/not/here"], "--cwd '/definitely/not/here' is not a directory"),
        (["harnesses", "--home", "/definitely/not/here"], "--home '/definitely/not/here' is not a directory"),
        (["prompt", "--agent", "nobody"], "opencode has no agent 'nobody' here"),
        (["nope"], "argument COMMAND: invalid choice: 'nope'"),
        ([], "the following arguments are required: COMMAND"),
    ],
)
def test_one_error_style_for_every_command(repo, args: list[str], message: str) -> None:
    ws, _home = repo
    result = run(*args, cwd=ws)
    assert result.returncode == 2, result.stderr
    assert result.stdout == "" and len(result.stderr.splitlines()) == 1, result.stderr
    assert result.stderr.startswith(f"lsp-agents: error: {message}"), result.stderr


# -- colour --------------------------------------------------------------------------------------
@pytest.mark.parametrize("command", [["check"], ["cascade", "pkg/src/main.ts"], ["agents"], ["harnesses"]])
def test_colour_on_a_terminal_and_never_in_a_pipe(repo, command: list[str]) -> None:
    ws, home = repo
    args = [*command, "--home", str(home)]
    assert ESC in run_on_a_terminal(*args, cwd=ws)
    assert ESC not in run_on_a_terminal(*args, cwd=ws, env={"NO_COLOR": "1"})
    assert ESC not in run_on_a_terminal(*args, "--color", "never", cwd=ws)
    assert ESC not in run(*args, cwd=ws).stdout
    assert ESC in run(*args, "--color", "always", cwd=ws).stdout
    assert ESC in run(*args, "--color", "always", cwd=ws, env={"NO_COLOR": "1"}).stdout  # the flag is the user's choice


def test_json_is_never_coloured(repo) -> None:
    ws, home = repo
    for command in (["check"], ["cascade", "pkg/src/main.ts"]):
        result = run(*command, "--home", str(home), "--format", "json", "--color", "always", cwd=ws)
        assert ESC not in result.stdout and json.loads(result.stdout)


# -- one path style, one verdict per file ----------------------------------------------------------
def test_views_show_workspace_relative_paths(repo) -> None:
    """Launched in a subdirectory, files above it are still named from the workspace root."""
    ws, home = repo
    (ws / ".claude" / "agents").mkdir(parents=True)
    (ws / ".claude" / "agents" / "reviewer.md").write_text("---\nname: reviewer\ndescription: Reviews changes.\n---\nReview.\n")
    agents = run("agents", "--harness", "claude-code", "--home", str(home), cwd=ws / "pkg")
    assert "  .claude/agents/reviewer.md" in agents.stdout.replace("reviewer.md\n", "reviewer.md  \n")
    assert str(ws) not in agents.stdout.replace(f"workspace: {os.path.realpath(ws)}", "")
    cascade = run("cascade", "src/main.ts", "--harness", "codex", "--home", str(home), cwd=ws / "pkg")
    assert "  pkg/AGENTS.md " in cascade.stdout and "  AGENTS.md " in cascade.stdout and "../" not in cascade.stdout


def test_cascade_does_not_call_an_imported_file_not_loaded(repo) -> None:
    ws, home = repo
    result = json.loads(
        run("cascade", "pkg/src/main.ts", "--harness", "claude-code", "--home", str(home), "--format", "json", cwd=ws).stdout
    )
    claude = result["harnesses"][0]
    agents = os.path.join(os.path.realpath(ws), "AGENTS.md")
    assert agents in [entry["path"] for entry in claude["eager"]]
    assert agents not in [entry["path"] for entry in claude["not_loaded"]]
