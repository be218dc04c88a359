"""The catalogue of finding codes: the contract shared by the analysis, the CLI, SARIF and the editor.

Codes are stable kebab-case names; add codes, never rename. Each carries its severity, a one-line
title and the help text that SARIF rules show; the entries live in `codes.toml` next to this
module (data, not code). The README has one `### <code>` heading per code, so
`README_URL#<code>` is its documentation link.

A code is on by default (`on_by_default`) only when its precision, measured on blind labels of
the real-world corpora (`benchmarks/realworld.py`), is at least DEFAULT_PRECISION over at least
DEFAULT_DECIDED decided findings in at least DEFAULT_REPOSITORIES repositories, each repository
weighing at most DEFAULT_REPOSITORY_WEIGHT findings (`earned_place`: one repository's many alike
findings do not make a precision that holds elsewhere); until then it is reported as a hint, and
the `severity` setting turns it on (`on`: its own severity) — as ruff enables only its most
reliable rules.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable
from dataclasses import dataclass
from importlib import resources
from typing import Final

README_URL = "https://github.com/lsp-agents/lsp-agents"
SEVERITIES = ("error", "warning", "information", "hint")
OFF: Final = "off"  # a catalogue default: reported only when the `severity` setting gives the code a level
ON: Final = "on"  # a setting: the code's own severity, also for a code that is a hint by default
HINT = "hint"
DEFAULT_PRECISION, DEFAULT_DECIDED = 0.95, 20
DEFAULT_REPOSITORIES, DEFAULT_REPOSITORY_WEIGHT = 10, 10


@dataclass(frozen=True, slots=True)
class EarnedPlace:
    """A code's blind labels weighed for the default set: each repository counts its true share
    over at most DEFAULT_REPOSITORY_WEIGHT of its decided findings."""

    true: int
    decided: int
    repositories: int
    weighted_precision: float | None

    @classmethod
    def of(cls, verdicts: Iterable[tuple[str, str]]) -> EarnedPlace:
        """`verdicts`: (repository, verdict) of every labelled finding of one code."""
        per_repository: dict[str, list[int]] = {}
        for repository, verdict in verdicts:
            if verdict in ("true", "false"):
                counts = per_repository.setdefault(repository, [0, 0])
                counts[verdict == "false"] += 1
        weight = total = 0.0
        for true, false in per_repository.values():
            share = min(true + false, DEFAULT_REPOSITORY_WEIGHT)
            weight += share
            total += share * true / (true + false)
        true = sum(t for t, _ in per_repository.values())
        decided = true + sum(f for _, f in per_repository.values())
        return cls(true, decided, len(per_repository), total / weight if weight else None)

    @property
    def earned(self) -> bool:
        return (
            self.weighted_precision is not None
            and self.weighted_precision >= DEFAULT_PRECISION
            and self.decided >= DEFAULT_DECIDED
            and self.repositories >= DEFAULT_REPOSITORIES
        )


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
