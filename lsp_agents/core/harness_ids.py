"""The harness ids, in the registry's order, and the default one: what the settings model and the
command line's `--harness` choices name before any harness model is loaded (the registry in
`core.harnesses` imports every model; `--help` needs only the names, and a test holds the two to
the same list)."""

from __future__ import annotations

from typing import Literal, get_args

HarnessId = Literal[
    "opencode",
    "codex",
    "claude-code",
    "gemini",
    "copilot",
    "cursor",
    "agents-md",
    "pi",
    "copilot-cli",
    "qwen",
    "kilo",
    "droid",
    "continue",
    "cline",
    "crush",
    "zed",
    "goose",
    "windsurf",
    "kiro",
    "roo",
    "auggie",
    "openhands",
    "opencode2",
    "amp",
]
HARNESS_IDS: tuple[HarnessId, ...] = get_args(HarnessId)
DEFAULT_HARNESS: HarnessId = "opencode"
