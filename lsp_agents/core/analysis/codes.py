"""The catalogue of finding codes: the contract shared by the analysis, the CLI, SARIF and the editor.

Codes are stable kebab-case names; add codes, never rename. Each carries its default severity,
a one-line title and the help text that SARIF rules show; the entries live in `codes.toml` next
to this module (data, not code). The README has one `### <code>` heading per code, so
`README_URL#<code>` is its documentation link.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from importlib import resources

README_URL = "https://github.com/lsp-agents/lsp-agents"
SEVERITIES = ("error", "warning", "information", "hint")
OFF = "off"  # a catalogue default: reported only when the `severity` setting gives the code a level


@dataclass(frozen=True, slots=True)
class Code:
    code: str
    severity: str
    title: str
    help: str

    @property
    def url(self) -> str:
        return f"{README_URL}#{self.code}"


def _load() -> dict[str, Code]:
    text = resources.files(__package__).joinpath("codes.toml").read_text(encoding="utf-8")
    return {code: Code(code, entry["severity"], entry["title"], entry["help"]) for code, entry in tomllib.loads(text).items()}


CODES: dict[str, Code] = _load()
