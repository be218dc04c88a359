"""What `lsp-agents` says for one oracle run, set beside the oracle's extract.

Shared by the conformance test (the goldens in this folder) and the differential runner (scenarios
generated and captured on the fly): both rebuild a scenario tree, run `lsp-agents prompt` and
`lsp-agents reminders` as a subprocess for the run's launch directory and reads, and compare the
texts exactly after putting the {WS} and {HOME} placeholders back.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

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


def unmodelled_args(run: dict) -> list[str]:
    """The run's extra CLI arguments that change what the CLI sends in ways lsp-agents does not model."""
    return [a for a in run.get("args", []) if a.startswith("--") and a not in SESSION_ARGS.get(run["harness"], ())]


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


def placeholders(text: str, ws: Path, home: Path) -> str:
    return text.replace(str(ws), "{WS}").replace(str(home), "{HOME}")


def run_lsp_agents(args: list[str], env: dict[str, str]) -> dict:
    completed = subprocess.run(
        [sys.executable, "-m", "lsp_agents", *args, "--format", "json"],
        check=False,
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
    env = {
        "PATH": os.environ.get("PATH", ""),
        "HOME": str(home),
        "LANG": "C.UTF-8",
        **run.get("env", {}),
    }
    return (
        ws,
        home,
        {k: v.replace("{WS}", str(ws)).replace("{HOME}", str(home)) for k, v in env.items()},
    )


def model_eager(ws: Path, home: Path, env: dict[str, str], run: dict) -> list[dict]:
    """`lsp-agents prompt` for the run: the blocks sent at start, in the extract's form."""
    prompt = run_lsp_agents(["prompt", *_common(ws, home, run)], env)
    return [{"placement": b["placement"], "text": placeholders(b["text"], ws, home)} for b in prompt["eager"]]


def model_reads(ws: Path, home: Path, env: dict[str, str], run: dict):
    """`lsp-agents reminders` for each read of the run, in order: yields (read, blocks in the extract's form),
    each read knowing the files the earlier ones loaded."""
    loaded: list[str] = []
    for read in run.get("read", []):
        reminders = run_lsp_agents(
            [
                "reminders",
                str(ws / read),
                *_common(ws, home, run),
                *[a for p in loaded for a in ("--loaded", p)],
            ],
            env,
        )
        loaded += [f["path"] for f in reminders["files"] if f["loaded"]]
        yield (
            read,
            [{"placement": r["placement"], "text": placeholders(r["text"], ws, home)} for r in reminders["reminders"]],
        )


def _common(ws: Path, home: Path, run: dict) -> list[str]:
    return [
        "--harness",
        HARNESS_IDS[run["harness"]],
        "--cwd",
        str(ws / run.get("cwd", ".")),
        "--home",
        str(home),
    ]


def elements(blocks: list[dict]) -> list[tuple[str, list[str]]]:
    """opencode's per-file elements of each block, sorted: the same files and texts in any order."""
    return [(b["placement"], sorted(("\n" + b["text"]).split("\nInstructions from: "))) for b in blocks]


def expected_read_blocks(golden: dict, read: str) -> list[dict]:
    return [{"placement": e["placement"], "text": e["text"]} for e in golden["reads"] if e["path"] == read]
