"""Text (one `path:line:col: severity code message` line per finding) and JSON renderings of a Report."""

from __future__ import annotations

from lsp_agents.report import Report, fix_json


def render_text(report: Report) -> str:
    lines = []
    for item in report.findings:
        span = item.span
        lines.append(f"{report.relative(item.path)}:{span.start_line + 1}:{span.start_character + 1}: "
                     f"{item.severity} {item.code} {item.message}")
    counts = report.summary()
    total = sum(counts.values())
    parts = ", ".join(f"{count} {severity}" for severity, count in counts.items())
    harnesses = ", ".join(report.harnesses) or "none"
    lines.append(f"{total} finding{'' if total == 1 else 's'} ({parts}); harnesses: {harnesses}")
    return "\n".join(lines)


def render_json(report: Report) -> dict:
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
                "related": [{"path": report.relative(r.path), "range": r.span.to_json(), "message": r.message} for r in item.related],
                "fix": fix_json(item.fix, report),
            }
            for item in report.findings
        ],
        "summary": report.summary(),
    }
