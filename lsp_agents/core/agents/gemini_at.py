"""What Gemini CLI 0.61.0 sends for a typed line that no custom command takes, when its `@path`
references name files: `gemini -p LINE` (`nonInteractiveCli`) runs `handleAtCommand`
(packages/cli/src/ui/hooks/atCommandProcessor.ts) on every line `handleSlashCommand` does not turn
into a prompt; a custom command's prompt is sent without it (its arguments' `@path` stay as typed).

- `parseAllAtCommands`: a reference is `@` not after a backslash, then one or more of a `"…"` run,
  a backslash and any character, a character other than blanks and `,;!?()[]{}.`, or a `.` not
  followed by a blank or the end (`@a.txt.` names `a.txt`); `user@a.txt` names `a.txt` too. The path
  is unescaped (`\\ ` is a blank), and text parts that are only blanks are dropped.
- `categorizeAtCommands`: a name of a built-in agent (`codebase_investigator`, `cli_help`,
  `generalist`) selects it: a note naming it follows the text (vendor text: a placeholder here).
- `resolveFilePaths`, each file reference in turn: one .gitignore or .geminiignore names
  (`shouldIgnoreFile`, the typed path taken as a file) or that is a symlink leading out is skipped;
  `resolveAtCommandPath` stats it in the launch directory (`validatePathAccess`: its real path inside,
  past no `.git`, `.env`, `node_modules` segment); a folder is read as `folder/**`. A path that is
  missing or refused is searched for (`**/*NAME*`, case-insensitive, the glob tool): one match is
  read, labelled with the name typed; of several the tool gives the newest first (modification times:
  a placeholder for the whole message here). A path `validatePath` rejects is skipped.
- Nothing resolved and no agent named: the line is sent as typed. Else `constructInitialQuery`: the
  line with each resolved reference as `@` and its path spec (`@docs/**`, `@sub/found.txt`), a blank
  put before each reference that does not follow one, trimmed; then, when something was read,
  `\\n--- Content from referenced files ---` and the `ReadManyFilesTool` output: per file, in the
  order of their absolute paths, `\\nContent from @LABEL:\\n` and its text trimmed (`readLocalFiles`);
  the context files discovered from the folders read (`discoverJitContext`); `\\n--- End of content
  ---`. No file read: `No files matching the criteria were found or all were skipped.` alone.
- `ReadManyFilesTool` leaves out `**/GEMINI.md` (the first context file name), `.env`, binary file
  names, `node_modules`, `dist`, `build`… (`getReadManyFilesExcludes`), ignored files and files
  outside. A file's text (`processSingleFileContent`): lines split at `\\r?\\n`, the first 2,000 of
  at most 2,000 characters each (longer ones cut, `... [truncated]`), a warning line first when cut.

Qwen Code cuts and rebuilds the line the same way (`split_line`, `initial_query`; `qwen_at`).

Captures: tests/conformance FINDINGS.md §11h (scenario `gemini-typed-at`).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from lsp_agents.core.agents.injections import GEMINI, Workspace, readable_text
from lsp_agents.core.agents.typed_commands import JS_WHITESPACE
from lsp_agents.core.fs import FileSystem
from lsp_agents.core.walk import files_below, is_within

_REFERENCE = re.compile(r'(?<!\\)@(?:"[^"]*"|\\[^\n\r\u2028\u2029]|[^ \t\n\r,;!?()\[\]{}.]|\.(?![ \t\n\r]|\Z))+')
_ESCAPE = re.compile(r"\\([^\n\r\u2028\u2029])")
BUILTIN_AGENTS = ("codebase_investigator", "cli_help", "generalist")
HEADER = "\n--- Content from referenced files ---"
FOOTER = "\n--- End of content ---"
NOTHING_READ = "No files matching the criteria were found or all were skipped."
TRUNCATED = "[WARNING: This file was truncated. To view the full content, use the 'read_file' tool on this specific file.]\n\n"
MAX_LINES = 2000
MAX_LINE = 2000
_SEARCH_SKIP = ("node_modules", ".git", "bower_components", ".svn", ".hg")  # `getGlobExcludes`
_READ_SKIP = (*_SEARCH_SKIP, ".vscode", ".idea", "dist", "build", "coverage", "__pycache__")
_READ_SKIP_SUFFIXES = tuple(
    f".{e}"
    for e in "bin exe dll so dylib class jar war zip tar gz bz2 rar 7z pak rpa doc docx xls xlsx ppt pptx odt ods odp pyc pyo".split()
)
_LOG_MARKERS = re.compile(r"(?:^|[/\\])(?:AssertionError:|FAIL |✓ |× |TestingLibraryElementError:)")
_WRAPPERS = "()[]{}\"',;!."

# The spots lsp-agents fills instead of what Gemini CLI sends there (the conformance tests match them to any text).
AT_SPOT = re.compile(
    r"\[Gemini CLI's note naming the agents [^\]\n]*: not shown\]"
    r"|\[context files Gemini CLI discovers for the folders read, in the order it reads them: not shown\]"
    r"|\[what Gemini CLI sends for this line: it reads the newest of the files matching `[\s\S]*?`, not shown\]"
)
JitContext = Callable[[str], str]  # the context block discovered from the folder of a file read ("" for none)


class _Unknown(Exception):
    """What the CLI sends depends on something lsp-agents does not know or model; the message says what."""


@dataclass(frozen=True, slots=True)
class Part:
    text: str
    reference: bool


@dataclass(frozen=True, slots=True)
class _Resolved:
    part: int  # index of the reference among the line's parts
    spec: str  # what `constructInitialQuery` writes after `@`
    label: str  # the name of `Content from @LABEL:`
    path: str  # absolute: the file, or the folder read as `path/**`
    folder: bool


def typed_line_message(fs: FileSystem, cwd: str, context_file: str, jit: JitContext, line: str) -> str | None:
    """What Gemini CLI sends for `line` (no custom command takes it), None where it is sent as typed."""
    parts = references(line)
    space = Workspace(fs, cwd, GEMINI)
    agents = [p.text[1:] for p in parts if p.reference and p.text[1:] in BUILTIN_AGENTS]
    try:
        resolved = [
            found
            for index, part in enumerate(parts)
            if part.reference and part.text[1:] not in BUILTIN_AGENTS
            for found in [_resolve(space, index, part.text[1:])]
            if found is not None
        ]
    except _Unknown as unknown:
        return f"[what Gemini CLI sends for this line: {unknown}]"
    if not resolved and not agents:
        return None
    message = initial_query(parts, {r.part: r.spec for r in resolved})
    if agents:
        message += f"[Gemini CLI's note naming the agents {', '.join(agents)}: not shown]"
    if resolved:
        message += HEADER + "".join(_read_many(space, context_file, jit, resolved))
    return message


def references(line: str) -> list[Part]:
    """`parseAllAtCommands`: the line's text and references (`@` and the path unescaped), blank text dropped."""
    return split_line(line, ((m.start(), m.end(), "@" + _ESCAPE.sub(r"\1", m[0][1:])) for m in _REFERENCE.finditer(line)))


