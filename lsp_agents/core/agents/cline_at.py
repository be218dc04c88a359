"""What Cline CLI 3.0.65 sends for a typed line's `@path` mentions: the line (a workflow's text where one
takes it, TC-6), then a `<file_content path="ABS">` block per file it names. Two passes, both on every line
the CLI sends, a workflow's body and a skill's line included:

1. The CLI (the compiled `cline`, module `chunk-ywrckq18.js`, function `i`, which `runAgent` of
   `chunk-z9mmr59t.js` calls; it runs `resolveRuntimeSlashCommand` first): the explicit paths, `@` then `/`, `~/`, `./` or `../` and non-blanks, or
   the same quoted (`@"./two words.txt"`, no `"` or line break inside). Each, from the last, is resolved
   against the launch directory (`~/` the home folder); a file (`statSync`, links followed) replaces the
   first occurrence of the mention in the line (`String.replace`, so `$&` and the like in the name are
   replacement patterns) with `[file: NAME]`, an image (`.png .jpg .jpeg .gif .webp .bmp .svg`) with
   `[image: NAME]` and is attached as an image part; anything else (missing, a folder) stays as typed,
   with a warning on stderr. The files are attached in the order of the line.
2. @cline/core (`prepareTurnInput`, `enrichPromptWithMentions` `X7`, `$b`, `Zb`): the line, trimmed
   (`normalizeUserInput`), is searched for `(^|\\s)@(\\S+)`: leading `` ( ` ' " `` and trailing
   `` ) , . : ; ! ? ` ' " `` dropped, a name still holding `@` skipped, each name once. A name
   (backslashes made `/`) resolved against the workspace (the git root, else the launch directory) is
   attached when it is a file of the workspace's index (`l2`/`Q7`: `rg --files --hidden -g '!.git'`
   there, so no folder, no symlink, nothing .gitignore (in a git work tree), `.ignore` or `.rgignore`
   names, no `.git` part; no index at all when the workspace is the home folder or `/`).

The message (`buildInitialUserContent`): the text, the image parts, then each file once (pass 1's, then
pass 2's, `resolveAbsoluteFilePaths`) as `<file_content path="P">\\nTEXT\\n</file_content>`
(`formatFileContentBlock`), TEXT as the loader `eq` reads it: not a file, over 20,480,000 bytes, or
holding a NUL: `Error fetching content: …`; else the file decoded as UTF-8.

lsp-agents never looks outside the workspace: an explicit path leading out (or a link out) shows
`OUTSIDE_MENTION` where the line has it and `OUTSIDE_FILE` where its block would be, known spots the
conformance tests match to what the CLI sent (the mention replaced or kept, the block or nothing).
Image parts are `IMAGE_PART` spots. Not modelled (placeholders): a line holding `<user_input` or
`<user_command` (which `normalizeUserInput` strips), files past lsp-agents' read cap. Whitelisting
(`!`) across ignore files of different kinds is not modelled: a name any of them ignores is left out.

Captures: tests/conformance FINDINGS.md §11l (scenario `cline-typed-at`).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field

from lsp_agents.core.agents.typed_commands import JS_WHITESPACE
from lsp_agents.core.fs import FileSystem
from lsp_agents.core.git_ignore import git_ignored
from lsp_agents.core.walk import find_marker_root, is_within

TITLE = "Cline CLI"
MAX_FILE_BYTES = 20_480_000  # `Fa`
IMAGE_EXTENSIONS = (".png", ".jpg", ".jpeg", ".gif", ".webp", ".bmp", ".svg")
RG_IGNORE_FILES = (".gitignore", ".ignore", ".rgignore")
_BLANK = f"[{re.escape(JS_WHITESPACE)}]"
_NON_BLANK = f"[^{re.escape(JS_WHITESPACE)}]"
_PREFIX = r"(?:/|~/|\.{1,2}/)"
_EXPLICIT = re.compile(rf'@(?:"({_PREFIX}[^"\r\n]+)"|({_PREFIX}{_NON_BLANK}+))')
_MENTION = re.compile(rf"(?:^|(?<={_BLANK}))@({_NON_BLANK}+)")
_LEADING = re.compile(r"^[(`'\"]+")
_TRAILING = "),.:;!?`'\""
_TAGS = re.compile(r"<user_(?:input|command)")
_REPLACEMENT = re.compile(r"\$([$&`'])")
SPOTS = re.compile(
    r"\[`@[^`\n]*`, or `\[file: [^`\n]*\]` if it is a file: outside the workspace, not looked at\]"
    r"|\[the file `[^`\n]*` if it is one: outside the workspace, attached by Cline CLI, not read\]"
    r"|\[the image `[^`\n]*` attached by Cline CLI: not shown\]"
)


def outside_mention(raw: str, name: str) -> str:
    return f"[`{raw}`, or `[file: {name}]` if it is a file: outside the workspace, not looked at]"


def outside_file(path: str) -> str:
    return f"[the file `{path}` if it is one: outside the workspace, attached by {TITLE}, not read]"


def image_part(path: str) -> str:
    return f"[the image `{path}` attached by {TITLE}: not shown]"


@dataclass(slots=True)
class _Attached:
    """What the CLI's pass attaches, in the order of the line."""

    files: list[str] = field(default_factory=list)
    images: list[str] = field(default_factory=list)
    outside: set[str] = field(default_factory=set)


@dataclass(frozen=True, slots=True)
class Launch:
    fs: FileSystem
    cwd: str  # the launch directory
    root: str  # the workspace: the git root, else the launch directory
    home: str


