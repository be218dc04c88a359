"""Renderers and the run of `lsp-agents check`: text, JSON and SARIF views of the analysis findings.

The core returns findings with absolute paths and 0-based positions; everything here makes them
root-relative (POSIX separators) and shapes them for people (text), tools (JSON) and code
scanning (SARIF 2.1.0).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from lsp_agents.core.analysis.codes import SEVERITIES
from lsp_agents.core.model import Finding, Fix, JsonObject


@dataclass(frozen=True, slots=True)
class Report:
    """What every renderer needs: the checked root, the harnesses analysed, the findings in order."""

    root: str
    harnesses: Sequence[str]
    findings: list[Finding]

    def relative(self, path: str) -> str:
        """Root-relative POSIX path; a path outside the root stays absolute."""
        root = self.root.rstrip(os.sep)
        if path == root:
            return "."
        if path.startswith(root + os.sep):
            return path[len(root) + 1 :].replace(os.sep, "/")
        return path

    def summary(self) -> dict[str, int]:
        counts = dict.fromkeys(SEVERITIES, 0)
        for item in self.findings:
            counts[item.severity] += 1
        return counts


def ordered(findings_by_path: Mapping[str, list[Finding]], keep: Iterable[str] | None = None) -> list[Finding]:
    """All findings sorted by path then position, optionally only those under the `keep` paths."""
    keep = [k.rstrip(os.sep) for k in keep] if keep else None
    result = []
    for path in sorted(findings_by_path):
        if keep is None or any(path == k or path.startswith(k + os.sep) for k in keep):
            result += findings_by_path[path]
    return result


def fix_json(fix: Fix | None, report: Report) -> JsonObject | None:
    if fix is None:
        return None
    return {
        "title": fix.title,
        "edits": [{"path": report.relative(e.path), "range": e.span.to_json(), "newText": e.new_text} for e in fix.edits],
        **({"renameFrom": report.relative(fix.rename_from)} if fix.rename_from else {}),
        **({"renameTo": report.relative(fix.rename_to)} if fix.rename_to else {}),
    }
