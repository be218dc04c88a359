"""What Gemini CLI 0.61.0 and Qwen Code 0.24.4 send for a typed custom command whose prompt holds
injections: `@{path}` (a file or folder the CLI inlines) and `!{command}` (a shell command it runs).

Both CLIs (`FileCommandLoader` / `createSlashCommandFromDefinition`) build the message as a list
of text parts, which they send as the parts of one user turn; it is shown here joined. In order:

1. `AtFileProcessor` (when the prompt holds `@{`): each `@{…}` (braces balanced, content trimmed,
   `extractInjections`) becomes the parts `readPathFromWorkspace` returns: a file's text; a folder's
   files between `--- Start of content for directory: P ---` and `--- End of content for
   directory: P ---` lines, each after a `--- name ---` line and followed by a newline; nothing for
   a file .gitignore or an ignore file names (`.geminiignore`; `.qwenignore`, `.agentignore`, `.aiignore`:
   `getQwenIgnoreFileNames`, verified by `qwen-typed-ignore-files`). When it fails
   ("Path not found in workspace", "Absolute path is outside of the allowed workspace") the
   injection stays as written (verified). Gemini checks every path against the workspace with
   real paths (`isPathWithinWorkspace`, also refusing `.git`, `.env`, `node_modules` segments),
   so a path or a symlink leading out stays as written; Qwen checks only absolute paths and
   inlines `../x` or a symlink out (verified): lsp-agents never reads outside the launch
   directory and shows `[content of `P`: outside the workspace, inlined by Qwen Code, not read]`
   (also where the file is missing and Qwen would keep `@{P}`: lsp-agents does not look there).
   In a git work tree `.git` and what .gitignore names are left out, folders too.
   A file's text (`processSingleFileContent`): Gemini splits it at `\\r?\\n` and joins with `\\n`
   (2,000 lines of 2,000 characters at most); Qwen splits at `\\n` and trims each line's end
   (1,000 lines, 25,000 characters). Past those limits, binary or media files, other encodings:
   a placeholder says the text is not modelled. A folder's files come in the order the CLI's glob
   walks it: reverse name order within a folder (the oracle's copy makes them in name order on a
   tmpfs), breadth first as Gemini's capture shows; glob reads folders concurrently, so the order
   across subfolders is not fixed (Qwen's capture differed).
2. `ShellProcessor` (when the prompt holds `!{` or `{{args}}`), on every part, inlined files'
   too: `{{args}}` becomes the arguments (verified, a file saying `{{args}}` included), and each
   `!{…}` the command's output. lsp-agents never runs a command: it shows `[output of `C`: run by
   TITLE, not shown]` there. In a `-p` run with the default settings both CLIs refuse the command
   (Gemini: "Blocked by policy") and send nothing; with `--yolo` they run it and send its output,
   plus `\\n[Shell command 'C' exited with code N]` when it fails (verified).
3. `DefaultArgumentProcessor` (when the prompt lacks `{{args}}`): the typed line is appended to the
   last part after a blank line, when arguments were typed.

Arguments typed are never searched for injections (verified: `@{x}` typed stays as typed). An
injection that does not close makes the CLI drop the command with an error. Captures:
tests/conformance/FINDINGS.md §11f.
"""

from __future__ import annotations

import functools
import mimetypes
import os
import re
from collections import deque
from dataclasses import dataclass

from lsp_agents.core.agents.typed_commands import JS_WHITESPACE, shell_output
from lsp_agents.core.fs import FileSystem
from lsp_agents.core.git_ignore import git_ignored
from lsp_agents.core.patterns import MAX_FILE_PATTERNS, IgnorePatterns
from lsp_agents.core.walk import find_marker_root, is_within

GEMINI_ARGS = "{{args}}"
AT_FILE = "@{"
SHELL = "!{"
MAX_FOLDER_FILES = 200  # past this many files, or MAX_FOLDER_ENTRIES entries looked at, a folder's injection is a placeholder
MAX_FOLDER_ENTRIES = 5000
OUTSIDE_CONTENT = re.compile(r"\[content of `[\s\S]*?`: outside the workspace, inlined by Qwen Code, not read\]")
_MEDIA = ("image/", "audio/", "video/", "application/pdf")
_BLOCKED = re.compile(r"(?i)^(\.git|\.env|node_modules|gha-creds-.*\.json)$")


@functools.cache
def _mime_types() -> mimetypes.MimeTypes:
    """The built-in table of media types only, not the system's files; built on first use (it
    costs every command's start-up otherwise)."""
    return mimetypes.MimeTypes()


