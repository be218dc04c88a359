"""Bad input through the real CLI: a structured reason for every bad file, never a crash or hang.

Each case plants the same kind of bad file as bad/AGENTS.md, bad/CLAUDE.md and bad/GEMINI.md,
launches every harness in bad/, and checks what each one reports for it. A subprocess timeout
turns a hang into a failure.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

NAMES = ("AGENTS.md", "CLAUDE.md", "GEMINI.md")
# The file of each verified harness that the bad directory offers it.
OWN_FILE = {
    "opencode": "AGENTS.md",
    "codex": "AGENTS.md",
    "claude-code": "CLAUDE.md",
    "gemini": "GEMINI.md",
    "agents-md": "AGENTS.md",
    "copilot": "AGENTS.md",
    "cursor": "AGENTS.md",
}


def cascade(ws: Path, home: Path, *, prefix: tuple[str, ...] = ()) -> dict:
    completed = subprocess.run(
        [
            *prefix,
            sys.executable,
            "-m",
            "lsp_agents",
            "cascade",
            str(ws / "bad" / "x.ts"),
            "--harness",
            "all",
            "--cwd",
            str(ws / "bad"),
            "--home",
            str(home),
            "--format",
            "json",
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert completed.returncode == 0, completed.stderr
    assert "Traceback" not in completed.stderr
    return json.loads(completed.stdout)


def verdicts(result: dict, ws: Path) -> dict[str, dict[str, str | None]]:
    """harness → {file name in bad/ → reason (None when loaded)}."""
    out: dict[str, dict[str, str | None]] = {}
    for entry in result["harnesses"]:
        seen = out.setdefault(entry["harness"], {})
        for item in entry["eager"] + entry["on_read"]:
            if Path(item["path"]).parent == ws / "bad":
                seen[Path(item["path"]).name] = None
        for item in entry["not_loaded"]:
            if Path(item["path"]).parent == ws / "bad":
                seen.setdefault(Path(item["path"]).name, item["reason"])
    return out


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    (root / ".git").mkdir(parents=True)
    (root / "bad").mkdir()
    (root / "AGENTS.md").write_text("# root\nROOT-MARKER\n")
    (root / "bad" / "x.ts").write_text("export {}\n")
    (tmp_path / "home").mkdir()
    return root


@pytest.mark.parametrize(
    ("kind", "plant", "reason"),
    [
        ("fifo", lambda p: os.mkfifo(p), "not-regular-file"),
        ("symlink loop", lambda p: os.symlink(p.name, p), "symlink-loop"),
        ("directory", lambda p: p.mkdir(), "not-regular-file"),
    ],
)
def test_unreadable_kinds_get_a_reason_from_every_harness(ws: Path, kind, plant, reason) -> None:
    for name in NAMES:
        plant(ws / "bad" / name)
    found = verdicts(cascade(ws, ws.parent / "home"), ws)
    for harness, own in OWN_FILE.items():
        assert found[harness].get(own) == reason, (kind, harness, found[harness])


def test_permission_denied(ws: Path) -> None:
    """As root, a user namespace without the file's owner makes permissions bite for real."""
    for name in NAMES:
        (ws / "bad" / name).write_text("# secret\n")
        (ws / "bad" / name).chmod(0)
    prefix: tuple[str, ...] = ()
    if os.geteuid() == 0:
        unshare = shutil.which("unshare")
        if unshare is None or subprocess.run([unshare, "-U", "true"], capture_output=True).returncode != 0:
            pytest.skip("running as root without user namespaces: permissions cannot be denied")
        prefix = (unshare, "-U")
    found = verdicts(cascade(ws, ws.parent / "home", prefix=prefix), ws)
    for harness, own in OWN_FILE.items():
        assert found[harness].get(own) == "permission-denied", (harness, found[harness])


def test_fifo_import_does_not_block(ws: Path) -> None:
    os.mkfifo(ws / "bad" / "pipe.md")
    (ws / "bad" / "CLAUDE.md").write_text("# bad\n@pipe.md\n")
    (ws / "bad" / "GEMINI.md").write_text("# bad\n@pipe.md\n")
    result = cascade(ws, ws.parent / "home")
    claude = next(h for h in result["harnesses"] if h["harness"] == "claude-code")
    pipe = next(e for e in claude["not_loaded"] if e["path"] == str(ws / "bad" / "pipe.md"))
    assert (pipe["role"], pipe["reason"], pipe["related"]) == ("import", "not-regular-file", str(ws / "bad" / "CLAUDE.md"))


