"""`lsp-agents harnesses` and the version fields of `cascade`: what each model follows and what is installed."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import cli_process

from lsp_agents.core.harnesses import HARNESSES

VERIFIED = [harness_id for harness_id, harness in HARNESSES.items() if harness.spec.verified]


def run(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if k.lower() != "npm_config_prefix"}
    return cli_process.run(list(args), timeout=60, env={**clean, **(env or {})})


def install(home: Path, package: str, version: str) -> Path:
    """A global npm install as npm leaves it: only its package.json matters."""
    path = home / ".npm-global" / "lib" / "node_modules" / package / "package.json"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({"name": package, "version": version}))
    return path


def test_lists_every_harness_with_its_verified_version_and_the_installed_one(tmp_path: Path) -> None:
    home = tmp_path / "home"
    newer = install(home, "@qwen-code/qwen-code", "0.25.0")
    same = install(home, "@mariozechner/pi-coding-agent", "0.73.1")
    result = run("harnesses", "--home", str(home), "--format", "json")
    assert result.returncode == 0, result.stderr
    entries = {e["harness"]: e for e in json.loads(result.stdout)["harnesses"]}
    assert set(VERIFIED) <= set(entries)
    assert all(entries[h]["verified"] for h in VERIFIED)
    assert entries["qwen"]["installed"] == {"version": "0.25.0", "path": str(newer), "newer": True}
    assert entries["pi"]["installed"] == {"version": "0.73.1", "path": str(same), "newer": False}
    assert entries["kilo"]["installed"] is None
    assert entries["cursor"]["verified"] is False and entries["cursor"]["package"] is None

    text = run("harnesses", "--home", str(home)).stdout
    assert "verified against 0.24.4; installed 0.25.0 (newer than verified)" in text
    assert "verified against 0.73.1; installed 0.73.1\n" in text


def test_cascade_names_both_versions_for_each_verified_harness(tmp_path: Path) -> None:
    ws, home = tmp_path / "ws", tmp_path / "home"
    (ws / ".git").mkdir(parents=True)
    (ws / "AGENTS.md").write_text("# root\n")
    (ws / "x.ts").write_text("x\n")
    install(home, "droid", "1.0.0")
    for harness in VERIFIED:
        result = run("cascade", str(ws / "x.ts"), "--harness", harness, "--cwd", str(ws), "--home", str(home), "--format", "json")
        assert result.returncode == 0, result.stderr
        entry = json.loads(result.stdout)["harnesses"][0]
        assert entry["harness"] == harness and entry["version"]
        assert (entry["installed"] or {}).get("newer") is (True if harness == "droid" else None)
    text = run("cascade", str(ws / "x.ts"), "--harness", "droid", "--cwd", str(ws), "--home", str(home)).stdout
    assert "droid — 1 file · 7 B · ~2 tokens · verified against 0.225.1; installed 1.0.0 (newer than verified)\n" in text


def test_droid_is_found_under_its_npm_package_and_under_the_name_it_had_before(tmp_path: Path) -> None:
    """droid is published as `@factory/cli`; a global install of the former `droid` package is still found,
    and when both are installed the current package's version is the one reported."""
    home = tmp_path / "home"
    former = install(home, "droid", "0.109.3")
    result = run("harnesses", "--home", str(home), "--format", "json")
    entry = next(e for e in json.loads(result.stdout)["harnesses"] if e["harness"] == "droid")
    assert entry["package"] == "@factory/cli"
    assert entry["installed"] == {"version": "0.109.3", "path": str(former), "newer": False}

    current = install(home, "@factory/cli", "9.0.0")
    result = run("harnesses", "--home", str(home), "--format", "json")
    entry = next(e for e in json.loads(result.stdout)["harnesses"] if e["harness"] == "droid")
    assert entry["installed"] == {"version": "9.0.0", "path": str(current), "newer": True}
