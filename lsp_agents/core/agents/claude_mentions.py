"""What Claude Code 2.1.332 sends for the `@path` mentions of a typed command, before its message.

Claude Code is closed source; the rules below come from its bundle (names as minified in 2.1.332)
and were each confirmed by a capture (scenario `claude-typed-mentions`, FINDINGS.md IJ-4):

- Where (`e1n`): first every `@"…"` after the start or a blank (or an ideographic full stop or comma, a full-width `?` or `!`) whose text does not end
  in ` (agent)` (`r3o`), then every `@` at the start or after such a character followed by non-blanks,
  the trailing characters that are not ASCII letters, digits or `_` dropped (`s3o`: `@b.txt.` names
  `b.txt`); a name starting with `"` left out; each name once, at most 100. The command's text is
  searched once its arguments are in it (a mention typed as an argument is read too).
- A name may end in `#L<start>` or `#L<start>-<end>` (`T2i`): the Read call then has `offset` and
  `limit` and the result numbers the lines from `start`.
- The path is taken relative to the launch directory; `~` is the home folder; an absolute path is
  itself. A missing path sends nothing.
- A file (`normalizeAttachmentForAPI`, case `file`): the Read call, `Called the Read tool with the
  following input: {"file_path":P}` as JSON, then its result, `Result of calling the Read tool:`
  and the lines numbered `N<TAB>line` (a byte-order mark dropped, a `\\r` at a line's end dropped;
  a file ending in a newline has an empty last line; a lone `\r` stays); an empty file is
  `<system-reminder>Warning: the file exists but the contents are empty.</system-reminder>`, a range
  past its end the warning that the file is shorter than the offset. The `<` of a closing
  `system-reminder` tag in the file is sent as `&lt;`, and a note saying so follows the result. Each is a `<system-reminder>`
  part of its own. The first call is a user message of its own; the result and the other mentions'
  parts open the next one, before the instruction reminders (the parts before the last get a
  newline at their end there, as the API merges user messages: lsp-agents joins the parts with one
  newline instead).
- A folder: the Bash call `ls P` ("Lists files in P") and its output, the folder's names in the order
  the file system lists them (not modelled: a placeholder).
- After the reads' parts, the agents-md hook's text and the nested instruction files the reads of the
  paths inside the launch directory add, a missing file's too (FINDINGS.md §11s): `Claude.mention_memory`,
  the harness's read model, on `read_attempts`.

lsp-agents never reads outside the launch directory: a mention of a path outside it (absolute,
`..`, `~`, a symlink leading out) shows `MENTION_OUTSIDE`'s text, which the conformance tests match
to whatever the CLI sent there. What was not captured shows a "not modelled" placeholder: binary,
image, PDF and notebook files, files past 20,000 bytes or 2,000 lines (the CLI's token and line
limits), a `#L` line range not in order or from line 0, folder paths a shell would need quoted.
"""

from __future__ import annotations

import json
import os
import re

from lsp_agents.core.fs import FileSystem
from lsp_agents.core.walk import is_within

_SEPARATORS = "\u3002\u3001\uff1f\uff01"
_QUOTED = re.compile(rf'(?:^|[\s{_SEPARATORS}])@"([^"]+)"')
_NON_BLANK = re.compile(r"\S+")
_RANGE = re.compile(r"^([^#]+)(?:#(L|(?![^#]*#))(\d+)(?:-(\d+))?)?(?:#[^#]*)?$")
_CLOSING_TAG = re.compile(r"<(?=\s*/\s*system-reminder\b)", re.IGNORECASE)
_MEDIA = (".png", ".jpg", ".jpeg", ".gif", ".webp", ".pdf", ".ipynb", ".svg", ".bmp", ".ico", ".tiff")
_SAFE_PATH = re.compile(r"[A-Za-z0-9_./+=:,%@-]+")
MAX_MENTIONS = 100
MAX_BYTES = 20_000
MAX_LINES = 2_000

# The spots lsp-agents fills instead of what Claude Code reads (the conformance tests match them to any text).
MENTION_SPOT = re.compile(
    r"\[content of `[^`\n]*`: outside the workspace, read by Claude Code, not read\]"
    r"|\[names in `[^`\n]*`: listed by Claude Code in the file system's order, not shown\]"
)


def mentions(text: str) -> list[str]:
    """`e1n`: the names the `@` mentions of `text` give, quoted ones first, each once."""
    quoted = [m[1] for m in _QUOTED.finditer(text) if not m[1].endswith(" (agent)")]
    plain: list[str] = []
    at = text.find("@")
    while at != -1:
        before = text[at - 1] if at else ""
        if not before.strip() or before in _SEPARATORS:
            word = _NON_BLANK.match(text, at)
            assert word is not None  # `@` itself is not blank
            end = len(word[0])
            while end >= 2 and not _word_char(word[0][end - 1]):
                end -= 1
            if end >= 2:
                plain.append(word[0][1:end])
            at += len(word[0])
        at = text.find("@", at + 1)
    names = [*quoted, *(name for name in plain if not name.startswith('"'))]
    return list(dict.fromkeys(names))[:MAX_MENTIONS]


def _word_char(char: str) -> bool:
    return char.isascii() and (char.isalnum() or char == "_")


