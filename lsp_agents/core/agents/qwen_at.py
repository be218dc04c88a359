"""What Qwen Code 0.24.4 sends for a typed line that no custom command or skill takes, when its
`@path` references name files: `runNonInteractive` (`chunks/chunk-H5I6FURC.js`) runs
`handleAtCommand` / `resolveAtCommandQuery` (packages/cli/src/ui/hooks/atCommandProcessor.ts,
`chunks/chunk-UBBHH6V4.js`) on every line `handleSlashCommand` answers `no_command`; a command's or
a skill's arguments keep their `@path` as typed. Gemini CLI's counterpart is `gemini_at`: the
line is cut and rebuilt the same way (`split_line`, `initial_query`), the rest differs.

- `parseAllAtCommands`: a reference is `@` not after a backslash and the characters up to a blank,
  one of `,;!?()[]{}`, or a `.` before a blank or the end (a backslash takes the next character
  along); `@` alone is a reference too (kept as text). `@http://` and `@https://` run over URL
  characters, trailing `.,;:!?` dropped. `unescapePath` removes the backslash before a blank and
  the shell's special characters only (`unescapeShellSpecials`).
- Each reference in turn: `ext:`, `mcp:` and `SERVER:` names are extensions and MCP servers
  (none here: skipped); `session:` names a past session (not modelled). A path leading out of the
  launch directory (its real path, links followed) is skipped, unless it is in the global temp
  folder (`Storage.getGlobalTempDir`, `$QWEN_HOME/tmp`), which Qwen Code reads: lsp-agents never
  reads outside and shows `injections.OUTSIDE_CONTENT` for its content. A path .gitignore (in a git
  work tree), `.qwenignore`, `.agentignore` or `.aiignore` names (`getIgnoreReason`, as typed, a
  trailing `/` naming a folder; then its real path) is skipped, so is a missing one: no search.
- Nothing read: `initialQueryText || query` (the line rebuilt, a blank put before each reference);
  None here where that is the line as typed. Else the line rebuilt, `\\n--- Content from referenced
  files ---`, then per path in the order typed (a file once, `readManyFiles`) `\\nContent from
  NAME:\\n` (NAME as last typed for that real path) and the file's text (`processSingleFileContent`:
  lines split at `\\n`, each end trimmed; 1,000 lines, 25,000 characters) or the folder's
  `getFolderStructure` tree, then `\\n--- End of content ---`.
- `getFolderStructure` (`chunks/chunk-MNK4GIGD.js`): `Showing up to 20 items:`, a blank line, the
  folder's real path and `/`, then a tree read breadth first, each folder's files then subfolders
  (`localeCompare` order; links neither), ignored files left out, `node_modules`, `.git`, `dist`
  and ignored folders shown as `NAME/...` and not opened; past 20 items `...` ends a list.

Captures: tests/conformance FINDINGS.md §11j (scenario `qwen-typed-at`).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field

from lsp_agents.core.agents.gemini_at import FOOTER, HEADER, Part, initial_query, split_line
from lsp_agents.core.agents.injections import QWEN, Workspace, outside, readable_text
from lsp_agents.core.agents.typed_commands import JS_WHITESPACE
from lsp_agents.core.fs import FileSystem
from lsp_agents.core.harnesses.cline import locale_key
from lsp_agents.core.walk import is_within

MAX_ITEMS = 20  # `getFolderStructure`'s MAX_ITEMS
MAX_LINES = 1000  # DEFAULT_TRUNCATE_TOOL_OUTPUT_LINES
MAX_CHARS = 25000  # DEFAULT_TRUNCATE_TOOL_OUTPUT_THRESHOLD
MAX_BYTES = 4 * MAX_CHARS  # `getRangeReadByteLimit`
CUT = "... [truncated]"
_SHUT_FOLDERS = ("node_modules", ".git", "dist")  # DEFAULT_IGNORED_FOLDERS
_URL_START = re.compile(r"https?://", re.IGNORECASE)
_URL_CHAR = re.compile(r"[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=%]")
_PATH_END = re.compile(rf"[,;!?()\[\]{{}}{re.escape(JS_WHITESPACE)}]")
_UNESCAPE = re.compile(r"\\([ \t()\[\]{};|*?$`'\"#&<>!~,])")  # `unescapeShellSpecials`
_SERVICE_REFS = re.compile(r"ext:.|mcp:.")  # extensions and MCP servers: none here


class _Unknown(Exception):
    """What the CLI sends depends on something lsp-agents does not model; the message says what."""


@dataclass(frozen=True, slots=True)
class _Resolved:
    part: int  # index of the reference among the line's parts
    name: str  # the path as typed (unescaped): the spec and the label
    path: str  # its real path
    outside: bool  # in the temp folder, outside the launch directory: not read here


@dataclass(slots=True)
class _Folder:
    name: str
    files: list[str] = field(default_factory=list)
    folders: list[_Folder] = field(default_factory=list)
    shut: bool = False  # shown as `NAME/...`, not opened
    more_files: bool = False
    more_folders: bool = False


def typed_line_message(fs: FileSystem, cwd: str, temp: str, line: str) -> str | None:
    """What Qwen Code sends for `line` (no command or skill takes it), None where it is sent as typed;
    `temp` is its global temp folder."""
    parts = references(line)
    if not any(part.reference for part in parts):
        return None
    space = Workspace(fs, cwd, QWEN)
    try:
        resolved = [
            found
            for index, part in enumerate(parts)
            if part.reference and part.text != "@"
            for found in [_resolve(space, temp, index, part.text[1:])]
            if found is not None
        ]
    except _Unknown as unknown:
        return f"[what Qwen Code sends for this line: {unknown}]"
    query = initial_query(parts, {r.part: r.name for r in resolved})
    if not resolved:
        sent = query or line
        return None if sent == line else sent
    return query + HEADER + "".join(_read_many(space, resolved)) + FOOTER


def references(line: str) -> list[Part]:
    """`parseAllAtCommands`: the line's text and references (`@` and the path unescaped), blank text dropped."""
    spans: list[tuple[int, int, str]] = []
    start = _next_at(line, 0)
    while start != -1:
        end = _reference_end(line, start)
        spans.append((start, end, "@" + _UNESCAPE.sub(r"\1", line[start + 1 : end])))
        start = _next_at(line, end)
    return split_line(line, spans)


