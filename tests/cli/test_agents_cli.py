"""`lsp-agents agents`, `prompt --agent` and `reminders --session` as a subprocess: shapes, the
order of layers and events, exit codes, and hostile definition files."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import cli_process
import pytest


def run(*args: str) -> subprocess.CompletedProcess:
    return cli_process.run(list(args), timeout=60)


def write(path: Path, text: str | bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text) if isinstance(text, bytes) else path.write_text(text)


@pytest.fixture
def repo(tmp_path: Path) -> tuple[Path, Path]:
    ws, home = tmp_path / "ws", tmp_path / "home"
    (ws / ".git").mkdir(parents=True)
    home.mkdir()
    write(ws / "AGENTS.md", "# root\nROOT RULES\n")
    write(ws / "pkg" / "AGENTS.md", "# pkg\nPKG RULES\n")
    write(ws / "pkg" / "main.ts", "export {}\n")
    write(ws / ".opencode" / "agent" / "planner.md", "---\ndescription: Plans\nmode: primary\nsteps: 3\n---\n\nYou plan.\n")
    write(ws / ".opencode" / "agent" / "helper.md", "---\ndescription: Helps\nmode: subagent\n---\nYou help.\n")
    write(ws / ".claude" / "skills" / "fmt" / "SKILL.md", "---\nname: fmt\ndescription: Formats the code\n---\nRun it.\n")
    write(ws / ".claude" / "agents" / "rev.md", "---\nname: rev\ndescription: Reviews\ntools: Read\n---\nYou review.\n")
    return ws, home


def _json(*args: str) -> dict:
    result = run(*args, "--format", "json")
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_agents_lists_each_harness_definitions(repo) -> None:
    ws, home = repo
    data = _json("agents", "--harness", "all", "--cwd", str(ws), "--home", str(home))
    by = {h["harness"]: h for h in data["harnesses"]}
    assert by["copilot"]["modelled"] is False
    opencode = {(d["kind"], d["name"]): d for d in by["opencode"]["definitions"]}
    assert opencode[("agent", "planner")]["delivery"] == "on-use" and opencode[("agent", "planner")]["steps"] == 3
    assert opencode[("agent", "helper")]["delivery"] == "listed"
    assert opencode[("skill", "fmt")]["path"] == str(ws / ".claude" / "skills" / "fmt" / "SKILL.md")
    assert [layer["name"] for layer in by["opencode"]["listings"]] == ["skills", "agents"]
    assert "- helper: Helps" in by["opencode"]["listings"][1]["text"]
    assert "- rev: Reviews (Tools: Read)" in by["claude-code"]["listings"][0]["text"]
    text = run("agents", "--harness", "claude-code", "--cwd", str(ws), "--home", str(home)).stdout
    assert "skill    fmt" in text and "listed at start" in text


def test_prompt_with_an_agent_puts_its_prompt_first(repo) -> None:
    ws, home = repo
    data = _json("prompt", "--cwd", str(ws), "--home", str(home), "--agent", "planner")
    assert [layer["name"] for layer in data["layers"]] == ["agent", "environment", "instructions", "skills", "agents"]
    assert data["layers"][0] == {"name": "agent", "placement": "system", "text": "You plan.", "source": "workspace"}
    assert data["agent"]["name"] == "planner" and data["eager"]  # the instruction contract is unchanged
    claude = _json("prompt", "--harness", "claude-code", "--cwd", str(ws), "--home", str(home), "--agent", "rev")
    assert [layer["name"] for layer in claude["layers"]][:1] == ["agent"]
    assert "skills" not in [layer["name"] for layer in claude["layers"]]  # rev has only Read, not the Skill tool


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--agent", "nobody"), "has no agent 'nobody' here (agents: build, plan, planner)"),
        (("--agent", "helper"), "'helper' is a subagent"),
        (("--harness", "codex", "--agent", "planner"), "Codex CLI has no agents to run a session as"),
    ],
)
def test_prompt_with_an_agent_it_cannot_run_is_a_usage_error(repo, args, message) -> None:
    ws, home = repo
    result = run("prompt", "--cwd", str(ws), "--home", str(home), *args)
    assert result.returncode == 2 and message in result.stderr and result.stdout == ""


def test_session_timeline_in_order(repo) -> None:
    ws, home = repo
    target = ws / "pkg" / "main.ts"
    data = _json("reminders", "--session", "--cwd", str(ws), "--home", str(home), "--agent", "planner", "--read", str(target))
    assert [(e["trigger"], e["label"]) for e in data["timeline"]] == [
        ("start", "at start"),
        ("read", "on reading pkg/main.ts"),
        ("step", "at step 3 of 3"),
    ]
    read = data["timeline"][1]["reminders"]
    single = _json("reminders", str(target), "--cwd", str(ws), "--home", str(home))
    assert [(r["placement"], r["text"]) for r in read] == [(r["placement"], r["text"]) for r in single["reminders"]]
    assert data["timeline"][2]["reminders"][0] == {
        "name": "max-steps",
        "placement": "assistant",
        "text": "[opencode max-steps reminder]",
        "source": "placeholder",
        "verified": True,
    }
    plan = _json("reminders", "--session", "--cwd", str(ws), "--home", str(home), "--agent", "plan", "--switch-to", "build")
    assert [[r["name"] for r in e["reminders"]] for e in plan["timeline"]] == [["plan-mode"], ["build-switch"]]
    claude = _json(
        "reminders",
        "--session",
        "--harness",
        "claude-code",
        "--cwd",
        str(ws),
        "--home",
        str(home),
        "--plan",
        "--read",
        str(target),
    )
    start = [r["name"] for r in claude["timeline"][0]["reminders"]]
    assert start == ["instructions", "plan-mode"]  # the instructions reminder, then plan mode
    text = run("reminders", "--session", "--cwd", str(ws), "--home", str(home), "--agent", "plan").stdout
    assert "at start\n  -- plan-mode (user, placeholder, verified)\n  [opencode plan-mode reminder]" in text


def test_session_with_a_command(repo) -> None:
    ws, home = repo
    write(ws / ".opencode" / "command" / "greet.md", "---\ndescription: Greets\n---\nSay hello to $ARGUMENTS.\n")
    data = _json("reminders", "--session", "--cwd", str(ws), "--home", str(home), "--command", "greet", "--arguments", "Ada")
    assert data["timeline"][1] == {
        "trigger": "command",
        "label": "on typing /greet",
        "command": "greet",
        "reminders": [
            {"name": "command", "placement": "user", "text": "Say hello to Ada.", "source": "workspace", "verified": True}
        ],
    }
    missing = run("reminders", "--session", "--cwd", str(ws), "--home", str(home), "--command", "nope")
    assert missing.returncode == 2 and "opencode has no command 'nope' here (commands: greet)" in missing.stderr


def test_session_with_a_claude_built_in_command(repo) -> None:
    ws, home = repo
    session = ("reminders", "--session", "--harness", "claude-code", "--cwd", str(ws), "--home", str(home))
    init = _json(*session, "--command", "init", "--arguments", " a b ")["timeline"][1]
    assert init["reminders"][0]["text"] == (
        "<command-message>init</command-message>\n<command-name>/init</command-name>\n<command-args>a b</command-args>\n"
        "[Claude Code's built-in /init prompt: not shown]"
    )
    review = _json(*session, "--command", "review")["timeline"][1]  # an alias, run as a subagent: no wrapper
    assert [r["text"] for r in review["reminders"]] == ["[Claude Code's built-in /code-review prompt: not shown]"]
    assert "/review (/code-review) runs as a subagent" in review["note"]
    notes = run(*session, "--command", "release-notes").stdout
    assert "on typing /release-notes\n  Claude Code's built-in /release-notes runs in the interactive UI only" in notes
    assert "(nothing added)" not in notes.split("on typing")[1]
    assert _json(*session, "--command", "cost")["timeline"][1]["reminders"] == []
    write(ws / ".claude" / "commands" / "init.md", "Our own init.\n")  # a command of the name wins
    assert _json(*session, "--command", "init")["timeline"][1]["reminders"][0]["text"].endswith("Our own init.\n")
    upper = run(*session, "--command", "INIT")  # names are matched as typed
    assert upper.returncode == 2 and "Claude Code has no command 'INIT' here" in upper.stderr


def test_reminders_needs_a_file_or_the_session(repo) -> None:
    ws, home = repo
    result = run("reminders", "--cwd", str(ws), "--home", str(home))
    assert result.returncode == 2 and "reminders needs FILE (or --session)" in result.stderr


def test_hostile_definition_files_never_crash_or_hang(repo) -> None:
    ws, home = repo
    skills = ws / ".agents" / "skills"
    write(skills / "binary" / "SKILL.md", b"\x00\xff\x00" * 100)
    write(skills / "latin1" / "SKILL.md", b"---\nname: caf\xe9\ndescription: d\xe9j\xe0\n---\n")
    write(skills / "huge" / "SKILL.md", "---\nname: huge\ndescription: " + "x" * 300_000 + "\n---\n")
    write(skills / "deep" / "SKILL.md", "---\nname: " + "[" * 5000 + "\n---\n")
    os.mkfifo(skills / "fifo")
    (skills / "fifo-skill").mkdir()
    os.mkfifo(skills / "fifo-skill" / "SKILL.md")
    os.symlink("loop", skills / "loop")
    os.symlink("..", skills / "up")  # a cycle through a symlinked directory
    for harness in ("opencode", "codex", "claude-code", "gemini"):
        data = _json("agents", "--harness", harness, "--cwd", str(ws), "--home", str(home))
        assert data["harnesses"][0]["harness"] == harness
    check = run("check", str(ws), "--home", str(home), "--format", "json", "--fail-on", "never")
    assert check.returncode == 0, check.stderr
    invalid = {f["path"] for f in json.loads(check.stdout)["findings"] if f["code"] == "invalid-definition"}
    # A binary file is dropped; a FIFO is no file to any harness; a header past the parser's bound is not judged.
    assert ".agents/skills/binary/SKILL.md" in invalid
    assert not invalid & {".agents/skills/fifo-skill/SKILL.md", ".agents/skills/huge/SKILL.md"}


@pytest.mark.parametrize(("harness", "folder"), [("gemini", ".gemini"), ("qwen", ".qwen")])
def test_a_command_file_nested_too_deep_is_dropped_not_a_crash(repo, harness: str, folder: str) -> None:
    """A `.toml` command whose arrays nest 50,000 deep: the command is not loaded, and said so."""
    ws, home = repo
    write(ws / folder / "commands" / "deep.toml", "prompt = " + "[" * 50_000 + "\n")
    write(ws / folder / "commands" / "ok.toml", 'prompt = "Fine: {{args}}"\n')
    data = _json("agents", "--harness", harness, "--cwd", str(ws), "--home", str(home))
    commands = {d["name"]: d for h in data["harnesses"] for d in h["definitions"] if d["kind"] == "command"}
    assert "nested too deeply" in json.dumps(commands["deep"]["issues"]) and not commands["ok"]["issues"]


def test_a_codex_agent_file_nested_too_deep_is_dropped_not_a_crash(repo) -> None:
    """`.codex/agents/*.toml` is workspace text too: 50,000 nested arrays make the agent invalid,
    and `check` goes on."""
    ws, home = repo
    write(ws / ".codex" / "agents" / "deep.toml", "name = " + "[" * 50_000 + "]" * 50_000 + "\n")
    check = run("check", str(ws), "--home", str(home), "--format", "json", "--fail-on", "never", "--harness", "codex")
    assert check.returncode == 0, check.stderr
    found = [f for f in json.loads(check.stdout)["findings"] if f["path"] == ".codex/agents/deep.toml"]
    assert [f["code"] for f in found] == ["invalid-definition"] and "nested too deeply" in found[0]["message"]


def _typed(ws: Path, home: Path, harness: str, name: str) -> str:
    return _typed_reminders(ws, home, harness, name)["command"]


def _typed_reminders(ws: Path, home: Path, harness: str, name: str) -> dict[str, str]:
    data = _json("reminders", "--session", "--harness", harness, "--cwd", str(ws), "--home", str(home), "--command", name)
    event = next(e for e in data["timeline"] if e["trigger"] == "command")
    return {r["name"]: r["text"] for r in event["reminders"]}


def _with_a_secret_outside(tmp_path: Path) -> tuple[Path, Path, Path]:
    """A git workspace, an empty home, and a folder beside them holding `secret.txt`."""
    ws, home, outside = tmp_path / "ws", tmp_path / "home", tmp_path / "outside"
    (ws / ".git").mkdir(parents=True)
    home.mkdir()
    write(outside / "secret.txt", "OUTSIDE SECRET\n")
    return ws, home, outside


def test_command_injections_never_run_a_command_or_read_outside(tmp_path: Path) -> None:
    """`!{…}` is a placeholder, never run; `@{…}` reads inside the launch directory only: a path or a
    symlink leading out stays as written (Gemini CLI) or is a placeholder (Qwen Code, which inlines it)."""
    ws, home, outside = _with_a_secret_outside(tmp_path)
    write(ws / "notes.txt", "inside notes\n")
    (ws / "link.txt").symlink_to(outside / "secret.txt")
    marker = tmp_path / "ran"
    prompt = (
        f"Run !{{touch {marker}}} then @{{notes.txt}}, @{{../outside/secret.txt}}, @{{link.txt}} and @{{{outside}/secret.txt}}."
    )
    for folder in (".gemini", ".qwen"):
        write(ws / folder / "commands" / "probe.toml", f"prompt = {json.dumps(prompt)}\n")
    gemini = _typed(ws, home, "gemini", "probe")
    assert gemini == (
        f"Run [output of `touch {marker}`: run by Gemini CLI, not shown] then inside notes\n, @{{../outside/secret.txt}}, "
        f"@{{link.txt}} and @{{{outside}/secret.txt}}."
    )
    qwen = _typed(ws, home, "qwen", "probe")
    assert qwen == (
        f"Run [output of `touch {marker}`: run by Qwen Code, not shown] then inside notes\n, "
        "[content of `../outside/secret.txt`: outside the workspace, inlined by Qwen Code, not read], "
        "[content of `link.txt`: outside the workspace, inlined by Qwen Code, not read] "
        f"and @{{{outside}/secret.txt}}."
    )
    assert not marker.exists()


def test_claude_shell_markers_are_placeholders_never_run(tmp_path: Path) -> None:
    ws, home, marker = tmp_path / "ws", tmp_path / "home", tmp_path / "ran"
    (ws / ".git").mkdir(parents=True)
    home.mkdir()
    write(
        ws / ".claude" / "commands" / "probe.md", f"Now !`touch {marker}`\n```!\ntouch {marker}\n```\nInline `!`touch x`` stays\n"
    )
    assert _typed(ws, home, "claude-code", "probe") == (
        "<command-message>probe</command-message>\n<command-name>/probe</command-name>\n"
        f"Now [output of `touch {marker}`: run by Claude Code, not shown]\n"
        f"[output of `touch {marker}`: run by Claude Code, not shown]\nInline `!`touch x`` stays\n"
    )
    assert not marker.exists()


def test_claude_mentions_read_inside_only(tmp_path: Path) -> None:
    """An `@path` in a Claude Code command: a file inside the launch directory is sent as the CLI's
    Read call and numbered result; a path leading out (`..`, absolute, `~`, a symlink) is a
    placeholder, never read; a missing path and a FIFO send nothing."""
    ws, home, outside = tmp_path / "ws", tmp_path / "home", tmp_path / "outside"
    (ws / ".git").mkdir(parents=True)
    write(home / "h.txt", "HOME SECRET\n")
    write(outside / "secret.txt", "OUTSIDE SECRET\n")
    write(ws / "notes.txt", "one\r\ntwo\n")
    (ws / "link.txt").symlink_to(outside / "secret.txt")
    os.mkfifo(ws / "pipe")
    body = f"See @notes.txt#L2, @../outside/secret.txt @{outside}/secret.txt @~/h.txt @link.txt @pipe @gone.txt."
    write(ws / ".claude" / "commands" / "probe.md", body + "\n")
    sent = _typed_reminders(ws, home, "claude-code", "probe")
    assert "SECRET" not in json.dumps(sent)
    assert sent["mentions"] == "\n".join(
        [
            f'<system-reminder>\nCalled the Read tool with the following input: {{"file_path":"{ws}/notes.txt","offset":2,"limit":1}}\n</system-reminder>',
            "<system-reminder>\nResult of calling the Read tool:\n2\ttwo\n</system-reminder>",
            *(
                f"[content of `{path}`: outside the workspace, read by Claude Code, not read]"
                for path in (outside / "secret.txt", outside / "secret.txt", home / "h.txt", ws / "link.txt")
            ),
        ]
    )
    assert sent["command"].endswith(body + "\n")


def test_folder_injection_reads_inside_only(tmp_path: Path) -> None:
    """`@{folder}`: its files in the CLI's framing, `.git` and ignored files left out; a symlink
    leading out is skipped (Gemini CLI) or a placeholder (Qwen Code): never read."""
    ws, home, outside = tmp_path / "ws", tmp_path / "home", tmp_path / "outside"
    write(ws / ".git" / "config", "GIT CONFIG\n")
    home.mkdir()
    write(outside / "secret.txt", "OUTSIDE SECRET\n")
    write(ws / "docs" / "a.txt", "A\n")
    write(ws / "docs" / "skip.log", "LOG\n")
    write(ws / ".gitignore", "*.log\n")
    (ws / "docs" / "out.txt").symlink_to(outside / "secret.txt")
    for folder in (".gemini", ".qwen"):
        write(ws / folder / "commands" / "all.toml", 'prompt = "@{docs}|@{.git}"\n')
    gemini = _typed(ws, home, "gemini", "all")
    assert gemini == (
        "--- Start of content for directory: docs ---\n--- Skipped out.txt: traverses outside workspace ---\n\n"
        "--- a.txt ---\nA\n\n--- End of content for directory: docs ---|@{.git}"
    )
    qwen = _typed(ws, home, "qwen", "all")
    assert "OUTSIDE SECRET" not in qwen and "GIT CONFIG" not in qwen
    assert "--- out.txt ---\n[content of `out.txt`: outside the workspace, inlined by Qwen Code, not read]\n" in qwen


def test_gemini_line_references_read_inside_only(tmp_path: Path) -> None:
    """A Gemini CLI line no command takes: its `@path` references inside the launch directory are read
    (a FIFO a placeholder, never opened); a path or symlink leading out is left as typed, never read; a
    line whose references read nothing is sent as typed (no command)."""
    ws, home, outside = _with_a_secret_outside(tmp_path)
    write(ws / "notes.txt", "  inside notes\r\n\n")
    (ws / "link.txt").symlink_to(outside / "secret.txt")
    (ws / "zero").symlink_to("/dev/zero")
    os.mkfifo(ws / "pipe")
    common = ("reminders", "--session", "--harness", "gemini", "--cwd", str(ws), "--home", str(home), "--command", "look")
    line = f"see @notes.txt, @../outside/secret.txt @{outside}/secret.txt x@link.txt @zero @pipe @gone.txt"
    data = _json(*common, "--arguments", line)
    sent = next(e for e in data["timeline"] if e["trigger"] == "command")["reminders"][0]["text"]
    assert sent == (
        f"/look see @notes.txt, @../outside/secret.txt @{outside}/secret.txt x @link.txt @zero @pipe @gone.txt"
        "\n--- Content from referenced files ---\nContent from @notes.txt:\ninside notes"
        "\nContent from @pipe:\n[content of `pipe` as Gemini CLI reads it: not modelled]\n--- End of content ---"
    )
    typed = run(*common, "--arguments", f"see @gone.txt @link.txt @{outside}/secret.txt")
    assert typed.returncode == 2 and "Gemini CLI has no command 'look' here" in typed.stderr


def test_hostile_injections_never_hang(tmp_path: Path) -> None:
    """A FIFO, a symlink to /dev/zero, /proc and an unclosed injection: answered, nothing opened."""
    ws, home = tmp_path / "ws", tmp_path / "home"
    (ws / ".git").mkdir(parents=True)
    home.mkdir()
    os.mkfifo(ws / "pipe")
    (ws / "zero").symlink_to("/dev/zero")
    write(ws / ".gemini" / "commands" / "bad.toml", 'prompt = "@{pipe}|@{zero}|@{/proc/self/environ}"\n')
    write(ws / ".gemini" / "commands" / "open.toml", 'prompt = "A @{notes"\n')
    assert _typed(ws, home, "gemini", "bad") == (
        "[content of `pipe` as Gemini CLI inlines it: not modelled]|@{zero}|@{/proc/self/environ}"
    )
    assert _typed(ws, home, "gemini", "open") == (
        "[Gemini CLI does not send this command: the injection at index 2 ('@{') is not closed]"
    )


def test_qwen_skills_typed_from_the_source_alone(tmp_path: Path) -> None:
    """Qwen Code's typed skills where no capture reaches (`parseStackedSlashCommands`, `skillArgsPath`,
    `BundledSkillLoader`): at most five skills stacked, the arguments file's name made safe, a bundled
    skill hidden from the model typed, a skill the user may not type refused (and not stacked)."""
    ws, home = tmp_path / "ws", tmp_path / "home"
    home.mkdir()
    for name in ("a", "b", "c", "d", "e", "f", "ns:tool"):
        folder = name.replace(":", "-")
        write(ws / ".qwen" / "skills" / folder / "SKILL.md", f"---\nname: {name}\ndescription: D\n---\n{name.upper()}\n")
    write(ws / ".qwen" / "skills" / "locked" / "SKILL.md", "---\nname: locked\ndescription: D\nuser-invocable: false\n---\nL\n")

    def typed(name: str, arguments: str) -> str:
        data = _json(
            "reminders",
            "--session",
            "--harness",
            "qwen",
            "--cwd",
            str(ws),
            "--home",
            str(home),
            "--command",
            name,
            "--arguments",
            arguments,
        )
        return next(e for e in data["timeline"] if e["trigger"] == "command")["reminders"][-1]["text"]

    stacked = typed("a", "/b /c /d /e /f rest")
    assert [line for line in stacked.split("\n") if len(line) == 1] == ["A", "B", "C", "D", "E"]
    assert stacked.endswith("\nE\n/f rest")
    assert "<skill-args-file>.qwen/tmp/s-[Qwen Code session id]/qwen-skill-args-ns_tool.txt</skill-args-file>" in typed(
        "ns:tool", "x"
    )
    assert "[body of Qwen Code's bundled skill `coordinate`: vendor text, not shown]\n" in typed("coordinate", "")
    assert "does not send this command: the skill has `user-invocable: false`" in typed("locked", "x")
    assert typed("a", "/locked x").endswith(
        "\n\n/a /locked x\n\n[Qwen Code's note on the arguments file: vendor text, not shown]\n"
        "<skill-args-file>.qwen/tmp/s-[Qwen Code session id]/qwen-skill-args-a.txt</skill-args-file>\n<skill-args>/locked x</skill-args>\n"
    )