@dataclass(frozen=True, slots=True)
class Dialect:
    """Where Gemini CLI and Qwen Code differ."""

    title: str
    ignore_files: tuple[str, ...]  # besides .gitignore; Qwen's `getQwenIgnoreFileNames` with the default `customIgnoreFiles`
    join_words: bool  # `{{args}}` is the words typed, one space apart (Gemini), else as typed
    guarded: bool  # every path must lead inside the workspace, past no blocked segment (Gemini); else absolute ones only
    max_lines: int
    max_chars: int | None  # the whole text's limit (Qwen), else each line's (Gemini)


GEMINI = Dialect("Gemini CLI", (".geminiignore",), True, True, 2000, None)
QWEN = Dialect("Qwen Code", (".qwenignore", ".agentignore", ".aiignore"), False, False, 1000, 25000)


class _Unclosed(ValueError):
    """An injection without its closing brace."""


@dataclass(frozen=True, slots=True)
class Workspace:
    fs: FileSystem
    root: str  # the launch directory, the CLI's workspace
    dialect: Dialect

    def inside(self, path: str) -> bool:
        """`isPathWithinWorkspace`: the real path inside the root (Gemini: past no blocked segment)."""
        real, root = self.fs.realpath(path), self.fs.realpath(self.root)
        if not is_within(real, root):
            return False
        parts = os.path.relpath(real, root).split(os.sep)
        return not (self.dialect.guarded and any(_BLOCKED.match(part) for part in parts))

    def ignored(self, path: str, *, is_dir: bool = False) -> bool:
        """`filterFiles`: named by an ignore file, or (in a git work tree) by .gitignore or below `.git`."""
        relative = os.path.relpath(path, self.root).replace(os.sep, "/")
        for name in self.dialect.ignore_files:
            patterns = self.fs.memo(("injection-ignore", self.root, name), functools.partial(self._ignore_patterns, name))
            if patterns is not None and patterns.match(relative + ("/" if is_dir else "")):
                return True
        git_root = find_marker_root(self.fs, self.root, (".git",))
        if git_root is None:
            return False
        return ".git" in relative.split("/") or git_ignored(self.fs, git_root, path, is_dir=is_dir)

    def _ignore_patterns(self, name: str) -> IgnorePatterns | None:
        path = os.path.join(self.root, name)
        data = self.fs.read(path) if self.fs.is_file(path) else None
        if data is None or data.data is None:
            return None
        return IgnorePatterns(data.text().splitlines(), limit=MAX_FILE_PATTERNS, source=path)


def command_message(fs: FileSystem, cwd: str, dialect: Dialect, name: str, arguments: str, prompt: str) -> str:
    """What the CLI sends for `/<name> <arguments>` (`cwd`: the launch directory)."""
    typed = arguments.strip()
    value = " ".join(typed.split()) if dialect.join_words else typed
    parts = [prompt]
    try:
        if AT_FILE in prompt:
            parts = _inline_files(Workspace(fs, cwd, dialect), prompt)
        if SHELL in prompt or GEMINI_ARGS in prompt:
            parts = [_shell_part(dialect, part, value) for part in parts]
    except _Unclosed as unclosed:
        return f"[{dialect.title} does not send this command: the injection at {unclosed} is not closed]"
    if GEMINI_ARGS not in prompt and value:  # `appendToLastTextPart`
        raw = f"/{name} {typed}"
        parts = [*parts[:-1], f"{parts[-1]}\n\n{raw}"] if parts else [raw]
    return "".join(parts)


def _injections(text: str, trigger: str) -> list[tuple[int, int, str]]:
    """`extractInjections`: (start, end, trimmed content) of each `trigger…}`, braces balanced."""
    found: list[tuple[int, int, str]] = []
    index = text.find(trigger)
    while index != -1:
        depth, position = 1, index + len(trigger)
        while position < len(text) and depth:
            depth += {"{": 1, "}": -1}.get(text[position], 0)
            position += 1
        if depth:
            raise _Unclosed(f"index {index} ('{trigger}')")
        found.append((index, position, text[index + len(trigger) : position - 1].strip(JS_WHITESPACE)))
        index = text.find(trigger, position)
    return found