def test_fifty_megabyte_files(ws: Path) -> None:
    chunk = ("# huge\n" + "a line of a very large instruction file\n" * 1000).encode()
    for name in NAMES:
        with open(ws / "bad" / name, "wb") as handle:
            for _ in range(50 * 1024 * 1024 // len(chunk) + 1):
                handle.write(chunk)
    result = cascade(ws, ws.parent / "home")
    found = verdicts(result, ws)
    assert found["claude-code"]["CLAUDE.md"] == "too-large"  # Claude skips files over 4 MiB
    assert found["opencode"]["AGENTS.md"] == "too-large"  # past lsp-agents' 16 MiB read cap
    assert found["gemini"]["GEMINI.md"] == "too-large"
    codex = next(h for h in result["harnesses"] if h["harness"] == "codex")
    huge = next(e for e in codex["eager"] if e["path"] == str(ws / "bad" / "AGENTS.md"))
    root_size = (ws / "AGENTS.md").stat().st_size
    assert huge["bytes"] == 32 * 1024 - root_size  # the shared budget cuts it


def test_invalid_utf8_is_sent_with_replacement_characters(ws: Path) -> None:
    (ws / "bad" / "AGENTS.md").write_bytes(b"# bad bytes\nBAD \xff\xfe\xc3 END\n")
    completed = subprocess.run(
        [
            sys.executable,
            "-m",
            "lsp_agents",
            "prompt",
            "--harness",
            "codex",
            "--cwd",
            str(ws / "bad"),
            "--home",
            str(ws.parent / "home"),
            "--format",
            "json",
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert completed.returncode == 0
    assert "BAD \ufffd\ufffd\ufffd END" in json.loads(completed.stdout)["eager"][0]["text"]


def test_import_cycles_and_deep_chains_terminate(ws: Path) -> None:
    bad = ws / "bad"
    (bad / "CLAUDE.md").write_text("@a.md\n@chain0.md\n")
    (bad / "GEMINI.md").write_text("@a.md\n@chain0.md\n")
    (bad / "a.md").write_text("A\n@b.md\n")
    (bad / "b.md").write_text("B\n@a.md\n")
    for i in range(200):
        (bad / f"chain{i}.md").write_text(f"chain {i}\n@chain{i + 1}.md\n")
    result = cascade(ws, ws.parent / "home")
    claude = next(h for h in result["harnesses"] if h["harness"] == "claude-code")
    reasons = {(Path(e["path"]).name, e["reason"]) for e in claude["not_loaded"]}
    assert ("a.md", "import-cycle") in reasons
    assert ("chain4.md", "import-too-deep") in reasons
    gemini = next(h for h in result["harnesses"] if h["harness"] == "gemini")
    assert ("chain5.md", "import-too-deep") in {(Path(e["path"]).name, e["reason"]) for e in gemini["not_loaded"]}


def test_glob_bombs_are_reported_not_evaluated(ws: Path) -> None:
    bomb = "{a,b}" * 30 + "/*.md"  # 2**30 alternatives
    (ws / "opencode.json").write_text(json.dumps({"instructions": [bomb, "x" * 5000]}))
    rules = ws / "bad" / ".claude" / "rules"
    rules.mkdir(parents=True)
    (rules / "bomb.md").write_text(f'---\npaths: "{bomb}"\n---\nRULE\n')
    completed = subprocess.run(
        [
            sys.executable,
            "-m",
            "lsp_agents",
            "cascade",
            str(ws / "bad" / "x.ts"),
            "--harness",
            "all",
            "--cwd",
            str(ws),
            "--home",
            str(ws.parent / "home"),
            "--format",
            "json",
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert completed.returncode == 0, completed.stderr
    result = json.loads(completed.stdout)
    opencode = next(h for h in result["harnesses"] if h["harness"] == "opencode")
    assert [e["reason"] for e in opencode["not_loaded"] if e["role"] == "config"] == ["glob-not-evaluable"] * 2
    claude = next(h for h in result["harnesses"] if h["harness"] == "claude-code")
    assert (str(rules / "bomb.md"), "rule", "glob-not-evaluable") in {
        (e["path"], e["role"], e["reason"]) for e in claude["not_loaded"]
    }
    assert completed.stderr.count("not evaluated") == 2


def test_files_outside_the_launch_directory_get_no_reminders(ws: Path, tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere" / "AGENTS.md"
    outside.parent.mkdir()
    outside.write_text("# elsewhere\n")
    for harness in OWN_FILE:
        completed = subprocess.run(
            [
                sys.executable,
                "-m",
                "lsp_agents",
                "reminders",
                str(outside),
                "--harness",
                harness,
                "--cwd",
                str(ws),
                "--home",
                str(tmp_path / "home"),
                "--format",
                "json",
            ],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert completed.returncode == 0, completed.stderr
        assert json.loads(completed.stdout)["reminders"] == [], harness


def test_backtracking_glob_does_not_hang(ws: Path) -> None:
    """`*a*a…*b` against a long name backtracks exponentially in a naive regex engine."""
    rules = ws / "bad" / ".claude" / "rules"
    rules.mkdir(parents=True)
    (rules / "slow.md").write_text('---\npaths: "' + "*a" * 12 + '*b"\n---\nSLOW RULE\n')
    target = ws / "bad" / ("a" * 200 + ".ts")
    target.write_text("export {}\n")
    completed = subprocess.run(
        [
            sys.executable,
            "-m",
            "lsp_agents",
            "reminders",
            str(target),
            "--harness",
            "claude-code",
            "--cwd",
            str(ws),
            "--home",
            str(ws.parent / "home"),
            "--format",
            "json",
        ],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert completed.returncode == 0, completed.stderr
    verdict = {f["path"]: f["reason"] for f in json.loads(completed.stdout)["files"]}
    assert verdict[str(rules / "slow.md")] in ("glob-no-match", "glob-not-evaluable")
