"""Terminal views of `lsp-agents agents` and `lsp-agents reminders --session` (text output only;
the answers come from `core.agents.session`)."""

from __future__ import annotations

import os

_KIND_ORDER = {"agent": 0, "skill": 1, "command": 2}
_WHEN = {"listed": "listed at start", "on-use": "sent on use", "not-sent": "not sent"}


def _shown(path: str, cwd: str) -> str:
    if path.startswith(cwd.rstrip(os.sep) + os.sep):
        return os.path.relpath(path, cwd)
    home = os.path.expanduser("~")
    return "~/" + os.path.relpath(path, home) if path.startswith(home.rstrip(os.sep) + os.sep) else path


def format_definitions(result: dict) -> str:
    """Per harness: each agent, skill and command, when it is sent, and what is wrong with it."""
    cwd = result["cwd"]
    lines = [f"launch directory: {cwd}"]
    for entry in result["harnesses"]:
        lines += ["", f"{entry['harness']}"]
        if not entry["modelled"]:
            lines.append("  (agents, skills and commands not modelled for this harness)")
            continue
        definitions = sorted(entry["definitions"], key=lambda d: (_KIND_ORDER[d["kind"]], d["name"].casefold()))
        for item in definitions:
            when = _WHEN[item["delivery"]]
            if item.get("shadowedBy"):
                when = f"shadowed by {_shown(item['shadowedBy'], cwd)}"
            lines.append(f"  {item['kind']:<8} {item['name']:<28} {item['scope']:<8} {when:<16} {_shown(item['path'], cwd)}")
            lines += [f"           ! {issue['message']}" for issue in item["issues"]]
        if not definitions:
            lines.append("  (none found)")
    return "\n".join(lines)


def format_timeline(result: dict) -> str:
    """The session, trigger by trigger, with each reminder's name, placement and text."""
    agent = f", agent {result['agent']}" if result["agent"] else ""
    lines = [f"{result['harness']} launched in {result['cwd']}{agent}{' (plan mode)' if result['plan'] else ''}"]
    for event in result["timeline"]:
        lines += ["", event["label"]]
        if not event["reminders"]:
            lines.append("  (nothing added)")
        for reminder in event["reminders"]:
            status = "verified" if reminder["verified"] else "unverified"
            lines.append(f"  -- {reminder['name']} ({reminder['placement']}, {reminder['source']}, {status})")
            lines += [f"  {line}" if line else "" for line in reminder["text"].split("\n")]
    return "\n".join(lines)