def _inline_files(space: Workspace, prompt: str) -> list[str]:
    parts: list[str] = []
    last = 0
    for start, end, path in _injections(prompt, AT_FILE):
        parts += [prompt[last:start]] if start > last else []
        inlined = _read_path(space, path)
        parts += [prompt[start:end]] if inlined is None else inlined
        last = end
    return parts + ([prompt[last:]] if last < len(prompt) else [])


def _read_path(space: Workspace, written: str) -> list[str] | None:
    """`readPathFromWorkspace`: the parts for `@{written}`, None where it fails (kept as written)."""
    fs, dialect = space.fs, space.dialect
    path = os.path.normpath(os.path.join(space.root, written))
    if not space.inside(path):  # Qwen reads a relative path there: lsp-agents does not
        return None if os.path.isabs(written) or dialect.guarded else [outside(dialect, written)]
    if not fs.exists(path):
        return None
    if not fs.is_dir(path):
        return [] if space.ignored(path) else [_file_text(space, path, written)]
    files = _folder_files(space, path)
    if files is None:
        return [f"[content of the folder `{written}` as {dialect.title} inlines it: too many files, not modelled]"]
    parts = [f"--- Start of content for directory: {written} ---\n"]
    for file in files:
        shown = os.path.relpath(file, path)
        if dialect.guarded and not space.inside(file):
            parts.append(f"--- Skipped {shown}: traverses outside workspace ---\n\n")
            continue
        text = _file_text(space, file, shown) if space.inside(file) else outside(dialect, shown)
        parts += [f"--- {shown} ---\n", text, "\n"]
    return [*parts, f"--- End of content for directory: {written} ---"]


def outside(dialect: Dialect, shown: str) -> str:
    return f"[content of `{shown}`: outside the workspace, inlined by {dialect.title}, not read]"


def _folder_files(space: Workspace, folder: str) -> list[str] | None:
    """The files below `folder` the CLI's glob finds (dot files too, symlinked folders not
    followed), not ignored, in its order: folder by folder, breadth first, each folder's entries
    in reverse name order (as captured); None past the limits."""
    files: list[str] = []
    pending, seen = deque([folder]), 0
    while pending:
        directory = pending.popleft()
        entries = sorted(space.fs.list_dir(directory), reverse=True)
        seen += len(entries)
        if seen > MAX_FOLDER_ENTRIES:
            return None
        for entry in entries:
            path = os.path.join(directory, entry)
            if space.fs.is_dir(path) and not space.fs.is_link(path):
                pending += [] if space.ignored(path, is_dir=True) else [path]
            elif space.fs.is_file(path) and not space.ignored(path):
                files.append(path)
            if len(files) > MAX_FOLDER_FILES:
                return None
    return files


def readable_text(fs: FileSystem, path: str) -> str | None:
    """The text `processSingleFileContent` reads from a file (a byte-order mark dropped), None where it
    does not read it as text or lsp-agents does not model how (binary, media, UTF-16, past the read cap)."""
    data = fs.read(path)
    if data.data is None or data.problem is not None or data.is_binary or data.data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        return None
    media = (_mime_types().guess_type(path)[0] or "").startswith(_MEDIA) or path.lower().endswith(".svg")
    return None if media else data.text(strip_bom=True)


def _file_text(space: Workspace, path: str, shown: str) -> str:
    """A file's text as `processSingleFileContent` gives it, or a placeholder where it is not modelled."""
    dialect, text = space.dialect, readable_text(space.fs, path)
    if text is None:
        return f"[content of `{shown}` as {dialect.title} inlines it: not modelled]"
    if dialect.max_chars is None:
        lines = re.split(r"\r?\n", text)
        if len(lines) <= dialect.max_lines and all(len(line) <= 2000 for line in lines):
            return "\n".join(lines)
    else:
        lines = [line.rstrip(JS_WHITESPACE) for line in text.split("\n")]
        joined = "\n".join(lines)
        if len(lines) <= dialect.max_lines and len(joined) <= dialect.max_chars:
            return joined
    return f"[content of `{shown}` as {dialect.title} inlines it: past its limits, not modelled]"


def _shell_part(dialect: Dialect, text: str, value: str) -> str:
    """`ShellProcessor.processString`: `{{args}}` replaced, each `!{…}` a placeholder for its output."""
    if SHELL not in text:
        return text.replace(GEMINI_ARGS, value)
    out, last = "", 0
    for start, end, command in _injections(text, SHELL):
        out += text[last:start].replace(GEMINI_ARGS, value)
        out += shell_output(command, dialect.title) if command else ""
        last = end
    return out + text[last:].replace(GEMINI_ARGS, value)
