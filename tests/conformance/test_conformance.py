"""Byte-for-byte conformance with captures of the real harness CLIs.

Each golden extract under golden/<scenario>/<run>.json was captured by the oracle from the scenario
tree under scenarios/<scenario>/. The test rebuilds that tree, runs `lsp-agents prompt` and
`lsp-agents reminders` as a subprocess for the same launch directory and reads, and compares the
texts exactly after putting the {WS} and {HOME} placeholders back.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).parent
SCENARIOS = HERE / "scenarios"
GOLDEN = HERE / "golden"
# Runs whose order comes from the capturing machine's directory listing, not from the harness:
# opencode lists glob matches in reversed readdir order, which a copied tree does not reproduce
# (tests/cli/test_cli.py pins the reversal against the live listing instead).
DIRECTORY_ORDER = {"opencode-glob-order"}
# Oracle harness name -> lsp-agents harness id (the same for the CLIs added after the first four).
HARNESS_IDS = {
    "claude": "claude-code",
    "codex": "codex",
    "opencode": "opencode",
    "gemini": "gemini",
    "pi": "pi",
    "copilot-cli": "copilot-cli",
    "qwen": "qwen",
    "kilo": "kilo",
    "droid": "droid",
    "continue": "continue",
    "cline": "cline",
}
# Arguments that leave the instruction text as it is (test_sessions covers what they change). Claude
# Code run as an agent (`--agent`) ends its instruction block with a newline, which is not modelled.
SESSION_ARGS = {"opencode": {"--agent", "--command"}, "claude": {"--permission-mode"}}


def _runs():
    for golden_dir in sorted(p for p in GOLDEN.iterdir() if p.is_dir()):
        scenario = SCENARIOS / golden_dir.name
        config = json.loads((scenario / "scenario.json").read_text())
        runs = {run["id"]: run for run in config["runs"]}
        for extract in sorted(golden_dir.glob("*.json")):
            run = runs.get(extract.stem)
            if run is not None:
                yield pytest.param(scenario, config, run, extract, id=f"{golden_dir.name}/{extract.stem}")


def _copy_tree(source: Path, dest: Path, ws: Path, home: Path) -> None:
    """Copy keeping symlinks as links; a link target naming {WS} or {HOME} is re-pointed, as the oracle does."""
    dest.mkdir(parents=True, exist_ok=True)
    if not source.is_dir():
        return
    for entry in sorted(source.iterdir()):
        target = dest / entry.name
        if entry.is_symlink():
            link = os.readlink(entry).replace("{WS}", str(ws)).replace("{HOME}", str(home))
            os.symlink(link, target)
        elif entry.is_dir():
            _copy_tree(entry, target, ws, home)
        else:
            shutil.copyfile(entry, target)


CONFIG_NAMES = {
    ".claude.json",
    "settings.json",
    "config.toml",
    "opencode.json",
    "opencode.jsonc",
    "kilo.json",
    "kilo.jsonc",
    "config.yaml",
    "models.json",
}
ORACLE_WS, ORACLE_HOME = "/tmp/oracle/ws", "/tmp/oracle/home"


def _relocate(home: Path, ws: Path) -> None:
    """Point the tree at its new place, as the oracle's fixed paths pointed at the captured one.

    A file may spell the oracle's fixed paths out (an absolute import, an absolute glob); the
    oracle also replaces {WS}/{HOME} in the harness config files of the home template.
    """
    for root in (home, ws):
        for path in root.rglob("*"):
            if not path.is_file() or path.is_symlink():
                continue
            data = path.read_bytes()
            updated = data.replace(ORACLE_WS.encode(), bytes(ws)).replace(ORACLE_HOME.encode(), bytes(home))
            if path.name in CONFIG_NAMES:
                updated = updated.replace(b"{WS}", bytes(ws)).replace(b"{HOME}", bytes(home))
            if updated != data:
                path.write_bytes(updated)


def _placeholders(text: str, ws: Path, home: Path) -> str:
    return text.replace(str(ws), "{WS}").replace(str(home), "{HOME}")


def _lsp_agents(args: list[str], env: dict[str, str]) -> dict:
    completed = subprocess.run(
        [sys.executable, "-m", "lsp_agents", *args, "--format", "json"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert completed.returncode == 0, completed.stderr
    return json.loads(completed.stdout)


def build_scenario(tmp_path: Path, scenario: Path, config: dict, run: dict) -> tuple[Path, Path, dict[str, str]]:
    """The scenario's workspace and home under `tmp_path`, as the oracle laid them out, and the
    environment of the run."""
    ws, home = tmp_path / "ws", tmp_path / "home"
    _copy_tree(scenario / "ws", ws, ws, home)
    _copy_tree(scenario / "home", home, ws, home)
    _relocate(home, ws)
    if run.get("git", config.get("git", True)) and not (ws / ".git").exists():
        (ws / ".git").mkdir()
    for repo in config.get("git_dirs", []):  # nested repositories (the capture ran `git init` there)
        (ws / repo / ".git").mkdir()
    env = {"PATH": os.environ.get("PATH", ""), "HOME": str(home), "LANG": "C.UTF-8", **run.get("env", {})}
    return ws, home, {k: v.replace("{WS}", str(ws)).replace("{HOME}", str(home)) for k, v in env.items()}


@pytest.mark.parametrize(("scenario", "config", "run", "extract"), list(_runs()))
def test_conformance(tmp_path: Path, scenario: Path, config: dict, run: dict, extract: Path) -> None:
    if any(a.startswith("--") and a not in SESSION_ARGS.get(run["harness"], ()) for a in run.get("args", [])):
        pytest.skip(f"extra CLI arguments are not modelled: {run['args']}")
    golden = json.loads(extract.read_text(encoding="utf-8"))
    ws, home, env = build_scenario(tmp_path, scenario, config, run)
    harness = HARNESS_IDS[run["harness"]]
    cwd = ws / run.get("cwd", ".")
    common = ["--harness", harness, "--cwd", str(cwd), "--home", str(home)]

    prompt = _lsp_agents(["prompt", *common], env)
    actual_eager = [{"placement": b["placement"], "text": _placeholders(b["text"], ws, home)} for b in prompt["eager"]]
    if scenario.name in DIRECTORY_ORDER:
        assert _elements(actual_eager) == _elements(golden["eager"])
    else:
        assert actual_eager == golden["eager"]

    loaded: list[str] = []
    for read in run.get("read", []):
        reminders = _lsp_agents(["reminders", str(ws / read), *common, *[a for p in loaded for a in ("--loaded", p)]], env)
        loaded += [f["path"] for f in reminders["files"] if f["loaded"]]
        actual = [{"placement": r["placement"], "text": _placeholders(r["text"], ws, home)} for r in reminders["reminders"]]
        assert actual == _expected_read_blocks(golden, read), f"read of {read}"


def _elements(blocks: list[dict]) -> list[tuple[str, list[str]]]:
    """opencode's per-file elements of each block, sorted: the same files and texts in any order."""
    return [(b["placement"], sorted(("\n" + b["text"]).split("\nInstructions from: "))) for b in blocks]


def _expected_read_blocks(golden: dict, read: str) -> list[dict]:
    return [{"placement": e["placement"], "text": e["text"]} for e in golden["reads"] if e["path"] == read]