def split_line(line: str, spans: Iterable[tuple[int, int, str]]) -> list[Part]:
    """The line cut at its references (start, end, the reference as parsed), text parts of blanks alone dropped."""
    parts: list[Part] = []
    last = 0
    for start, end, reference in spans:
        parts += [Part(line[last:start], False)] if start > last else []
        parts.append(Part(reference, True))
        last = end
    parts += [Part(line[last:], False)] if last < len(line) else []
    return [p for p in parts if p.reference or p.text.strip(JS_WHITESPACE)]


def initial_query(parts: list[Part], specs: dict[int, str]) -> str:
    """`constructInitialQuery` (Qwen Code: `buildInitialQueryText`): the references resolved written
    `@SPEC` (`specs` by the index of their part), the others as typed, a blank before each reference
    that does not follow one; trimmed."""
    text = ""
    for index, part in enumerate(parts):
        if part.reference:
            text += " " if text and not text.endswith(" ") else ""
            text += f"@{specs[index]}" if index in specs else part.text
        else:
            text += part.text
    return text.strip(JS_WHITESPACE)


def _resolve(space: Workspace, index: int, name: str) -> _Resolved | None:
    """`resolveFilePaths` for one reference: what it reads, None where it reads nothing."""
    if _ignored(space, os.path.normpath(os.path.join(space.root, name))):
        return None
    checked = _valid(name)  # `resolveAtCommandPath` takes the path `tryExtractPath` finds; the label stays `name`
    if checked is None:
        return None
    path = os.path.normpath(os.path.join(space.root, checked))
    if space.inside(path) and space.fs.exists(path):
        relative = _relative(space.root, path) if os.path.isabs(checked) else checked
        label = relative if os.path.isabs(name) else name
        if space.fs.is_dir(path):
            return _Resolved(index, _join_glob(relative), label, path, True)
        return _Resolved(index, relative, label, path, False)
    found = _search(space, name)
    if found is None:
        return None
    spec = os.path.relpath(found, space.root).replace(os.sep, "/")
    return _Resolved(index, spec, spec if os.path.isabs(name) else name, found, False)


