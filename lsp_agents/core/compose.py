"""The answers the front ends serve: composed prompt, read reminders and the cascade view.

Each function returns the JSON-ready dict that `lsp-agents prompt|reminders|cascade --format json`
prints and that the language server's commands return, so both front ends agree by construction.

Each also returns the warnings met on the way (malformed harness config files), which the CLI
prints on stderr and the server logs.
"""

from __future__ import annotations

import datetime
import platform
from collections.abc import Iterable, Sequence

from lsp_agents.core.agents.session import start_layers
from lsp_agents.core.harnesses import Harness, LaunchContext
from lsp_agents.core.model import Candidate, JsonObject, Reason
from lsp_agents.core.real_paths import real_path
from lsp_agents.core.text import approx_tokens
from lsp_agents.core.versions import installed_version
from lsp_agents.core.vocabulary import explain
from lsp_agents.core.walk import find_marker_root


def prompt_result(
    harness: Harness, ctx: LaunchContext, *, layers: bool = False, base_prompt: str | None = None, agent: str | None = None
) -> tuple[JsonObject, list[str]]:
    """The instructions sent at start; with `layers` (implied by `agent`) every layer of the first
    request in send order, with the agent's prompt in place of the base where the harness does that."""
    cascade = harness.eager(ctx)
    files = [file_entry(ctx, c) for c in cascade.loaded + cascade.not_loaded]
    result = {
        "harness": harness.id,
        "cwd": ctx.cwd,
        "eager": [b.to_json() for b in cascade.blocks],
        "files": files,
        "total": total(f for f in files if f["loaded"]),
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
    harness: Harness, ctx: LaunchContext, target: str, loaded: Sequence[str] = (), earlier: Sequence[str] = ()
) -> tuple[JsonObject, list[str]]:
    cascade = harness.on_read(ctx, target, loaded, earlier)
    files = [file_entry(ctx, c) for c in cascade.loaded + cascade.not_loaded]
    result = {
        "harness": harness.id,
        "cwd": ctx.cwd,
        "read": target,
        "reminders": [b.to_json() for b in cascade.blocks],
        "files": files,
        "total": total(f for f in files if f["loaded"]),
    }
    return result, cascade.warnings


def _sent_bytes(candidate: Candidate) -> int:
    """The bytes of the file the harness sends: all of a loaded file unless its budget cuts it."""
    if not candidate.loaded:
        return 0
    return candidate.truncated_at if candidate.truncated_at is not None else candidate.bytes


def _cut_line(ctx: LaunchContext, candidate: Candidate) -> int | None:
    """The 0-based line the harness's cut falls on (where an editor should open the file)."""
    if candidate.truncated_at is None:
        return None
    data = ctx.fs.read(candidate.path).data or b""
    return data.count(b"\n", 0, candidate.truncated_at)


def file_entry(ctx: LaunchContext, candidate: Candidate) -> JsonObject:
    """One candidate as every answer lists it. `bytes` and `tokens` count what is sent (after any
    cut; 0 when not loaded), `size` the whole file: the one byte count and token estimate that
    every front end shows."""
    sent = _sent_bytes(candidate)
    entry = {
        "path": candidate.path,
        "role": str(candidate.role),
        "loaded": candidate.loaded,
        "bytes": sent,
        "tokens": approx_tokens(sent),
        "size": candidate.bytes,
        "truncated_at": candidate.truncated_at,
        "truncated_line": _cut_line(ctx, candidate),
        "reason": str(candidate.reason) if candidate.reason else None,
    }
    if candidate.reason:
        entry["explanation"] = explain(candidate.reason)
    if candidate.related:
        entry["related"] = candidate.related
    return entry


def total(entries: Iterable[JsonObject]) -> JsonObject:
    """Files, bytes and tokens of entries sent together. Tokens add up per file, so a table's rows
    always sum to its total."""
    listed = list(entries)
    return {"files": len(listed), "bytes": sum(e["bytes"] for e in listed), "tokens": sum(e["tokens"] for e in listed)}


