"""Text (one `path:line:col: severity code message` line per finding, then a summary line naming
the workspace) and JSON renderings of a Report."""

from __future__ import annotations

import os

from lsp_agents.core.model import JsonObject
from lsp_agents.report import Report, fix_json
from lsp_agents.terminal import PLAIN, Style


def shown_root(root: str, cwd: str) -> str:
    """The workspace root as the user would type it from where they are: relative at or below
    the current directory, absolute above it (found from a subdirectory) or elsewhere."""
    if root == cwd:
        return "."
    return os.path.relpath(root, cwd) if root.startswith(cwd.rstrip(os.sep) + os.sep) else root


def render_text(report: Report, style: Style = PLAIN, cwd: str | None = None) -> str:
    lines = []
    for item in report.findings:
        span = item.span
        where = f"{report.relative(item.path)}:{span.start_line + 1}:{span.start_character + 1}:"
        severity = style.severity(item.severity, item.severity)
        lines.append(f"{style(where, 'bold')} {severity} {style(item.code, 'cyan')} {item.message}")
    counts = report.summary()
    total = sum(counts.values())
    parts = ", ".join(f"{count} {severity}" for severity, count in counts.items())
    harnesses = ", ".join(report.harnesses) or "none"
    workspace = shown_root(report.root, cwd or os.path.realpath(os.getcwd()))
    summary = f"{total} finding{'' if total == 1 else 's'} ({parts}); harnesses: {harnesses}; workspace: {workspace}"
    lines.append(style(summary, "bold"))
    return "\n".join(lines)


def render_json(report: Report) -> JsonObject:
    return {
        "root": report.root,
        "harnesses": report.harnesses,
        "findings": [
            {
                "code": item.code,
                "severity": item.severity,
                "path": report.relative(item.path),
                "range": item.span.to_json(),
                "message": item.message,
                "harnesses": item.harnesses,
                "related": [
                    {"path": report.relative(r.path), "range": r.span.to_json(), "message": r.message} for r in item.related
                ],
                "fix": fix_json(item.fix, report),
            }
            for item in report.findings
        ],
        "summary": report.summary(),
    }
