"""Colour for the text output: on a terminal only, never when piped, and never against NO_COLOR.

`--color auto` (the default) colours when standard output is a terminal, `NO_COLOR` is unset or
empty (https://no-color.org) and `TERM` is not `dumb`; `always` and `never` decide alone, so
`--color always` colours a pipe (for `less -R`). Only the text views use it: JSON and SARIF are
never coloured.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from typing import TextIO

COLOR_CHOICES = ("auto", "always", "never")
_CODES = {"bold": "1", "dim": "2", "red": "31", "yellow": "33", "blue": "34", "cyan": "36", "green": "32"}
_SEVERITY = {"error": "red", "warning": "yellow", "information": "blue", "hint": "dim"}


def wants_colour(choice: str, stream: TextIO = sys.stdout, env: Mapping[str, str] = os.environ) -> bool:
    if choice != "auto":
        return choice == "always"
    return bool(stream.isatty()) and not env.get("NO_COLOR") and env.get("TERM") != "dumb"


class Style:
    """Wraps text in ANSI SGR codes when enabled; the identity otherwise."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled

    def __call__(self, text: str, *names: str) -> str:
        if not self.enabled or not names or not text:
            return text
        return f"\x1b[{';'.join(_CODES[name] for name in names)}m{text}\x1b[0m"

    def severity(self, text: str, severity: str) -> str:
        return self(text, _SEVERITY.get(severity, "bold"))


PLAIN = Style(False)
