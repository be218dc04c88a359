"""Hover: what the agent is told.

On a source file, the active instructions for the default harness (eager files in order, what a
read of this file adds, bytes and tokens) and one line per other enabled harness with any cut, all
from the `cascade` command's answer. On an instruction file, who sends it from where and what it
shadows (`file_facts`, as the code lens and the editor's tree). On an `@import` or a Markdown link,
the file it points at and which harnesses expand the import. Lists, not tables: a hover is narrow.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from lsprotocol import types

from lsp_agents.core.compose import cascade_result, version_note
from lsp_agents.core.file_uses import FileUses, directory_words
from lsp_agents.core.harnesses import HARNESSES
from lsp_agents.core.model import JsonObject
from lsp_agents.core.vocabulary import entry_size, explain, size_label
from lsp_agents.server import definition_hover, file_facts, links
from lsp_agents.server.budget import guarded
from lsp_agents.server.references import Reference
from lsp_agents.server.uris import path_of, uri_of

if TYPE_CHECKING:
    from lsp_agents.server.server import AgentsLanguageServer

_MARKDOWN = str.maketrans({c: "\\" + c for c in "\\`*_[]<>|~#"})


def _text(words: str) -> str:
    """Words from the workspace (file names) as Markdown shows them literally."""
    return words.translate(_MARKDOWN)


def _shown(path: str, cwd: str, home: str) -> str:
    if path == cwd or path.startswith(cwd.rstrip(os.sep) + os.sep):
        return os.path.relpath(path, cwd)
    if path.startswith(home.rstrip(os.sep) + os.sep):
        return "~/" + os.path.relpath(path, home)
    return path


def _link(path: str, cwd: str, home: str) -> str:
    text = _text(_shown(path, cwd, home))
    return f"[{text}]({uri_of(path)})" if os.path.isabs(path) else f"`{text}`"


def _cuts(entry: JsonObject, cwd: str, home: str) -> str:
    """`; AGENTS.md cut at byte 500 of 578` for the files of a harness's entry its budget cuts."""
    cut = [
        f"{_text(_shown(e['path'], cwd, home))} cut at byte {e['truncated_at']:,} of {e['size']:,}"
        for e in entry["eager"] + entry["on_read"]
        if e["truncated_at"] is not None
    ]
    return "; " + ", ".join(cut) if cut else ""


def source_summary(ls: AgentsLanguageServer, path: str) -> str:
    settings = ls.settings_for(path)
    enabled = ls.enabled_harnesses(path)
    default = settings.default_harness
    order = [default] + [h for h in enabled if h != default]
    ctx = ls.context(path)
    folder = ls.folder_for(path)
    launched = directory_words(ctx.cwd, ls.fs.realpath(folder.root)) if folder is not None else f"`{ctx.cwd}`"
    result, _warnings = cascade_result([HARNESSES[h] for h in order], ctx, path)
    first, *others = result["harnesses"]
    lines = [
        f"**{default}** sends {size_label(first['total'])} for this file (launched in {launched}; {version_note(first)})",
        "",
        "At start:",
        "",
    ]
    lines += [f"{n}. {_link(e['path'], ctx.cwd, ctx.home)} · {entry_size(e)}" for n, e in enumerate(first["eager"], 1)]
    if not first["eager"]:
        lines.append("nothing")
    if first["on_read"]:
        lines += ["", "On read (added when the agent reads this file):", ""]
        start = len(first["eager"]) + 1
        lines += [f"{n}. {_link(e['path'], ctx.cwd, ctx.home)} · {entry_size(e)}" for n, e in enumerate(first["on_read"], start)]
    if others:
        lines += ["", "---", ""]
    for entry in others:
        lines.append(
            f"- **{entry['harness']}**: {size_label(entry['total'])} "
            f"({len(entry['eager'])} at start, {len(entry['on_read'])} on read{_cuts(entry, ctx.cwd, ctx.home)})"
        )
    return "\n".join(lines)


def instruction_summary(ls: AgentsLanguageServer, path: str) -> str:
    """Per harness, what it does with the file from each launch directory (the code lens and the
    editor's tree say the same words), then what the file keeps out and who ignores it."""
    facts = file_facts.uses_of(ls, path)
    home = ls.home(ls.settings_for(path))
    lines = [f"**{_text(os.path.basename(path))}** — instruction file", ""]
    lines += [f"- **{harness}**: {_text(facts.summary(harness))}" for harness in facts.harnesses()]
    if not facts.uses:
        lines.append(
            "No enabled harness considers this file when launched in "
            + ", ".join(directory_words(c, facts.root) for c in facts.cwds)
            + "."
        )
    if facts.shadows:
        lines += ["", "Because of this file, these are not loaded:", ""]
        lines += [
            f"- {_link(s.path, facts.root, home)} for {s.harness} from {directory_words(s.cwd, facts.root)}: {explain(s.reason)}"
            for s in dict.fromkeys(facts.shadows)
        ]
    ignoring = [h for h in ls.enabled_harnesses(path) if h not in facts.harnesses()]
    if ignoring and facts.uses:
        lines += ["", "Not considered by: " + ", ".join(ignoring)]
    return "\n".join(lines)


def import_words(facts: FileUses, target: str) -> str:
    """Which harnesses expand an `@` import of the file, as their cascades say; else who sends the line as written."""
    expanders = facts.imports.get(target, [])
    if expanders:
        return "Expanded by: " + ", ".join(expanders)
    senders = [h for h in facts.harnesses() if facts.sends(h)]
    if senders:
        return f"Not expanded: {', '.join(senders)} {'sends' if len(senders) == 1 else 'send'} the line as written"
    return "Not expanded: no enabled harness sends this file"


def reference_summary(ls: AgentsLanguageServer, path: str, reference: Reference) -> str:
    home = ls.home(ls.settings_for(path))
    base = os.path.dirname(path)
    status = "" if ls.fs.is_file(reference.target) else " — **not found**"
    kind = f"`@{reference.written}`" if reference.is_import else f"link `{reference.written}`"
    lines = [f"{kind} → {_link(reference.target, base, home)}{status}"]
    if reference.is_import:
        lines += ["", import_words(file_facts.uses_of(ls, path), reference.target)]
    return "\n".join(lines)


def register(server: AgentsLanguageServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_HOVER)
    @guarded(None)
    def hover(ls: AgentsLanguageServer, params: types.HoverParams) -> types.Hover | None:
        path = path_of(params.text_document.uri)
        if path is None:
            return None
        if (found := links.reference_at(ls, params.text_document.uri, params.position)) is not None:
            value = reference_summary(ls, path, found[1])
        else:
            where = ls.settings_for(path).hover.source_files
            if where == "off" or (where == "firstLine" and params.position.line != 0):  # lines count alike in every encoding
                return None
            definition = definition_hover.summary(ls, path)
            if definition is not None:
                value = definition
            else:
                value = instruction_summary(ls, path) if file_facts.is_instruction(ls, path) else source_summary(ls, path)
        return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=value))
