"""The answers the front ends serve: composed prompt, read reminders and the cascade view.

Each function returns the JSON-ready dict that `lsp-agents prompt|reminders|cascade --format json`
prints and that the language server's commands return, so both front ends agree by construction.

Each also returns the warnings met on the way (malformed harness config files), which the CLI
prints on stderr and the server logs.
"""

from __future__ import annotations

import datetime
import os
import platform
from collections.abc import Iterable, Sequence

from lsp_agents.core.agents.session import start_layers
from lsp_agents.core.harnesses import Harness, LaunchContext
from lsp_agents.core.model import Candidate, Reason
from lsp_agents.core.text import approx_tokens
from lsp_agents.core.versions import installed_version
from lsp_agents.core.walk import find_marker_root


def prompt_result(
    harness: Harness, ctx: LaunchContext, *, layers: bool = False, base_prompt: str | None = None, agent: str | None = None
) -> tuple[dict, list[str]]:
    """The instructions sent at start; with `layers` (implied by `agent`) every layer of the first
    request in send order, with the agent's prompt in place of the base where the harness does that."""
    cascade = harness.eager(ctx)
    result = {
        "harness": harness.id,
        "cwd": ctx.cwd,
        "eager": [b.to_json() for b in cascade.blocks],
        "files": [c.to_json() for c in cascade.loaded + cascade.not_loaded],
        "layers": [],
    }
    if layers or agent is not None:
        found, chosen = start_layers(harness, ctx, cascade, environment_block(ctx), agent=agent, base_prompt=base_prompt)
        result["layers"] = [layer.to_json() for layer in found]
        if chosen is not None:
            result["agent"] = chosen.to_json()
    return result, cascade.warnings


def environment_block(ctx: LaunchContext, today: datetime.date | None = None) -> str:
    """The facts every harness states about its launch: directory, git or not, platform, date."""
    is_git = find_marker_root(ctx.fs, ctx.cwd, [".git"]) is not None
    today = today or datetime.date.today()
    return (
        "<env>\n"
        f"Working directory: {ctx.cwd}\n"
        f"Is directory a git repo: {'yes' if is_git else 'no'}\n"
        f"Platform: {platform.system().lower()}\n"
        f"Today's date: {today.isoformat()}\n"
        "</env>"
    )


def reminders_result(
    harness: Harness, ctx: LaunchContext, target: str, loaded: Sequence[str] = ()
) -> tuple[dict, list[str]]:
    cascade = harness.on_read(ctx, target, loaded)
    result = {
        "harness": harness.id,
        "cwd": ctx.cwd,
        "read": target,
        "reminders": [b.to_json() for b in cascade.blocks],
        "files": [c.to_json() for c in cascade.loaded + cascade.not_loaded],
    }
    return result, cascade.warnings


def _sent_bytes(candidate: Candidate) -> int:
    return candidate.truncated_at if candidate.truncated_at is not None else candidate.bytes


def _loaded_entry(candidate: Candidate) -> dict:
    size = _sent_bytes(candidate)
    return {"path": candidate.path, "role": str(candidate.role), "bytes": size, "tokens": approx_tokens(size)}


def _not_loaded_entry(candidate: Candidate) -> dict:
    entry = {"path": candidate.path, "role": str(candidate.role), "reason": str(candidate.reason)}
    if candidate.related:
        entry["related"] = candidate.related
    return entry


def cascade_result(harnesses: Iterable[Harness], ctx: LaunchContext, target: str) -> tuple[dict, list[str]]:
    entries = []
    warnings: list[str] = []
    for harness in harnesses:
        eager, on_read = harness.eager(ctx), harness.on_read(ctx, target)
        # Files the read skips because they are already loaded eagerly are not news here, and
        # the read's verdict on a file (a conditional rule that matched or not) replaces the eager one.
        skipped = [c for c in on_read.not_loaded if c.reason != Reason.ALREADY_LOADED]
        decided_on_read = {c.path for c in on_read.files}
        eager_skipped = [c for c in eager.not_loaded if c.path not in decided_on_read]
        entries.append(
            {
                "harness": harness.id,
                "verified": harness.verified,
                **version_fields(harness, ctx),
                "eager": [_loaded_entry(c) for c in eager.loaded],
                "on_read": [_loaded_entry(c) for c in on_read.loaded],
                "not_loaded": [_not_loaded_entry(c) for c in eager_skipped + skipped],
            }
        )
        warnings += eager.warnings
    return {"file": target, "cwd": ctx.cwd, "harnesses": entries}, warnings


def version_fields(harness: Harness, ctx: LaunchContext) -> dict:
    """The version a harness model follows and, when found, the version installed globally."""
    installed = installed_version(ctx.fs, harness.package, ctx.home, ctx.env)
    return {"version": harness.version, "installed": installed.to_json(harness.version) if installed else None}


def version_note(entry: dict) -> str:
    """One line for people: `verified against 1.18.33; installed 1.19.0 (newer than verified)`."""
    note = f"verified against {entry['version']}" if entry["verified"] else f"documented ({entry['version']})"
    installed = entry.get("installed")
    if installed:
        note += f"; installed {installed['version']}" + (" (newer than verified)" if installed["newer"] else "")
    return note


def harnesses_result(harnesses: Iterable[Harness], ctx: LaunchContext) -> dict:
    """Every harness model: what it follows (a verified CLI version or documentation) and what is installed."""
    return {"harnesses": [
        {"harness": h.id, "title": h.title, "verified": h.verified, "package": h.package, **version_fields(h, ctx)}
        for h in harnesses
    ]}


def resolve_cwd(path: str) -> str:
    """The launch directory as the harness sees it: the OS reports the physical path."""
    return os.path.realpath(path)
