"""Small shared helpers of the analysis modules: building findings, naming paths and harnesses."""

from __future__ import annotations

import os
from collections.abc import Iterable

from lsp_agents.core.analysis.codes import CODES
from lsp_agents.core.model import Finding, Fix, Related, Span

FILE_START = Span(0, 0, 0, 0)


def finding(
    code: str,
    path: str,
    span: Span,
    message: str,
    *,
    harnesses: Iterable[str] = (),
    related: Iterable[Related] = (),
    fix: Fix | None = None,
    severity: str | None = None,
    unnecessary: bool = False,
) -> Finding:
    """A Finding with the catalogue's default severity unless one is given."""
    return Finding(
        code, severity or CODES[code].severity, path, span, message, sorted(set(harnesses)), list(related), fix, unnecessary
    )


def shown(path: str, root: str) -> str:
    """A path as messages show it: relative to the workspace root when inside it."""
    if path == root:
        return "."
    if path.startswith(root.rstrip(os.sep) + os.sep):
        return os.path.relpath(path, root).replace(os.sep, "/")
    return path


def directory_label(path: str, root: str) -> str:
    return "the workspace root" if path == root else f"{shown(path, root)}/"


def names(harnesses: Iterable[str]) -> str:
    return ", ".join(sorted(set(harnesses)))


def verb(harnesses: Iterable[str], singular: str) -> str:
    """`singular` ("loads") or its plural ("load") to agree with a list of harness names."""
    return singular if len(set(harnesses)) == 1 else singular[:-1]


def plural(count: int, word: str) -> str:
    if count == 1:
        return f"{count} {word}"
    return f"{count} {word[:-1]}ies" if word.endswith("y") else f"{count} {word}s"
