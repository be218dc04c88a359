"""Hover: what the agent is told.

On a source file, the active instructions for the default harness (eager files in order, what a
read of this file adds, bytes and tokens) and one line per other enabled harness, all from the
`cascade` command's answer. On an instruction file, who loads it from where and what it shadows.
On an `@import` or a Markdown link, the file it points at.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from lsprotocol import types

from lsp_agents.core.compose import cascade_result, version_note
from lsp_agents.core.harnesses import HARNESSES
from lsp_agents.core.vocabulary import entry_size, explain, size_label
from lsp_agents.core.workspace import INSTRUCTION_NAMES
from lsp_agents.server import definition_hover, links, usage
from lsp_agents.server.server import guarded, path_of, uri_of

if TYPE_CHECKING:
    from lsp_agents.server.server import AgentsLanguageServer



def _shown(path: str, cwd: str, home: str) -> str:
    if path == cwd or path.startswith(cwd.rstrip(os.sep) + os.sep):
        return os.path.relpath(path, cwd)
    if path.startswith(home.rstrip(os.sep) + os.sep):
        return "~/" + os.path.relpath(path, home)
    return path


def _link(path: str, cwd: str, home: str) -> str:
    text = _shown(path, cwd, home).replace("[", "\\[").replace("]", "\\]")
    return f"[{text}]({uri_of(path)})" if os.path.isabs(path) else f"`{text}`"


def source_summary(ls: AgentsLanguageServer, path: str) -> str:
    settings = ls.settings_for(path)
    enabled = ls.enabled_harnesses(path)
    default = settings.default_harness
    order = [default] + [h for h in enabled if h != default]
    ctx = ls.context(path)
    result, _warnings = cascade_result([HARNESSES[h] for h in order], ctx, path)
    first, *others = result["harnesses"]
    lines = [f"**{default}** sends {size_label(first['total'])} for this file "
             f"(launched in `{ctx.cwd}`; {version_note(first)})", "", "At start:", ""]
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
        lines.append(f"- **{entry['harness']}**: {size_label(entry['total'])} "
                     f"({len(entry['eager'])} at start, {len(entry['on_read'])} on read)")
    return "\n".join(lines)



def instruction_summary(ls: AgentsLanguageServer, path: str) -> str:
    enabled = ls.enabled_harnesses(path)
    cwds = usage.launch_directories(ls, path)
    found, shadows = usage.uses(ls, path, enabled, cwds)
    home = ls.home(ls.settings_for(path))
    base = ls.launch_directory(path)
    where = lambda cwd: f"`{_shown(cwd, base, home) if cwd != base else '.'}`"  # noqa: E731
    lines = [f"**{os.path.basename(path)}** — instruction file", "", "| harness | launch directory | sent |", "|---|---|---|"]
    for use in found:
        if use.when:
            verdict = use.when
        else:
            verdict = f"not loaded: {explain(use.reason)}" + (f" ({_link(use.related, base, home)})" if use.related else "")
        lines.append(f"| {use.harness} | {where(use.cwd)} | {verdict} |")
    if not found:
        lines = lines[:2] + ["No enabled harness considers this file from " + ", ".join(where(c) for c in cwds) + "."]
    if shadows:
        lines += ["", "Because of this file, these are not loaded:", ""]
        lines += [f"- {_link(s.path, base, home)} for {s.harness} from {where(s.cwd)}: {explain(s.reason)}"
                  for s in dict.fromkeys(shadows)]
    ignoring = [h for h in enabled if h not in {u.harness for u in found}]
    if ignoring and found:
        lines += ["", "Not considered by: " + ", ".join(ignoring)]
    return "\n".join(lines)


def reference_summary(ls: AgentsLanguageServer, path: str, reference: links.Reference) -> str:
    home = ls.home(ls.settings_for(path))
    base = os.path.dirname(path)
    status = "" if ls.fs.is_file(reference.target) else " — **not found**"
    kind = f"`@{reference.written}`" if reference.is_import else f"link `{reference.written}`"
    lines = [f"{kind} → {_link(reference.target, base, home)}{status}"]
    if reference.is_import:
        lines += ["", "Expanded by: " + ", ".join(reference.harnesses)]
    return "\n".join(lines)


def is_instruction(ls: AgentsLanguageServer, path: str) -> bool:
    folder = ls.folder_for(path)
    if folder is not None:
        return folder.index.is_instruction_path(path)
    return os.path.basename(path) in INSTRUCTION_NAMES


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
            value = definition_hover.summary(ls, path)
            if value is None:
                value = instruction_summary(ls, path) if is_instruction(ls, path) else source_summary(ls, path)
        return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=value))
