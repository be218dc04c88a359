"""The CLI contract, exercised as a subprocess: output shapes, defaults, exit codes, messages."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import cli_process
import pytest


def run(*args: str, cwd: Path | None = None, env: dict | None = None) -> subprocess.CompletedProcess:
    return cli_process.run(list(args), cwd=cwd, timeout=60, env={**os.environ, **(env or {})})


@pytest.fixture
def repo(tmp_path: Path) -> tuple[Path, Path]:
    ws, home = tmp_path / "ws", tmp_path / "home"
    (ws / ".git").mkdir(parents=True)
    (ws / "pkg" / "src").mkdir(parents=True)
    (ws / "AGENTS.md").write_text("# root\nROOT\n")
    (ws / "pkg" / "AGENTS.md").write_text("# pkg\nPKG\n")
    (ws / "pkg" / "src" / "main.ts").write_text("export {}\n")
    (home / ".codex").mkdir(parents=True)
    (home / ".codex" / "AGENTS.md").write_text("GLOBAL CODEX\n")
    return ws, home


def test_version() -> None:
    from lsp_agents import __version__

    result = run("--version")
    assert result.returncode == 0
    assert result.stdout.strip() == f"lsp-agents {__version__}"


def test_prompt_json_shape_and_absolute_paths(repo) -> None:
    ws, home = repo
    result = run("prompt", "--harness", "codex", "--cwd", str(ws / "pkg"), "--home", str(home), "--format", "json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert set(data) == {"harness", "cwd", "eager", "files", "total", "layers"}
    assert data["harness"] == "codex" and data["cwd"] == str(ws / "pkg")
    assert [b["placement"] for b in data["eager"]] == ["user"]
    assert data["eager"][0]["text"].startswith(f"# AGENTS.md instructions for {ws / 'pkg'}\n\n<INSTRUCTIONS>\nGLOBAL CODEX")
    assert [(f["path"], f["role"], f["loaded"]) for f in data["files"]] == [
        (str(home / ".codex" / "AGENTS.md"), "global", True),
        (str(ws / "AGENTS.md"), "project", True),
        (str(ws / "pkg" / "AGENTS.md"), "project", True),
    ]
    for entry in data["files"]:
        assert set(entry) >= {"path", "role", "loaded", "bytes", "tokens", "size", "truncated_at", "truncated_line", "reason"}
        assert os.path.isabs(entry["path"])
        assert entry["bytes"] == entry["size"] == os.path.getsize(entry["path"])  # nothing is cut here
    assert data["total"] == {
        "files": 3,
        "bytes": sum(f["bytes"] for f in data["files"]),
        "tokens": sum(f["tokens"] for f in data["files"]),
    }
    assert data["layers"] == []


def test_prompt_defaults_to_opencode_in_the_current_directory(repo) -> None:
    ws, home = repo
    result = run("prompt", "--home", str(home), "--format", "json", cwd=ws / "pkg" / "src")
    data = json.loads(result.stdout)
    assert data["harness"] == "opencode"
    assert data["cwd"] == str(ws / "pkg" / "src")
    assert "Instructions from: " + str(ws / "pkg" / "AGENTS.md") in data["eager"][0]["text"]


def test_prompt_layers_all(repo, tmp_path: Path) -> None:
    ws, home = repo
    base = tmp_path / "base.txt"
    base.write_text("You are a careful engineer.")
    plain = json.loads(run("prompt", "--cwd", str(ws), "--home", str(home), "--format", "json", "--layers", "all").stdout)
    # opencode's order: base, environment, instructions, then the skills listing (its built-in
    # skill at least) and the task tool's agents listing.
    assert [layer["name"] for layer in plain["layers"]] == ["base", "environment", "instructions", "skills", "agents"]
    assert plain["layers"][0]["text"] == "[opencode base prompt]"
    assert f"Working directory: {ws}" in plain["layers"][1]["text"]
    assert "Is directory a git repo: yes" in plain["layers"][1]["text"]
    assert plain["layers"][2]["text"] == plain["eager"][0]["text"]
    custom = json.loads(
        run(
            "prompt", "--cwd", str(ws), "--home", str(home), "--format", "json", "--layers", "all", "--base-prompt", str(base)
        ).stdout
    )
    assert custom["layers"][0]["text"] == "You are a careful engineer."


def test_reminders_json_and_loaded(repo) -> None:
    ws, home = repo
    target = ws / "pkg" / "src" / "main.ts"
    first = json.loads(run("reminders", str(target), "--cwd", str(ws), "--home", str(home), "--format", "json").stdout)
    assert set(first) == {"harness", "cwd", "read", "reminders", "files", "total"}
    assert first["read"] == str(target)
    assert [r["placement"] for r in first["reminders"]] == ["tool-result"]
    assert str(ws / "pkg" / "AGENTS.md") in first["reminders"][0]["text"]
    again = json.loads(
        run(
            "reminders",
            str(target),
            "--cwd",
            str(ws),
            "--home",
            str(home),
            "--format",
            "json",
            "--loaded",
            str(ws / "pkg" / "AGENTS.md"),
        ).stdout
    )
    assert again["reminders"] == []
    assert [(f["path"], f["reason"]) for f in again["files"]] == [(str(ws / "pkg" / "AGENTS.md"), "already-loaded")]
    assert again["files"][0]["explanation"] == "already sent earlier in the session"
    assert (again["files"][0]["bytes"], again["total"]) == (0, {"files": 0, "bytes": 0, "tokens": 0})


def test_cascade_json_and_text(repo) -> None:
    ws, home = repo
    target = ws / "pkg" / "src" / "main.ts"
    data = json.loads(
        run("cascade", str(target), "--harness", "all", "--cwd", str(ws), "--home", str(home), "--format", "json").stdout
    )
    assert data["file"] == str(target) and data["cwd"] == str(ws)
    by_id = {h["harness"]: h for h in data["harnesses"]}
    assert {"opencode", "codex"} <= set(by_id)
    assert by_id["opencode"]["verified"] is True
    assert [e["path"] for e in by_id["opencode"]["on_read"]] == [str(ws / "pkg" / "AGENTS.md")]
    assert [e["path"] for e in by_id["codex"]["eager"]] == [str(home / ".codex" / "AGENTS.md"), str(ws / "AGENTS.md")]
    assert by_id["codex"]["on_read"] == []
    for entry in by_id["codex"]["eager"]:
        assert set(entry) == {"path", "role", "bytes", "tokens", "size", "truncated_at", "truncated_line"}
        assert entry["tokens"] == -(-entry["bytes"] // 4)
    for skipped in by_id["opencode"]["not_loaded"]:
        assert skipped["explanation"] and skipped["explanation"] != skipped["reason"]
    text = run("cascade", str(target), "--harness", "codex", "--cwd", str(ws), "--home", str(home))
    assert text.returncode == 0
    total = by_id["codex"]["total"]
    assert f"codex — 2 files · {total['bytes']:,} B · ~{total['tokens']:,} tokens · verified against 0.171.0" in text.stdout
    assert "at start" in text.stdout and "AGENTS.md" in text.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["prompt", "--harness", "nope"], "argument --harness: invalid choice: 'nope'"),
        (["cascade", "missing.ts"], "no such file: missing.ts"),
        (["reminders", "missing.ts"], "no such file: missing.ts"),
        (["prompt", "--cwd", "/definitely/not/here"], "--cwd '/definitely/not/here' is not a directory"),
        (["cascade", "pkg"], "pkg is a directory; expected a file"),
        (["reminders", "pkg/src"], "pkg/src is a directory; expected a file"),
        (["reminders", "pkg/src/main.ts", "--read-before", "gone.ts"], "no such file: gone.ts"),
    ],
)
def test_usage_errors_are_one_line_and_exit_2(repo, args, message) -> None:
    ws, home = repo
    result = run(*args, "--home", str(home), cwd=ws)
    assert result.returncode == 2
    assert len(result.stderr.splitlines()) == 1
    assert result.stderr.startswith(f"lsp-agents: error: {message}")
    assert "Traceback" not in result.stderr and result.stdout == ""


def _port_in_use():
    import socket

    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    return listener


@pytest.mark.parametrize(
    ("address", "message"),
    [
        ("127.0.0.1:99999", "--tcp expects HOST:PORT with a port from 1 to 65535"),
        ("2087", "--tcp expects HOST:PORT"),
        ("no-such-host.invalid:2087", "cannot listen on no-such-host.invalid:2087: "),
        ("in-use", "cannot listen on 127.0.0.1:"),
    ],
)
def test_serve_address_errors_are_one_line_and_exit_2(address, message) -> None:
    listener = _port_in_use()
    try:
        if address == "in-use":
            address = f"127.0.0.1:{listener.getsockname()[1]}"
        result = run("serve", "--tcp", address)
    finally:
        listener.close()
    assert result.returncode == 2, result.stderr
    assert len(result.stderr.splitlines()) == 1 and result.stderr.startswith(f"lsp-agents: error: {message}")


def test_file_names_that_are_not_utf8_are_escaped_reversibly(repo) -> None:
    """A name byte that is not UTF-8 becomes \\udcHH in JSON (os.fsencode restores it) and %HH in URIs."""
    ws, home = repo
    bad = os.path.join(os.fsencode(ws), b"dir-\xff")
    os.mkdir(bad)
    with open(os.path.join(bad, b"AGENTS.md"), "wb") as handle:
        handle.write(b"# bad name\n- keep every function short please\n- keep every function short please\n")
    target = os.path.join(bad, b"x.ts")
    open(target, "wb").close()
    completed = subprocess.run(
        [sys.executable, "-m", "lsp_agents", "cascade", target, "--cwd", str(ws), "--home", str(home), "--format", "json"],
        capture_output=True,
        timeout=60,
    )
    assert completed.returncode == 0, completed.stderr
    assert b"\\udcff" in completed.stdout
    result = json.loads(completed.stdout.decode("utf-8"))  # strict: the output is valid UTF-8
    assert os.fsencode(result["file"]) == target
    loaded = [e["path"] for h in result["harnesses"] for e in h["eager"] + h["on_read"]]
    assert os.fsencode(os.path.dirname(loaded[-1])) == bad
    sarif = subprocess.run(
        [sys.executable, "-m", "lsp_agents", "check", str(ws), "--home", str(home), "--format", "sarif", "--fail-on", "never"],
        capture_output=True,
        timeout=60,
    )
    uris = {
        r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        for r in json.loads(sarif.stdout.decode("utf-8"))["runs"][0]["results"]
    }
    assert "dir-%FF/AGENTS.md" in uris
    text = subprocess.run(
        [sys.executable, "-m", "lsp_agents", "check", str(ws), "--home", str(home), "--fail-on", "never"],
        capture_output=True,
        timeout=60,
    )
    assert "dir-\\udcff/AGENTS.md:" in text.stdout.decode("utf-8")


def test_malformed_codex_config_warns_once_and_uses_defaults(repo) -> None:
    ws, home = repo
    (home / ".codex" / "config.toml").write_text('model = "x"\nproject_doc_max_bytes = = 3\n')
    result = run("prompt", "--harness", "codex", "--cwd", str(ws), "--home", str(home), "--format", "json")
    assert result.returncode == 0
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith(f"warning: {home / '.codex' / 'config.toml'}:2: invalid TOML")
    assert "ROOT" in json.loads(result.stdout)["eager"][0]["text"]  # default budget, not 3 bytes
    other = run("prompt", "--harness", "opencode", "--cwd", str(ws), "--home", str(home))
    assert other.returncode == 0 and other.stderr == ""


def test_opencode_lists_glob_matches_in_reversed_directory_order(repo) -> None:
    """opencode's glob returns matches in reverse readdir order (oracle: opencode-glob-order)."""
    ws, home = repo
    docs = ws / "docs"
    docs.mkdir()
    for name in ("b-second.md", "_under.md", "B-upper.md", "c-third.md", "a-first.md"):
        (docs / name).write_text(f"# {name}\n")
    (ws / "opencode.json").write_text('{"instructions": ["docs/*.md"]}')
    data = json.loads(run("prompt", "--cwd", str(ws), "--home", str(home), "--format", "json").stdout)
    config_files = [f["path"] for f in data["files"] if f["role"] == "config"]
    assert config_files == [str(docs / name) for name in reversed(os.listdir(docs))]