def _loaded_entry(ctx: LaunchContext, candidate: Candidate) -> JsonObject:
    entry = file_entry(ctx, candidate)
    return {k: entry[k] for k in ("path", "role", "bytes", "tokens", "size", "truncated_at", "truncated_line")}


def _not_loaded_entry(ctx: LaunchContext, candidate: Candidate) -> JsonObject:
    entry = file_entry(ctx, candidate)
    return {k: entry[k] for k in ("path", "role", "size", "reason", "explanation", "related") if k in entry}


_REFERENCE_SKIPPED = frozenset({Reason.IMPORT_CYCLE, Reason.IMPORT_TOO_DEEP})


def _contradicted(candidate: Candidate, loaded: set[str]) -> bool:
    """A not-loaded verdict on a file the harness loads all the same (through an import)."""
    return candidate.path in loaded and candidate.reason not in _REFERENCE_SKIPPED


def cascade_result(harnesses: Iterable[Harness], ctx: LaunchContext, target: str) -> tuple[JsonObject, list[str]]:
    entries = []
    warnings: list[str] = []
    for harness in harnesses:
        eager, on_read = harness.eager(ctx), harness.on_read(ctx, target)
        # Files the read skips because they are already loaded eagerly are not news here, and
        # the read's verdict on a file (a conditional rule that matched or not) replaces the eager one.
        # A file loaded another way (a CLAUDE.md's @AGENTS.md import brings the AGENTS.md that
        # CLAUDE.md turns off) is loaded: listed once, not also as not loaded. A cycle or the depth
        # limit skips one more reference to it, which stays listed: it is about the import.
        loaded = {c.path for c in (*eager.loaded, *on_read.loaded)}
        skipped = [c for c in on_read.not_loaded if c.reason != Reason.ALREADY_LOADED and not _contradicted(c, loaded)]
        decided_on_read = {c.path for c in on_read.files}
        eager_skipped = [c for c in eager.not_loaded if c.path not in decided_on_read and not _contradicted(c, loaded)]
        at_start = [_loaded_entry(ctx, c) for c in eager.loaded]
        added = [_loaded_entry(ctx, c) for c in on_read.loaded]
        entries.append(
            {
                "harness": harness.id,
                "title": harness.spec.title,
                "verified": harness.spec.verified,
                **version_fields(harness, ctx),
                "eager": at_start,
                "on_read": added,
                "not_loaded": [_not_loaded_entry(ctx, c) for c in eager_skipped + skipped],
                "total": total(at_start + added),
                "looks_for": list(harness.looks_for(ctx)),
            }
        )
        warnings += eager.warnings
    return {"file": target, "cwd": ctx.cwd, "harnesses": entries}, warnings


def version_fields(harness: Harness, ctx: LaunchContext) -> JsonObject:
    """The version a harness model follows and, when found, the version installed globally: under
    the package's current name first, then under a name it was published under before."""
    spec = harness.spec
    packages = (spec.package, *spec.former_packages) if spec.package else ()
    installed = next(filter(None, (installed_version(ctx.fs, p, ctx.home, ctx.env) for p in packages)), None)
    return {"version": spec.version, "installed": installed.to_json(spec.version) if installed else None}


def version_note(entry: JsonObject) -> str:
    """One line for people: `verified against 1.18.33; installed 1.19.0 (newer than verified)`."""
    note = f"verified against {entry['version']}" if entry["verified"] else f"documented, not verified ({entry['version']})"
    installed = entry.get("installed")
    if installed:
        note += f"; installed {installed['version']}" + (" (newer than verified)" if installed["newer"] else "")
    return note


def harnesses_result(harnesses: Iterable[Harness], ctx: LaunchContext) -> JsonObject:
    """Every harness model: what it follows (a verified CLI version or documentation) and what is installed."""
    return {
        "harnesses": [
            {
                "harness": h.id,
                "title": h.spec.title,
                "verified": h.spec.verified,
                "package": h.spec.package,
                **version_fields(h, ctx),
            }
            for h in harnesses
        ]
    }


def resolve_cwd(path: str) -> str:
    """The launch directory as the harness sees it: the OS reports the physical path."""
    return real_path(path)