def _ignored(space: Workspace, path: str) -> bool:
    """`shouldIgnoreFile`: named by .gitignore or .geminiignore (as a file), or a symlink leading out."""
    if space.fs.is_link(path) and not is_within(space.fs.realpath(path), space.fs.realpath(space.root)):
        return True
    return path != space.root and is_within(path, space.root) and space.ignored(path)


def _valid(name: str) -> str | None:
    """`validatePath`, else the path `tryExtractPath` finds in the text; None where neither holds."""
    if _valid_path(name):
        return name
    for segment in re.split(r"\s+", name):
        while segment and (segment[0] in _WRAPPERS or segment[-1] in _WRAPPERS):
            segment = segment[1:] if segment[0] in _WRAPPERS else segment[:-1]
        line = re.match(r"^(.+?):(\d+)(?::\d+)?", segment)
        candidate = line[1] if line else segment
        if candidate and _valid_path(candidate) and any(c in candidate for c in "/\\."):
            return candidate
    return None


def _valid_path(path: str) -> bool:
    if not path or re.search(r"[\n\r\0\t]", path) or _LOG_MARKERS.search(path):
        return False
    if ('"' in path or "..." in path) and len(path) > 20:
        return False
    return len(path) <= 4096 and all(len(part) <= 255 for part in re.split(r"[/\\]", path))


def _relative(root: str, path: str) -> str:
    """Node's `path.relative` from the launch directory (an absolute path inside it)."""
    relative = os.path.relpath(path, root)
    return "" if relative == "." else relative.replace(os.sep, "/")


def _join_glob(relative: str) -> str:
    """Node's `path.join(relative, "**")`."""
    joined = os.path.normpath(os.path.join(relative, "**")) if relative else "**"
    return joined.replace(os.sep, "/")


def _search(space: Workspace, name: str) -> str | None:
    """The glob tool's `**/*NAME*` in the launch directory: the one file it finds (its real path), None for none."""
    pattern = _search_pattern(name)
    if pattern is None:
        raise _Unknown(f"its search for `**/*{name}*` is not modelled")
    root, real_root = space.root, space.fs.realpath(space.root)
    files, complete = files_below(space.fs, root, skip=_SEARCH_SKIP)
    found = [
        path
        for path in files
        if pattern.fullmatch(_relative(root, path))
        and not _skipped_folder(_relative(root, path), _SEARCH_SKIP)
        and os.path.relpath(space.fs.realpath(path), real_root) == os.path.relpath(path, root)
        and not space.ignored(path)
    ]
    if len(found) > 1 or not complete:
        raise _Unknown(f"it reads the newest of the files matching `**/*{name}*`, not shown")
    return space.fs.realpath(found[0]) if found else None