@pytest.mark.parametrize(
    ("harness", "relative", "content", "line", "outcome"),
    [
        # Gemini CLI strips comments, then JSON.parse fails on the trailing comma: it does not start.
        (
            "gemini",
            ".gemini/settings.json",
            '{\n  // comments are fine\n  "context": {"fileName": ["A.md"],}\n}\n',
            3,
            "Gemini CLI exits without starting",
        ),
        ("opencode", ".config/opencode/opencode.json", '{\n  "instructions": ["a.md",,]\n}\n', 2, "using defaults"),
    ],
)
def test_malformed_json_config_warns_with_line(repo, harness, relative, content, line, outcome) -> None:
    ws, home = repo
    (home / relative).parent.mkdir(parents=True, exist_ok=True)
    (home / relative).write_text(content)
    (ws / "GEMINI.md").write_text("# gemini\n")
    result = run("prompt", "--harness", harness, "--cwd", str(ws), "--home", str(home), "--format", "json")
    assert result.returncode == 0
    assert result.stderr.splitlines() == [result.stderr.splitlines()[0]]
    assert result.stderr.startswith(f"warning: {home / relative}:{line}: invalid JSON")
    assert result.stderr.rstrip().endswith(outcome)
    assert bool(json.loads(result.stdout)["eager"]) == (harness != "gemini"), "defaults, or nothing at all"
    assert run("prompt", "--harness", "codex", "--cwd", str(ws), "--home", str(home)).stderr == ""


