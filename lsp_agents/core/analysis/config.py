"""Which harnesses to analyse ("auto" detection) and `invalid-config` for their config files.

A config file that does not parse makes its harness fall back to its defaults (the models already
do so); the finding sits on the file when it is in the workspace, else it is reported once for the
workspace, as a finding on the file's absolute path and a warning.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping

from lsp_agents.core.analysis.base import finding
from lsp_agents.core.config_files import load_jsonc, load_toml
from lsp_agents.core.model import Finding, Span
from lsp_agents.core.walk import is_within
from lsp_agents.core.workspace import WorkspaceIndex

HARNESS_ORDER = ("opencode", "codex", "claude-code", "gemini", "copilot", "cursor", "agents-md",
                 "pi", "copilot-cli", "qwen", "kilo", "droid", "continue", "cline")
# Folders and files in the workspace root or the home directory that say a CLI is in use.
_OWN_FILES = {
    "opencode": (".opencode", "opencode.json", "opencode.jsonc"),
    "codex": (".codex",),
    "pi": (".pi",),
    "qwen": (".qwen", "QWEN.md"),
    "kilo": (".kilo", ".kilocode", ".kilocoderules", "kilo.json", "kilo.jsonc", ".config/kilo"),
    "droid": (".factory",),
    "continue": (".continue",),
    "cline": (".clinerules", ".cline", "Documents/Cline", "Cline/Rules"),
    "copilot-cli": (".copilot",),
}
_WARNING = re.compile(r"^warning: (?P<path>.*?)(?::(?P<line>\d+))?: (?P<problem>.*?)(?:; using defaults)?$", re.DOTALL)
OPENCODE_NAMES = ("opencode.json", "opencode.jsonc")


def detect_harnesses(index: WorkspaceIndex, home: str | None = None) -> list[str]:
    """The "auto" rule: which harnesses the instruction files present are written for, and which
    CLIs keep their own files in the workspace root or (when given) the home directory. The
    agents-md profile (the open spec's reading, not a program anyone runs) is enabled by name only."""
    names = {os.path.basename(p) for p in index.instruction_files}
    parts = {part for p in index.instruction_files for part in index.relative(p).split("/")[:-1]}
    # Not through the cached fs: detection runs again after a rescan.
    root_dirs = {name for name in (".claude", ".gemini", ".cursor") if os.path.isdir(os.path.join(index.root, name))}
    found: set[str] = set()
    if "AGENTS.md" in names:
        found |= {"opencode", "codex"}
    if "AGENTS.override.md" in names:
        found.add("codex")
    # Not opencode: it reads CLAUDE.md and .claude/ for compatibility, and a repository with only
    # those shows no sign of it.
    if "CLAUDE.md" in names or ".claude" in parts | root_dirs:
        found.add("claude-code")
    if "GEMINI.md" in names or ".gemini" in parts | root_dirs:
        found.add("gemini")
    if "copilot-instructions.md" in names or "instructions" in parts and ".github" in parts:
        found.add("copilot")
    if ".cursor" in parts | root_dirs or ".cursorrules" in names:
        found.add("cursor")
    if "copilot" in found:
        found.add("copilot-cli")  # the CLI reads the same files
    if "QWEN.md" in names or ".qwen" in parts:
        found.add("qwen")
    if ".clinerules" in names | parts:
        found.add("cline")
    for harness, folder in (("continue", ".continue"), ("kilo", ".kilocode"), ("kilo", ".kilo")):
        if folder in parts:
            found.add(harness)
    bases = [index.root] + ([home] if home else [])
    for harness, own in _OWN_FILES.items():
        if any(os.path.exists(os.path.join(base, name)) for base in bases for name in own):
            found.add(harness)
    return [h for h in HARNESS_ORDER if h in found]


def config_candidates(
    index: WorkspaceIndex, harnesses: list[str], home: str, env: Mapping[str, str], *, workspace_scan: bool = True
) -> list[tuple[str, str]]:
    """(harness, path) of every config file the enabled harnesses read, existing or not.

    Without `workspace_scan`, the opencode.json files of subdirectories are left out (recognised
    by name instead: `is_config`).
    """
    candidates: list[tuple[str, str]] = []
    if "codex" in harnesses:
        candidates.append(("codex", os.path.join(env.get("CODEX_HOME") or os.path.join(home, ".codex"), "config.toml")))
    if "gemini" in harnesses:
        candidates += [("gemini", os.path.join(home, ".gemini", "settings.json")),
                       ("gemini", os.path.join(index.root, ".gemini", "settings.json"))]
    if "opencode" in harnesses:
        config_dir = os.path.join(env.get("XDG_CONFIG_HOME") or os.path.join(home, ".config"), "opencode")
        candidates += [("opencode", os.path.join(config_dir, n)) for n in ("config.json", *OPENCODE_NAMES)]
        if workspace_scan:
            suffixes = tuple(os.sep + name for name in OPENCODE_NAMES)  # a C-level test on 100,000s of paths
            candidates += [("opencode", p) for p in sorted(p for p in index.files if p.endswith(suffixes))]
    if "qwen" in harnesses:
        qwen_home = env.get("QWEN_HOME") or os.path.join(home, ".qwen")
        candidates += [("qwen", os.path.join(qwen_home, "settings.json")), ("qwen", os.path.join(index.root, ".qwen", "settings.json"))]
    if "kilo" in harnesses:
        kilo_dir = os.path.join(env.get("XDG_CONFIG_HOME") or os.path.join(home, ".config"), "kilo")
        candidates += [("kilo", os.path.join(kilo_dir, n)) for n in ("config.json", "kilo.json", "kilo.jsonc")]
        candidates += [("kilo", os.path.join(index.root, n)) for n in ("kilo.json", "kilo.jsonc")]
    if "claude-code" in harnesses:
        candidates += [("claude-code", os.path.join(home, ".claude.json")),
                       ("claude-code", os.path.join(env.get("CLAUDE_CONFIG_DIR") or os.path.join(home, ".claude"), "settings.json"))]
    return list(dict.fromkeys(candidates))


def is_config(path: str, index: WorkspaceIndex, harnesses: list[str], home: str, env: Mapping[str, str]) -> bool:
    if "opencode" in harnesses and os.path.basename(path) in OPENCODE_NAMES:
        return True
    return any(p == path for _h, p in config_candidates(index, harnesses, home, env, workspace_scan=False))


def config_findings(index: WorkspaceIndex, harnesses: list[str], home: str, env: Mapping[str, str]) -> tuple[list[Finding], list[str]]:
    findings, warnings = [], []
    for harness, path in config_candidates(index, harnesses, home, env):
        if not index.fs.exists(path):
            continue
        loaded = load_toml(index.fs, path) if path.endswith(".toml") else load_jsonc(index.fs, path)
        if not loaded.warning:
            continue
        match = _WARNING.match(loaded.warning)
        problem = match.group("problem") if match else loaded.warning
        line = max(0, int(match.group("line")) - 1) if match and match.group("line") and is_within(path, index.root) else 0
        outcome = "exits without starting" if harness == "gemini" else "uses its defaults"
        message = f"{harness} cannot parse this config file and {outcome}: {problem}"
        findings.append(finding("invalid-config", path, Span(line, 0, line, 0), message, harnesses=[harness]))
        if not is_within(path, index.root):
            warnings.append(loaded.warning)
    return findings, warnings