def _search_pattern(name: str) -> re.Pattern[str] | None:
    """`**/*NAME*` as minimatch matches it (dot files too, any case); None for names with glob syntax."""
    segments = f"*{name}*".split("/")
    if re.search(r"[*?\[\]{}()\\]", name) or any(s in ("", ".", "..") for s in segments[1:-1]):
        return None
    regexes = ["[^/]+" if s == "*" else "[^/]*".join(map(re.escape, s.split("*"))) for s in segments]
    return re.compile("(?:[^/]+/)*" + "/".join(regexes), re.IGNORECASE)


def _skipped_folder(relative: str, names: tuple[str, ...]) -> bool:
    folders = {part.lower() for part in relative.split("/")[:-1]}
    return bool(folders & {name.lower() for name in names})


def _read_many(space: Workspace, context_file: str, jit: JitContext, resolved: list[_Resolved]) -> list[str]:
    """`ReadManyFilesTool` and `readLocalFiles`: the parts after the header."""
    files: set[str] = set()
    for item in resolved:
        if item.folder:
            below, complete = files_below(space.fs, item.path, skip=_READ_SKIP)
            if not complete:
                return [f"[content of `{item.spec}` as Gemini CLI reads it: too many files, not modelled]"]
            files.update(below)
        else:
            files.add(item.path)
    readable = sorted((f for f in files if _read(space, context_file, f)), key=_utf16)
    if not readable:
        return [NOTHING_READ]
    labels = {item.path: item.label for item in reversed(resolved) if not item.folder}
    parts = [f"\nContent from @{labels.get(f, _relative(space.root, f))}:\n{_file_text(space, f)}" for f in readable]
    return [*parts, *_jit_part(jit, [f for f in readable if not space.fs.is_link(f)] or readable), FOOTER]


def _read(space: Workspace, context_file: str, path: str) -> bool:
    """Whether the tool reads a file it found: not excluded, not ignored, inside the workspace."""
    relative = _relative(space.root, path)
    base = os.path.basename(relative).lower()
    if _skipped_folder(relative, _READ_SKIP) or base.endswith(_READ_SKIP_SUFFIXES):
        return False
    if base in (".ds_store", ".env", context_file.lower()):
        return False
    return not _ignored(space, path) and space.inside(path)


def _file_text(space: Workspace, path: str) -> str:
    """`processSingleFileContent`'s text, trimmed as `readLocalFiles` trims it."""
    text = readable_text(space.fs, path)
    if text is None:
        return f"[content of `{_relative(space.root, path)}` as Gemini CLI reads it: not modelled]"
    lines = re.split(r"\r?\n", text)
    shown = [line if len(line) <= MAX_LINE else line[:MAX_LINE] + "... [truncated]" for line in lines[:MAX_LINES]]
    cut = len(lines) > MAX_LINES or any(len(line) > MAX_LINE for line in lines[:MAX_LINES])
    return ((TRUNCATED if cut else "") + "\n".join(shown)).strip(JS_WHITESPACE)


def _jit_part(jit: JitContext, files: list[str]) -> list[str]:
    """`discoverJitContext` for each folder of the files read: the context files found, each once. Where
    the folders find different ones, the parts depend on the order the glob found the files in. The CLI
    walks up from each file's folder as found; `jit` walks up from a file's resolved path, so it is given
    the files that are no links (a linked GEMINI.md read with the folder is named by its link: seed 9511)."""
    first_files = {os.path.dirname(f): f for f in reversed(files)}
    found = list(dict.fromkeys(block for block in map(jit, first_files.values()) if block))
    if len(found) > 1:
        return ["[context files Gemini CLI discovers for the folders read, in the order it reads them: not shown]"]
    return [f"\n\n{found[0]}"] if found else []


def _utf16(path: str) -> bytes:
    """JavaScript's default sort order (UTF-16 code units)."""
    return path.encode("utf-16-be")