def _next_at(line: str, start: int) -> int:
    """The next `@` not after a backslash, -1 for none."""
    found = line.find("@", start)
    while found > 0 and line[found - 1] == "\\":
        found = line.find("@", found + 1)
    return found


def _reference_end(line: str, at: int) -> int:
    """Where the reference at `at` ends: the path loop of `parseAllAtCommands`, a URL's end trimmed."""
    url = _URL_START.match(line, at + 1) is not None
    end, escaped = at + 1, False
    while end < len(line):
        char = line[end]
        if escaped:
            escaped = False
        elif char == "\\":
            escaped = True
        elif url and not _URL_CHAR.fullmatch(char):
            break
        elif not url and (_PATH_END.fullmatch(char) or (char == "." and line[end + 1 : end + 2].strip(JS_WHITESPACE) == "")):
            break
        end += 1
    return at + 1 + len(line[at + 1 : end].rstrip(".,;:!?")) if url else end


def _resolve(space: Workspace, temp: str, index: int, name: str) -> _Resolved | None:
    """One reference: what it reads (its real path), None where it reads nothing."""
    if name.startswith("session:") and name[len("session:") :].strip(JS_WHITESPACE):
        raise _Unknown(f"its reference to a past session `@{name}` is not modelled")
    if _SERVICE_REFS.match(name):
        return None
    path = os.path.normpath(os.path.join(space.root, name))
    if is_within(path, temp) and not is_within(path, space.root):
        return _Resolved(index, name, path, True)
    if not space.fs.exists(path) or not space.inside(path) or _ignored(space, path, name.endswith("/")):
        return None
    real = space.fs.realpath(path)
    return None if _ignored(space, real, False) else _Resolved(index, name, real, False)


def _ignored(space: Workspace, path: str, folder: bool) -> bool:
    """`getIgnoreReason`: named by .gitignore or an ignore file (a path inside the launch directory)."""
    return path != space.root and is_within(path, space.root) and space.ignored(path, is_dir=folder)


def _read_many(space: Workspace, resolved: list[_Resolved]) -> list[str]:
    """`readManyFiles`' parts between the header and the end marker."""
    labels = {r.path: r.name for r in resolved}
    parts: list[str] = []
    seen: set[str] = set()
    for item in resolved:
        label = labels[item.path]
        if item.outside:
            parts.append(f"\nContent from {label}:\n{outside(QWEN, label)}")
        elif space.fs.is_dir(item.path):
            parts.append(f"\nContent from {label}:\n{folder_structure(space, item.path)}")
        elif item.path not in seen:
            seen.add(item.path)
            parts.append(f"\nContent from {label}:\n{file_text(space.fs, item.path, label)}")
    return parts