def test_remote_instructions_are_fetched_only_when_asked(repo) -> None:
    import http.server
    import threading

    class Handler(http.server.BaseHTTPRequestHandler):
        hits = 0

        def do_GET(self) -> None:
            Handler.hits += 1
            body = b"# remote rules\nREMOTE-MARKER\n"
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args) -> None:
            pass

    server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        ws, home = repo
        url = f"http://127.0.0.1:{server.server_port}/rules.md"
        (ws / "opencode.json").write_text(json.dumps({"instructions": [url]}))
        listed = json.loads(run("prompt", "--cwd", str(ws), "--home", str(home), "--format", "json").stdout)
        assert {"path": url, "role": "remote", "loaded": False, "reason": "remote-not-fetched"}.items() <= next(
            f for f in listed["files"] if f["path"] == url
        ).items()
        assert Handler.hits == 0
        fetched = json.loads(run("prompt", "--cwd", str(ws), "--home", str(home), "--format", "json", "--fetch-remote").stdout)
        assert Handler.hits == 1
        assert fetched["eager"][0]["text"].endswith(f"\nInstructions from: {url}\n# remote rules\nREMOTE-MARKER\n")
    finally:
        server.shutdown()


def test_files_above_the_boundary_are_reported_not_loaded(tmp_path: Path) -> None:
    """Codex, opencode and Gemini stop at the repository root; what lies above is outside-boundary."""
    outer, repo, home = tmp_path / "outer", tmp_path / "outer" / "repo", tmp_path / "home"
    (repo / ".git").mkdir(parents=True)
    home.mkdir()
    for name in ("AGENTS.md", "GEMINI.md"):
        (outer / name).write_text(f"# outer {name}\n")
        (repo / name).write_text(f"# repo {name}\n")
    for harness, name in (("codex", "AGENTS.md"), ("opencode", "AGENTS.md"), ("gemini", "GEMINI.md")):
        data = json.loads(run("prompt", "--harness", harness, "--cwd", str(repo), "--home", str(home), "--format", "json").stdout)
        verdicts = {f["path"]: (f["loaded"], f["reason"]) for f in data["files"]}
        assert verdicts[str(repo / name)] == (True, None), harness
        assert verdicts[str(outer / name)] == (False, "outside-boundary"), harness
        assert "# outer" not in "".join(b["text"] for b in data["eager"]), harness