def refuses(line: str) -> bool:
    """`sr`: a prompt argument without a blank (`/\\s/`) ends the run with "Unknown command or unquoted prompt"."""
    return not any(char in JS_WHITESPACE for char in line)


def refusal_note(line: str) -> str:
    return f"{TITLE} sends nothing: a prompt without a blank ends the run with an error (`Unknown command or unquoted prompt: {line}`)"


def message(launch: Launch, line: str) -> str:
    """What the CLI sends for `line` (a workflow's text already in place): the text and the attachments."""
    if _TAGS.search(line):
        return f"[what {TITLE} sends for this line: it strips its `<user_input>` and `<user_command>` tags, not modelled]"
    attached = _Attached()
    text = _explicit_paths(launch, line, attached).strip(JS_WHITESPACE)
    mentioned = [_resolve(launch.root, rel) for rel in _indexed_mentions(launch, text)]
    files = list(dict.fromkeys([*attached.files, *mentioned]))
    parts = [image_part(path) for path in attached.images]
    parts += [outside_file(path) if path in attached.outside else _file_block(launch.fs, path) for path in files]
    return text + "".join(parts)


def _explicit_paths(launch: Launch, line: str, attached: _Attached) -> str:
    """The CLI's pass: each explicit path that is a file replaced by `[file: NAME]` (`[image: NAME]`)."""
    text = line
    found: list[tuple[str, str]] = []  # (path, kind), from the last mention
    for match in reversed(list(_EXPLICIT.finditer(line))):
        written = match[1] or match[2]
        path = os.path.join(launch.home, written[2:]) if written.startswith("~/") else _resolve(launch.cwd, written)
        name = os.path.basename(path)
        if not _inside(launch, path):
            text = text.replace(match[0], outside_mention(match[0], name), 1)
            found.append((path, "outside"))
        elif launch.fs.is_file(path):
            image = path.lower().endswith(IMAGE_EXTENSIONS)
            text = _replace_first(text, match[0], f"[{'image' if image else 'file'}: {name}]")
            found.append((path, "image" if image else "file"))
    for path, kind in reversed(found):
        (attached.images if kind == "image" else attached.files).append(path)
        if kind == "outside":
            attached.outside.add(path)
    return text


def _replace_first(text: str, pattern: str, replacement: str) -> str:
    """JavaScript's `text.replace(pattern, replacement)` for a string pattern: its first occurrence, with the
    replacement's `$$`, `$&`, `` $` `` and `$'` expanded."""
    at = text.find(pattern)
    if at == -1:
        return text
    expansions = {"$": "$", "&": pattern, "`": text[:at], "'": text[at + len(pattern) :]}
    return text[:at] + _REPLACEMENT.sub(lambda m: expansions[m[1]], replacement) + text[at + len(pattern) :]


def _inside(launch: Launch, path: str) -> bool:
    real_root = launch.fs.realpath(launch.root)
    return is_within(path, launch.root) and is_within(launch.fs.realpath(path), real_root)


def mentions(text: str) -> list[str]:
    """`$b`: the names the line's mentions give, in order, each once."""
    names: list[str] = []
    for match in _MENTION.finditer(text):
        name = _LEADING.sub("", match[1]).rstrip(_TRAILING)
        if name and "@" not in name:
            names.append(name)
    return list(dict.fromkeys(names))


def _indexed_mentions(launch: Launch, text: str) -> list[str]:
    """`X7`: the mentions naming a file of the workspace's index, as paths relative to it."""
    found = []
    for name in mentions(text):
        relative = _workspace_relative(launch.root, name.replace("\\", "/"))
        if relative and _indexed(launch, relative):
            found.append(relative)
    return found


def _workspace_relative(root: str, name: str) -> str | None:
    """`Zb`: the name's path relative to the workspace, None when it leads out."""
    relative = os.path.relpath(_resolve(root, name), root)
    return None if relative.startswith("..") else ("" if relative == "." else relative)


def _resolve(base: str, path: str) -> str:
    """Node's `path.resolve(base, path)`."""
    resolved = os.path.normpath(os.path.join(base, path))
    return "/" + resolved.lstrip("/") if resolved.startswith("//") else resolved


def _indexed(launch: Launch, relative: str) -> bool:
    """Whether `rg --files --hidden -g '!.git'` run in the workspace lists `relative` (`Q7`, `dS`)."""
    fs, root = launch.fs, launch.root
    if fs.realpath(root) in (fs.realpath(launch.home), "/"):  # `lS`
        return False
    parts = relative.split("/")
    if ".git" in parts:
        return False
    path = root
    for part in parts:
        path = os.path.join(path, part)
        if fs.is_link(path):  # not followed
            return False
    if not fs.is_file(path):
        return False
    in_git = find_marker_root(fs, root, (".git",)) is not None
    names = RG_IGNORE_FILES if in_git else RG_IGNORE_FILES[1:]
    return not git_ignored(fs, root, path, is_dir=False, files=names)


def _file_block(fs: FileSystem, path: str) -> str:
    """`formatFileContentBlock` of what the loader `eq` gives for `path`."""
    return f'<file_content path="{path}">\n{_loaded(fs, path)}\n</file_content>'


def _loaded(fs: FileSystem, path: str) -> str:
    if not fs.is_file(path):
        return "Error fetching content: Path is not a file"
    if fs.size(path) > MAX_FILE_BYTES:
        return "Error fetching content: File is too large to read into context."
    data = fs.read(path)
    if data.data is None or data.problem is not None:
        return f"[content of `{path}` as {TITLE} reads it: not modelled]"
    if b"\0" in data.data:
        return "Error fetching content: Cannot read binary file into context."
    return data.text()
