"""The catalogue of finding codes: the contract shared by the analysis, the CLI, SARIF and the editor.

Codes are stable kebab-case names; add codes, never rename. Each carries its severity, a one-line
title and the help text that SARIF rules show; the entries live in `codes.toml` next to this
module (data, not code). The README has one `### <code>` heading per code, so
`README_URL#<code>` is its documentation link.

A code is on by default (`on_by_default`) only when its precision, measured on blind labels of
the real-world corpora (`benchmarks/realworld.py`), is at least DEFAULT_PRECISION over at least
DEFAULT_DECIDED decided findings; until then it is reported as a hint, and the `severity`
setting turns it on (`on`: its own severity) — as ruff enables only its most reliable rules.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from importlib import resources

README_URL = "https://github.com/lsp-agents/lsp-agents"
SEVERITIES = ("error", "warning", "information", "hint")
OFF = "off"  # a catalogue default: reported only when the `severity` setting gives the code a level
ON = "on"  # a setting: the code's own severity, also for a code that is a hint by default
HINT = "hint"
DEFAULT_PRECISION, DEFAULT_DECIDED = 0.95, 20


@dataclass(frozen=True, slots=True)
class Code:
    code: str
    severity: str
    title: str
    help: str
    on_by_default: bool = False

    @property
    def url(self) -> str:
        return f"{README_URL}#{self.code}"


def _load() -> dict[str, Code]:
    text = resources.files(__package__).joinpath("codes.toml").read_text(encoding="utf-8")
    return {
        code: Code(code, entry["severity"], entry["title"], entry["help"], entry.get("on_by_default", False))
        for code, entry in tomllib.loads(text).items()
    }


def settled_severity(code: str, reported: str, setting: str | None) -> str:
    """The severity a finding is shown with: the setting's level; else its own where the code is
    on (by default, or set `on`); else a hint. OFF: not shown."""
    if setting is not None and setting != ON:
        return setting
    if CODES[code].severity == OFF:  # a code off by default needs a level, not `on`
        return OFF
    if reported == OFF or setting == ON or CODES[code].on_by_default:
        return reported
    return HINT


CODES: dict[str, Code] = _load()
