"""Terminal views of the command line's answers (text output only; the answers come from the
core): the cascade table, the agents listing and the session timeline.

One path style per view: a path in the workspace is relative to the workspace root (named once,
in the header), one in the home directory starts with `~/`, and anything else stays absolute.
"""

from __future__ import annotations

import os

from lsp_agents.core.compose import version_note
from lsp_agents.core.model import JsonObject
from lsp_agents.core.vocabulary import size_label
from lsp_agents.terminal import Style

_KIND_ORDER = {"agent": 0, "skill": 1, "command": 2}
_WHEN = {"listed": "listed at start", "on-use": "sent on use", "not-sent": "not sent"}


class Paths:
    """How a view shows a path: workspace-relative, `~/…` in the home directory, else absolute."""

    def __init__(self, root: str, home: str) -> None:
        self.root = root.rstrip(os.sep) or os.sep
        self.home = home.rstrip(os.sep)

    def __call__(self, path: str) -> str:
        if not os.path.isabs(path):  # a URL (opencode's remote instructions) or a name
            return path
        if path == self.root:
            return "."
        if path.startswith(self.root.rstrip(os.sep) + os.sep):
            return os.path.relpath(path, self.root)
        if self.home and path.startswith(self.home + os.sep):
            return "~/" + os.path.relpath(path, self.home)
        return path

    def directory(self, path: str) -> str:
        """A launch directory in words: `the workspace root`, else its path."""
        return "the workspace root" if path.rstrip(os.sep) == self.root else self(path)


def format_cascade_table(result: JsonObject, paths: Paths, style: Style) -> str:
    """Per harness: the files sent at start in order, what a read adds, and what is not loaded
    with the reason in words."""
    lines = [
        f"{style(paths(result['file']), 'bold')}: what each harness sends, launched in {paths.directory(result['cwd'])}",
        f"workspace: {paths.root}",
        style(
            "(at start: sent when a session starts · on read: added when the agent reads this file · ~tokens: bytes / 4)", "dim"
        ),
    ]
    for entry in result["harnesses"]:
        lines += ["", f"{style(entry['harness'], 'bold', 'cyan')} — {size_label(entry['total'])} · {version_note(entry)}"]
        rows = [("at start", f) for f in entry["eager"]] + [("on read", f) for f in entry["on_read"]]
        width = max((len(paths(item["path"])) for _, item in rows), default=0)
        for number, (when, item) in enumerate(rows, 1):
            cut = (
                ""
                if item["truncated_at"] is None
                else style(f"  cut at byte {item['truncated_at']:,} of {item['size']:,}", "yellow")
            )
            tokens = f"~{item['tokens']:,} tokens"
            lines.append(
                f"  {number:>2}. {when:<8}  {paths(item['path']):<{width}}  {item['role']:<7} "
                f"{item['bytes']:>7,} B  {tokens:>14}{cut}"
            )
        if not rows:
            lines.append("      nothing is sent")
        for item in entry["not_loaded"]:
            related = f"; see {paths(item['related'])}" if item.get("related") else ""
            lines.append(style(f"      not loaded: {paths(item['path'])} — {item['explanation']}{related}", "dim"))
    return "\n".join(lines)


def format_definitions(result: JsonObject, paths: Paths, style: Style) -> str:
    """Per harness: each agent, skill and command, when it is sent, and what is wrong with it."""
    lines = [f"launch directory: {paths.directory(result['cwd'])}", f"workspace: {paths.root}"]
    for entry in result["harnesses"]:
        lines += ["", style(entry["harness"], "bold", "cyan")]
        if not entry["modelled"]:
            lines.append(style("  (agents, skills and commands not modelled for this harness)", "dim"))
            continue
        definitions = sorted(entry["definitions"], key=lambda d: (_KIND_ORDER[d["kind"]], d["name"].casefold()))
        for item in definitions:
            when = _WHEN[item["delivery"]]
            if item.get("shadowedBy"):
                when = f"shadowed by {paths(item['shadowedBy'])}"
            lines.append(f"  {item['kind']:<8} {item['name']:<28} {item['scope']:<8} {when:<16} {paths(item['path'])}")
            lines += [style(f"           ! {issue['message']}", "yellow") for issue in item["issues"]]
        if not definitions:
            lines.append(style("  (none found)", "dim"))
    return "\n".join(lines)


def format_timeline(result: JsonObject, paths: Paths, style: Style) -> str:
    """The session, trigger by trigger, with each reminder's name, placement and text."""
    agent = f", agent {result['agent']}" if result["agent"] else ""
    plan = " (plan mode)" if result["plan"] else ""
    lines = [f"{style(result['harness'], 'bold', 'cyan')} launched in {paths.directory(result['cwd'])}{agent}{plan}"]
    for event in result["timeline"]:
        lines += ["", style(event["label"], "bold")]
        if event.get("note"):
            lines.append(f"  {event['note']}")
        if not event["reminders"] and not event.get("note"):
            lines.append(style("  (nothing added)", "dim"))
        for reminder in event["reminders"]:
            status = "verified" if reminder["verified"] else "unverified"
            lines.append(style(f"  -- {reminder['name']} ({reminder['placement']}, {reminder['source']}, {status})", "dim"))
            lines += [f"  {line}" if line else "" for line in reminder["text"].split("\n")]
    return "\n".join(lines)
