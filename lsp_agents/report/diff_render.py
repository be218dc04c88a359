"""Text and Markdown views of a `lsp-agents diff` answer (the JSON contract of `report.diff`).

Both list, per harness and group of launch directories, one row per file whose standing changes:
`+` now sent, `-` no longer sent, `~` sent with other bytes or another cut, `·` not sent either
way but for another reason, then the new order when it changed; then the findings introduced and
resolved. The Markdown is a pull-request comment: the one-line summary first, each harness in a
collapsed `<details>`, every workspace-chosen name in a code span (a file named `@team` pings
nobody) and at most MARKDOWN_LIMIT characters (GitHub takes 65,536).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from lsp_agents.terminal import PLAIN, Style

MARKDOWN_LIMIT = 60_000
ROWS_PER_GROUP = 40
_SYMBOLS = {"added": "+", "removed": "-", "resized": "~", "skipped": "·"}


def summary_line(answer: dict[str, Any]) -> str:
    summary = answer["summary"]
    prompts = summary["prompts_changed"]
    harnesses = ", ".join(summary["harnesses_changed"])
    changed = f"{prompts} prompt{'' if prompts == 1 else 's'} change ({harnesses})" if prompts else "no prompt changes"
    found = f"{summary['findings_introduced']} finding{'' if summary['findings_introduced'] == 1 else 's'} introduced"
    return f"{_side(answer['base'])} → {_side(answer['head'])}: {changed}; {found}, {summary['findings_resolved']} resolved"


def _side(side: dict[str, Any]) -> str:
    return f"{side['name']} ({side['commit'][:7]})" if side["commit"] else side["name"]


def _amount(sent: dict[str, Any]) -> str:
    return f"{sent['bytes']:,} B (~{sent['tokens']:,} tokens)"


def _totals(totals: dict[str, Any]) -> str:
    return f"{totals['files']} file{'' if totals['files'] == 1 else 's'}, {_amount(totals)}"


def _standing(now: dict[str, Any] | None, code: Callable[[str], str]) -> str:
    if now is None:
        return "not considered"
    if now["kind"] == "loaded":
        return "sent"
    by = f" by {code(now['related'])}" if now["related"] else ""
    return f"{now['kind']} ({now['reason']}){by}"


def _cut(cut: dict[str, Any] | None, code: Callable[[str], str]) -> str:
    if cut is None:
        return "whole"
    inside = f" in {code(cut['section'])}" if cut["section"] else ""
    return f"cut at line {cut['line']}{inside}"


def rows(change: dict[str, Any], code: Callable[[str], str]) -> list[tuple[str, str, str, str]]:
    """(symbol, path, bytes sent, note) per file whose standing changes."""
    found = []
    for item in change["added"]:
        note = _cut(item["cut"], code) if item["cut"] else ""
        found.append(("+", item["path"], _amount(item), note))
    for item in change["removed"]:
        found.append(("-", item["path"], _amount(item), "now " + _standing(item["now"], code)))
    for item in change["resized"]:
        before, after = item["before"], item["after"]
        note = _cut(before["cut"], code) + " → " + _cut(after["cut"], code) if before["cut"] != after["cut"] else ""
        if item["sections_lost"]:
            note += "; no longer sent: " + ", ".join(map(code, item["sections_lost"]))
        if item["sections_regained"]:
            note += "; sent again: " + ", ".join(map(code, item["sections_regained"]))
        found.append(("~", item["path"], f"{_amount(before)} → {_amount(after)}", note.strip("; ")))
    for item in change["skipped"]:
        found.append(("·", item["path"], "not sent", f"{_standing(item['before'], code)} → {_standing(item['after'], code)}"))
    return found


def _launched(change: dict[str, Any], code: Callable[[str], str]) -> str:
    directories = change["launch_directories"]
    shown = ", ".join("the workspace root" if d == "." else code(d) for d in directories[:10])
    more = f" and {len(directories) - 10} more" if len(directories) > 10 else ""
    return f"launched from {shown}{more}: {_totals(change['before'])} → {_totals(change['after'])}"


def _finding_line(finding: dict[str, Any]) -> str:
    start = finding["range"]["start"]
    return f"{finding['path']}:{start['line'] + 1}:{start['character'] + 1}: {finding['severity']} {finding['code']} {finding['message']}"


def render_text(answer: dict[str, Any], style: Style = PLAIN) -> str:
    lines = []
    for change in answer["changes"]:
        lines.append(style(f"{change['harness']}, {_launched(change, str)}", "bold"))
        lines += [f"  {symbol} {path}  {sent}  {note}".rstrip() for symbol, path, sent, note in rows(change, str)]
        if change["reordered"]:
            lines.append("  ↕ new order: " + ", ".join(change["reordered"]))
    for title, symbol, key in (("findings introduced", "+", "introduced"), ("findings resolved", "-", "resolved")):
        if answer["findings"][key]:
            lines.append(style(title, "bold"))
            lines += [f"  {symbol} {_finding_line(f)}" for f in answer["findings"][key]]
    lines.append(style(summary_line(answer), "bold"))
    return "\n".join(lines)


# -- Markdown -----------------------------------------------------------------------------------
def _code(text: str) -> str:
    """`text` as a Markdown code span that survives a table cell (no mention, link or HTML in it)."""
    text = text.replace("\n", " ").replace("|", "\\|")
    ticks = "`" * (max(map(len, re.findall("`+", text)), default=0) + 1)
    padding = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{ticks}{padding}{text}{padding}{ticks}"


def _plain(text: str) -> str:
    """Generated text (a finding's message) made inert: no HTML, no mention, one line."""
    for raw, safe in (("&", "&amp;"), ("<", "&lt;"), (">", "&gt;"), ("@", "&#64;"), ("|", "\\|"), ("\n", " ")):
        text = text.replace(raw, safe)
    return text


def _harness_block(harness: str, changes: list[dict[str, Any]]) -> str:
    count = sum(len(c["launch_directories"]) for c in changes)
    parts = [f"<details><summary><b>{harness}</b>: {count} launch director{'y' if count == 1 else 'ies'}</summary>", ""]
    for change in changes:
        launched = _launched(change, _code)
        parts += [f"**{launched[0].upper()}{launched[1:]}**", ""]
        found = rows(change, _code)
        if found:
            parts += ["| | File | Sent | Change |", "|---|---|---|---|"]
            parts += [f"| {symbol} | {_code(path)} | {sent} | {note} |" for symbol, path, sent, note in found[:ROWS_PER_GROUP]]
            if len(found) > ROWS_PER_GROUP:
                parts.append(f"| | … {len(found) - ROWS_PER_GROUP} more | | |")
            parts.append("")
        if change["reordered"]:
            parts += ["New order: " + ", ".join(map(_code, change["reordered"][:ROWS_PER_GROUP])), ""]
    return "\n".join([*parts, "</details>"])


def _findings_block(findings: dict[str, Any]) -> str:
    introduced, resolved = findings["introduced"], findings["resolved"]
    parts = [f"<details><summary>Findings: {len(introduced)} introduced, {len(resolved)} resolved</summary>", ""]
    for symbol, key in (("new", "introduced"), ("gone", "resolved")):
        for finding in findings[key][:ROWS_PER_GROUP]:
            start = finding["range"]["start"]
            where = _code(f"{finding['path']}:{start['line'] + 1}")
            parts.append(f"- {symbol}: **{finding['severity']}** `{finding['code']}` {where}: {_plain(finding['message'])}")
        if len(findings[key]) > ROWS_PER_GROUP:
            parts.append(f"- … {len(findings[key]) - ROWS_PER_GROUP} more {key}")
    return "\n".join([*parts, "", "</details>"])


def render_markdown(answer: dict[str, Any]) -> str:
    blocks = [f"**lsp-agents diff** {_plain(summary_line(answer))}"]
    if answer["findings"]["introduced"] or answer["findings"]["resolved"]:
        blocks.append(_findings_block(answer["findings"]))
    by_harness: dict[str, list[dict[str, Any]]] = {}
    for change in answer["changes"]:
        by_harness.setdefault(change["harness"], []).append(change)
    used = sum(len(b) for b in blocks)
    for number, (harness, changes) in enumerate(by_harness.items()):
        block = _harness_block(harness, changes)
        if used + len(block) > MARKDOWN_LIMIT:
            left = list(by_harness)[number:]
            blocks.append(f"*Left out to fit a comment: {', '.join(left)}; run `lsp-agents diff` to see them.*")
            break
        blocks.append(block)
        used += len(block)
    return "\n\n".join(blocks)