def mention_parts(fs: FileSystem, cwd: str, home: str, text: str) -> list[str]:
    """The `<system-reminder>` parts Claude Code sends before the message for the mentions in `text`."""
    parts: list[str] = []
    for name in mentions(text):
        parts += _mention(fs, cwd, home, name)
    return parts


def mentioned_files(fs: FileSystem, cwd: str, home: str, text: str) -> list[str]:
    """The files inside the launch directory that the mentions in `text` make Claude Code read."""
    return [path for path in read_attempts(fs, cwd, home, text) if fs.is_file(path)]


def read_attempts(fs: FileSystem, cwd: str, home: str, text: str) -> list[str]:
    """The paths inside the launch directory that the mentions in `text` hand to the Read tool: the files,
    and the paths that do not exist (the read fails, but its trigger of nested files is pushed: §11s)."""
    paths = [_resolve(_line_range(name)[0], cwd, home) for name in mentions(text)]
    return [path for path in dict.fromkeys(paths) if not _outside(fs, path, cwd) and not fs.is_dir(path)]


def _outside(fs: FileSystem, path: str, cwd: str) -> bool:
    return not is_within(os.path.normpath(path), cwd) or not is_within(fs.realpath(path), fs.realpath(cwd))


def _mention(fs: FileSystem, cwd: str, home: str, name: str) -> list[str]:
    written, start, end = _line_range(name)
    path = _resolve(written, cwd, home)
    if _outside(fs, path, cwd):
        return [f"[content of `{path}`: outside the workspace, read by Claude Code, not read]"]
    if fs.is_dir(path):
        if not _SAFE_PATH.fullmatch(path):
            return [f"[folder `{path}` as Claude Code lists it: not modelled]"]
        call = _reminder(
            f"Called the Bash tool with the following input: {_json({'command': f'ls {path}', 'description': f'Lists files in {path}'})}"
        )
        listing = f"[names in `{path}`: listed by Claude Code in the file system's order, not shown]"
        return [call, _reminder(f"Result of calling the Bash tool:\n{listing}")]
    if not fs.is_file(path):
        return []
    read = _read_result(fs, path, start, end)
    if read is None:
        return [f"[file `{path}` as Claude Code reads it: not modelled]"]
    arguments: dict[str, object] = {"file_path": path}
    if start is not None and end is not None:
        arguments |= {"offset": start, "limit": end - start + 1}
    result, escaped = read
    parts = [_reminder(f"Called the Read tool with the following input: {_json(arguments)}"), _reminder(result)]
    if escaped:  # `dZo`, `YZo`
        parts.append(
            _reminder(
                f"Note: {path} is not shown exactly as it is on disk. Each closing system-reminder tag in it starts"
                " with `<` on disk and is shown above with `&lt;` instead, so that it cannot end the reminder around the text."
            )
        )
    return parts


def _line_range(name: str) -> tuple[str, int | None, int | None]:
    """`T2i`: the path and the `#L<start>-<end>` range a mention names."""
    match = _RANGE.match(name)
    if not match or match[3] is None:
        return (match[1] if match else name), None, None
    start = int(match[3])
    end = int(match[4]) if match[4] else start
    if match[2] == "" and not (start and end and start <= end):
        return match[1], None, None
    return match[1], start, end


def _resolve(written: str, cwd: str, home: str) -> str:
    if written == "~" or written.startswith("~/"):
        return os.path.normpath(home + written[1:])
    return os.path.normpath(os.path.join(cwd, written))


def _read_result(fs: FileSystem, path: str, start: int | None, end: int | None) -> tuple[str, bool] | None:
    """The Read result's text and whether a closing reminder tag in the lines was escaped; None where
    it is not modelled."""
    data = fs.read(path)
    if data.data is None or data.problem is not None or data.is_binary or not data.is_valid_utf8:
        return None
    if path.lower().endswith(_MEDIA) or data.size > MAX_BYTES or data.data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        return None
    text = data.text(strip_bom=True).replace("\r\n", "\n")
    lines = [line.removesuffix("\r") for line in text.removesuffix("\r").split("\n")]
    if len(lines) > MAX_LINES:
        return None
    first = 1
    if start is not None and end is not None:
        if start < 1 or end < start:
            return None
        if start > len(lines):
            warning = f"the file exists but is shorter than the provided offset ({start}). The file has {len(lines)} lines."
            return f"Result of calling the Read tool:\n<system-reminder>Warning: {warning}</system-reminder>", False
        lines, first = lines[start - 1 : end], start
    if text.removesuffix("\r") == "":
        warning = "the file exists but the contents are empty."
        return f"Result of calling the Read tool:\n<system-reminder>Warning: {warning}</system-reminder>", False
    numbered = "\n".join(f"{first + index}\t{line}" for index, line in enumerate(lines))
    escaped = _escaped(numbered)
    return f"Result of calling the Read tool:\n{escaped}", escaped != numbered


def _json(value: dict[str, object]) -> str:
    """JSON.stringify's text, `<` of a closing reminder tag escaped (`qzn`)."""
    return _escaped(json.dumps(value, ensure_ascii=False, separators=(",", ":")))


def _escaped(text: str) -> str:
    """`qzn`: the `<` of each closing `system-reminder` tag as `&lt;`."""
    return _CLOSING_TAG.sub("&lt;", text)


def _reminder(text: str) -> str:
    return f"<system-reminder>\n{text}\n</system-reminder>"