def folder_structure(space: Workspace, folder: str) -> str:
    """`getFolderStructure`: the folder's tree, at most MAX_ITEMS entries."""
    lines: list[str] = []
    _format(_read_structure(space, folder), "", True, True, lines)
    return f"Showing up to {MAX_ITEMS} items:\n\n{folder}/\n" + "\n".join(lines)


def _read_structure(space: Workspace, folder: str) -> _Folder:
    """`readFullStructure`: breadth first, counting files and folders until MAX_ITEMS."""
    root = _Folder(os.path.basename(folder))
    queue, count = [(root, folder)], 0
    while queue:
        node, path = queue.pop(0)
        if count >= MAX_ITEMS:
            node.more_folders = True
            continue
        entries = sorted(space.fs.list_dir(path), key=locale_key)
        kinds = {e: _kind(space.fs, os.path.join(path, e)) for e in entries}
        for entry in (e for e in entries if kinds[e] == "file"):
            if count >= MAX_ITEMS:
                node.more_files = True
                break
            if not space.ignored(os.path.join(path, entry)):
                node.files.append(entry)
                count += 1
        for entry in (e for e in entries if kinds[e] == "folder"):
            if count >= MAX_ITEMS:
                node.more_folders = True
                break
            child = _Folder(entry, shut=entry in _SHUT_FOLDERS or space.ignored(os.path.join(path, entry)))
            node.folders.append(child)
            count += 1
            queue += [] if child.shut else [(child, os.path.join(path, entry))]
    return root


def _kind(fs: FileSystem, path: str) -> str | None:
    """A directory entry's type as `readdir` gives it: a link is neither a file nor a folder."""
    if fs.is_link(path):
        return None
    return "folder" if fs.is_dir(path) else "file" if fs.is_file(path) else None


def _format(node: _Folder, indent: str, last: bool, root: bool, lines: list[str]) -> None:
    """`formatStructure`."""
    if not root or node.shut:
        lines.append(f"{indent}{'└───' if last else '├───'}{node.name}/{'...' if node.shut else ''}")
    inner = "" if root else indent + ("    " if last else "│   ")
    for i, name in enumerate(node.files):
        final = i == len(node.files) - 1 and not node.folders and not node.more_folders
        lines.append(f"{inner}{'└───' if final else '├───'}{name}")
    if node.more_files:
        lines.append(f"{inner}{'└───' if not node.folders and not node.more_folders else '├───'}...")
    for i, child in enumerate(node.folders):
        _format(child, inner, i == len(node.folders) - 1 and not node.more_folders, False, lines)
    if node.more_folders:
        lines.append(f"{inner}└───...")


def file_text(fs: FileSystem, path: str, label: str) -> str:
    """`readFileContent` of a text file: `processSingleFileContent` on what `readLargeUtf8Range` gives
    (the first MAX_LINES lines; it stops at the MAX_LINES-th line end, so the total is then "at least"
    one more), each line's end trimmed, cut at MAX_CHARS; `Showing lines …` first when anything is left out."""
    text = readable_text(fs, path)
    content = "\n".join(text.split("\n")[:MAX_LINES]) if text is not None else ""
    if text is None or len(content.encode("utf-8")) > MAX_BYTES or any(ord(c) > 0xFFFF for c in content):
        return f"[content of `{label}` as Qwen Code reads it: not modelled]"  # binary, media, cut by bytes, or UTF-16 lengths
    lines = [line.rstrip(JS_WHITESPACE) for line in content.split("\n")]
    shown: list[str] = []
    length, cut = 0, False
    for line in lines:
        separator = 1 if shown else 0
        if length + separator + len(line) > MAX_CHARS:
            shown.append(line[: max(MAX_CHARS - length - separator, 10)] + CUT)
            cut = True
            break
        shown.append(line)
        length += separator + len(line)
    stopped = text.count("\n") >= MAX_LINES
    if not stopped and not cut:
        return "\n".join(shown)
    total = f"at least {MAX_LINES + 1}" if stopped else str(len(lines))
    return f"Showing lines 1-{len(shown)} of {total} total lines.\n---\n" + "\n".join(shown)
