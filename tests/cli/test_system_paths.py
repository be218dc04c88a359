"""Imports and references into /proc, /sys and /dev through the real CLI: the analysis goes on.

`@/proc/1/root/etc/hostname` in GEMINI.md once made `check` exit 2 (`Permission denied:
'/proc/1/root'`, from os.path.realpath) and `prompt`, `cascade` and `reminders` crash. Each run
here must exit 0 or 1 without a traceback, report the bad import as a finding (or a reason) next
to the workspace's other findings, and print nothing read through /proc: neither the environment
(`/proc/self/environ`) nor a secret outside the workspace reached as `/proc/self/root/...`.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import cli_process
import pytest

from lsp_agents.core.harnesses import HARNESSES

ENV_MARKER = "LSP-AGENTS-ENVIRON-MARKER"
SECRET_MARKER = "LSP-AGENTS-SECRET-MARKER"
HOSTNAME = "@/proc/1/root/etc/hostname"
DUPLICATE = "- Run the whole test suite before every commit, without exception."


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


@pytest.fixture
def tree(tmp_path: Path) -> tuple[Path, Path]:
    """A small repository whose GEMINI.md and CLAUDE.md import /proc paths, through a symlink
    chain to /proc/1/root too, beside ordinary problems (a missing import, a duplicated bullet);
    configs that name /proc paths; and a home of its own."""
    ws, home = Path(os.path.realpath(tmp_path)) / "ws", tmp_path / "home"
    (ws / ".git").mkdir(parents=True)
    home.mkdir()
    secret = tmp_path / "outside" / "secret.md"
    _write(secret, f"# not an instruction\n{SECRET_MARKER}\n")
    os.symlink("chain2", ws / "chain")
    os.symlink("/proc/1/root", ws / "chain2")
    imports = f"{HOSTNAME}\n@/proc/self/environ\n@/proc/self/root{secret}\n@chain/etc/hostname\n@docs/missing.md\n"
    body = f"{DUPLICATE}\n- Keep functions short.\n{DUPLICATE}\n\n{imports}"
    _write(ws / "GEMINI.md", f"# Gemini\n\n{body}")
    _write(ws / "CLAUDE.md", f"# Claude\n\n{body}")
    _write(ws / "AGENTS.md", "# Agents\n\n- Use tabs.\n\n[The environment](/proc/self/environ): {file:/proc/self/environ}.\n")
    _write(ws / "src" / "x.ts", "export {}\n")
    names = ["/proc/self/environ", "../../../../../../proc/self/environ", f"/proc/self/root{secret}", "x\0y.md", "x" * 5_000]
    _write(ws / ".gemini" / "settings.json", json.dumps({"context": {"fileName": ["GEMINI.md", *names]}}))
    _write(ws / "opencode.json", json.dumps({"instructions": [*names, "/proc/self/**", f"/proc/self/root{secret.parent}/*.md"]}))
    _write(ws / "lsp-agents.toml", f"[codex]\nfallbackFilenames = {json.dumps(names)}\n")
    _write(home / ".codex" / "config.toml", f"project_doc_fallback_filenames = {json.dumps(names)}\n")
    return ws, home


def _run(ws: Path, home: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "HOME": str(home), "LSP_AGENTS_TEST_MARKER": ENV_MARKER}
    result = cli_process.run(list(args), cwd=ws, env=env, timeout=120)
    assert result.returncode in (0, 1), result.stderr
    for stream in (result.stdout, result.stderr):
        assert "Traceback" not in stream
        assert ENV_MARKER not in stream and SECRET_MARKER not in stream, "text read through /proc was printed"
    return result


def _findings(ws: Path, home: Path) -> list[dict]:
    result = _run(ws, home, "check", str(ws), "--home", str(home), "--format", "json", "--enable", "all")
    assert result.returncode == 1  # the missing import is an error, once its code is on
    return json.loads(result.stdout)["findings"]


def test_check_reports_the_import_into_proc_and_the_other_findings(tree) -> None:
    ws, home = tree
    found = _findings(ws, home)
    on = {(Path(f["path"]).name, f["code"], f["range"]["start"]["line"]) for f in found}
    for name in ("GEMINI.md", "CLAUDE.md"):
        assert (name, "import-outside-workspace", 6) in on, on  # the @/proc/1/root/etc/hostname line
        assert (name, "import-not-found", 10) in on, on  # @docs/missing.md
        assert (name, "duplicate-instruction", 4) in on, on
    chain = [f for f in found if f["code"] == "import-not-found" and f["range"]["start"]["line"] == 9]
    assert chain and all("cannot be read" in f["message"] for f in chain), chain  # through the chain to /proc/1/root


@pytest.mark.parametrize("harness", ["claude-code", "gemini"])
def test_cascade_prompt_and_reminders_go_on(tree, harness: str) -> None:
    ws, home = tree
    common = ["--harness", harness, "--cwd", str(ws), "--home", str(home), "--format", "json"]
    cascade = json.loads(_run(ws, home, "cascade", str(ws / "src" / "x.ts"), *common).stdout)["harnesses"][0]
    skipped = {item["path"]: item for item in cascade["not_loaded"]}
    own = "CLAUDE.md" if harness == "claude-code" else "GEMINI.md"
    assert skipped["/proc/1/root/etc/hostname"]["related"] == str(ws / own)
    assert [Path(item["path"]).name for item in cascade["eager"]][:1] == [own]
    prompt = json.loads(_run(ws, home, "prompt", *common).stdout)
    assert DUPLICATE in json.dumps(prompt, ensure_ascii=False)
    _run(ws, home, "reminders", str(ws / "src" / "x.ts"), *common)


def test_approved_imports_into_proc_are_never_read(tree) -> None:
    """With external imports approved, Claude Code would read what they name: the model refuses."""
    ws, home = tree
    _write(home / ".claude.json", json.dumps({"projects": {str(ws): {"hasClaudeMdExternalIncludesApproved": True}}}))
    common = ["--harness", "claude-code", "--cwd", str(ws), "--home", str(home), "--format", "json"]
    cascade = json.loads(_run(ws, home, "cascade", str(ws / "src" / "x.ts"), *common).stdout)["harnesses"][0]
    reasons = {item["path"]: item["reason"] for item in cascade["not_loaded"]}
    assert reasons["/proc/self/environ"] == "system-file"
    assert reasons["/proc/1/root/etc/hostname"] in ("permission-denied", "system-file")
    assert reasons[str(ws / "chain" / "etc" / "hostname")] in ("permission-denied", "system-file")
    _run(ws, home, "prompt", *common, "--layers", "all")


@pytest.mark.parametrize("harness", list(HARNESSES))
def test_every_harness_survives_config_names_into_proc(tree, harness: str) -> None:
    """Gemini's context file names, opencode's instructions, Codex's fallback names (settings and
    its own config) and Kilo's `{file:…}` name /proc paths, a NUL byte and 5,000 characters."""
    ws, home = tree
    common = ["--harness", harness, "--cwd", str(ws), "--home", str(home)]
    _run(ws, home, "prompt", *common, "--layers", "all")
    _run(ws, home, "cascade", str(ws / "src" / "x.ts"), *common, "--format", "json")
    _run(ws, home, "check", str(ws), "--harness", harness, "--home", str(home), "--fail-on", "never")
