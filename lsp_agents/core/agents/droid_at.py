"""What Factory droid 0.225.2 sends for the files and folders a user message tags with `@`.

The binary's `Hs` ("[TaggedPathReminders]", called by the agent's `runAgentInternal` on the text of
the user message: the line as typed, or the message a command or a skill typed builds, arguments
and body) adds two `<system-reminder>` parts per tagged path to the first user message, after the
system info and before the date:

- `_s` finds the tags: an `@` not right after a character of `[A-Za-z0-9_.\\-+]` (`Cr`: `user@a.txt`
  tags nothing), then either a quoted path (`@"sp ace.txt"`, `@'x'`; an unclosed quote ends the search
  for the rest of the text) or the characters up to a blank (JavaScript's `\\s`) or one of `)]}:,;>`
  (`Er`). A path holding a line break or opening with a quote, or empty once its trailing `/`s are
  dropped, is skipped. It is resolved against the launch directory (`path.resolve`: `~` is no home
  folder, `@/abs/path` is taken as written) and kept when its real path lies in the launch
  directory's real path (`As`: the relative path must not start with `..`), it exists and is a file
  or a folder (links followed); each absolute path once (`@a.txt @./a.txt` is one tag, a link to it
  another), in the order of the text.
- A folder: `User tagged directory: ABS`, then `Contents of directory ABS (N item(s)):` and its first
  100 entries in the order the file system lists them (`cn`; ` [showing first 100 of N]` past that),
  sorted (JavaScript's default sort), a folder (links followed) with a trailing `/`.
- A file: `User tagged file: ABS`, then its text as droid's read helper `ks` gives it: a file over
  20 MiB (`yr`) is "File is too large to read"; by its extension (`Rs`: `.ts` is text, `.svg` read as
  text up to 1 MiB, then the `mime` package's type: image, audio, video and PDF files are "Cannot
  process this file type: .EXT", a list of binary extensions "Cannot view binary files"), anything
  else is read as UTF-8 (bad bytes as U+FFFD, a byte-order mark kept, a NUL too). `Es` keeps the first
  2,000 lines (`rJ`) and at most 60,000 UTF-16 code units (`nJ`), cut at the last line break before
  that (or at the limit when the first line is longer): `Contents of ABS (lines 1-B of N[ [truncated]]):` (an en dash between the numbers)
  and the text. An error reads `Could not include contents of ABS: REASON`.

Not modelled (placeholders): a path holding a backslash (droid reads it with `/` in its place), a
folder droid cannot list, a file lsp-agents cannot read whole.

Captures: tests/conformance FINDINGS.md §11m, DT-1 to DT-3 (scenario `droid-typed-at`).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass

from lsp_agents.core.agents.typed_commands import JS_WHITESPACE
from lsp_agents.core.fs import FileSystem
from lsp_agents.core.text import utf16_sort_key

MAX_LINES = 2000  # `rJ`
MAX_CHARS = 60_000  # `nJ`, in UTF-16 code units
MAX_ENTRIES = 100  # `cn`
MAX_FILE_BYTES = 20 * 1024 * 1024  # `yr`
MAX_SVG_BYTES = 1024 * 1024
_AFTER_WORD = re.compile(r"[A-Za-z0-9_.\-+]")  # `Cr`: an `@` after one of these tags nothing
_PATH_END = frozenset(JS_WHITESPACE + ")]}:,;>")  # `Er`
_BINARY = frozenset(
    ".zip .tar .gz .exe .dll .so .class .jar .war .7z .doc .docx .xls .xlsx .ppt .pptx .odt .ods .odp .bin .dat "
    ".obj .o .a .lib .wasm .pyc .pyo".split()
)
# The extensions the `mime` package (v4, its standard and other types, as bundled) maps to an image, audio
# or video type or to application/pdf: `Rs` takes those for media it does not read.
_MEDIA = frozenset(
    "3ds 3g2 3gp 3gpp aac adp adts aif aifc aiff amr apng asf asx au avci avcs avi avif azv b16 bmp btf btif caf "
    "cgm cmx dds dib djv djvu dng dpx dra drle dts dtshd dvb dwg dxf ecelp4800 ecelp7470 ecelp9600 emf eol exr f4v "
    "fbs fh fh4 fh5 fh7 fhc fits flac fli flv fpx fst fvt g3 gif h261 h263 h264 heic heics heif heifs hej2 ico ief "
    "jaii jais jfif jhc jls jng jp2 jpe jpeg jpf jpg jpg2 jpgm jpgv jph jpm jpx jxl jxr jxra jxrs jxs jxsc jxsi jxss "
    "kar ktx ktx2 lvp m1v m2a m2t m2ts m2v m3a m3u m4a m4b m4s m4u m4v mdi mid midi mj2 mjp2 mk3d mka mks mkv mmr "
    "mng mov movie mp2 mp2a mp3 mp4 mp4a mp4v mpe mpeg mpg mpg4 mpga mts mxmf mxu npx oga ogg ogv opus pbm pct pcx "
    "pdf pgm pic png pnm ppm psd pti pya pyv qt ra ram ras rgb rip rlc rmi rmp s3m sgi sid sil smv snd spx svgz t38 "
    "tap tfx tga tif tiff uva uvg uvh uvi uvm uvp uvs uvu uvv uvva uvvg uvvh uvvi uvvm uvvp uvvs uvvu uvvv viv vob "
    "vtf wav wax wbmp wdp weba webm webp wm wma wmf wmv wmx wvx xbm xif xm xpm xwd".split()
)
SPOTS = re.compile(r"\[what droid sends for the tagged path `[^`\n]*`: not modelled\]")


def _spot(path: str) -> str:
    return f"[what droid sends for the tagged path `{path}`: not modelled]"


@dataclass(frozen=True, slots=True)
class Tag:
    path: str  # absolute, as droid shows it (backslashes made `/`)
    is_dir: bool
    shown_as_read: bool  # droid reads the path it shows: the same unless the path held a backslash


def tag_parts(fs: FileSystem, cwd: str, text: str) -> list[str]:
    """`Hs`: the `<system-reminder>` parts droid adds for the paths `text` tags, two a path."""
    parts: list[str] = []
    for tag in tagged_paths(fs, cwd, text):
        kind = "directory" if tag.is_dir else "file"
        parts.append(f"<system-reminder>\nUser tagged {kind}: {tag.path}\n</system-reminder>")
        if not tag.shown_as_read:
            parts.append(_spot(tag.path))
            continue
        body = _listing(fs, tag.path) if tag.is_dir else _contents(fs, tag.path)
        parts.append(f"<system-reminder>\n{body}\n</system-reminder>")
    return parts


def tagged_paths(fs: FileSystem, cwd: str, text: str) -> list[Tag]:
    """`_s`: the paths `text` tags, in order, each once."""
    tags: dict[str, Tag] = {}
    for written in _written_paths(text):
        path = _resolve(cwd, written.rstrip("/"))
        if written.rstrip("/") and _inside(fs, cwd, path) and (fs.is_file(path) or fs.is_dir(path)):
            shown = path.replace("\\", "/")
            tags.setdefault(shown, Tag(shown, fs.is_dir(path), shown == path))
    return list(tags.values())


def _written_paths(text: str) -> list[str]:
    """The paths after each `@` that opens a tag, as written (`_s`'s scan)."""
    found: list[str] = []
    at = 0
    while (at := text.find("@", at)) != -1:
        if at > 0 and _AFTER_WORD.match(text[at - 1]):
            at += 1
            continue
        quote = text[at + 1 : at + 2]
        if quote in ('"', "'"):
            close = text.find(quote, at + 2)
            if close == -1:  # an unclosed quote ends the search
                break
            written, at = text[at + 2 : close], close + 1
        else:
            end = at + 1
            while end < len(text) and text[end] not in _PATH_END:
                end += 1
            written, at = text[at + 1 : end], max(end, at + 1)
        if written and "\n" not in written and not written.startswith(('"', "'")):
            found.append(written)
    return found


def _resolve(base: str, path: str) -> str:
    """Node's `path.resolve(base, path)`."""
    resolved = os.path.normpath(os.path.join(base, path))
    return "/" + resolved.lstrip("/") if resolved.startswith("//") else resolved


def _inside(fs: FileSystem, cwd: str, path: str) -> bool:
    """`As`: the real path's relation to the launch directory's does not start with `..`."""
    relative = os.path.relpath(fs.realpath(path), fs.realpath(cwd))
    return not relative.startswith("..") and not os.path.isabs(relative)


def _listing(fs: FileSystem, folder: str) -> str:
    names = fs.list_dir(folder)
    shown = sorted(names[:MAX_ENTRIES], key=utf16_sort_key)
    entries = [f"{name}/" if fs.is_dir(os.path.join(folder, name)) else name for name in shown]
    more = f" [showing first {MAX_ENTRIES} of {len(names)}]" if len(names) > MAX_ENTRIES else ""
    count = f"{len(names)} item{'' if len(names) == 1 else 's'}{more}"
    return f"Contents of directory {folder} ({count}):\n" + "\n".join(entries)


def _contents(fs: FileSystem, path: str) -> str:
    problem = _unread(fs, path)
    if problem is not None:
        return f"Could not include contents of {path}: {problem}"
    data = fs.read(path)
    if data.data is None or data.problem is not None:
        return _spot(path)
    text, end, total, truncated = excerpt(data.text())
    return f"Contents of {path} (lines 1\u2013{end} of {total}{' [truncated]' if truncated else ''}):\n{text}"


def _unread(fs: FileSystem, path: str) -> str | None:
    """Why `ks` reads no text of the file (None: it reads it)."""
    size = fs.size(path)
    extension = os.path.splitext(path)[1].lower()
    if size > MAX_FILE_BYTES:
        return "File is too large to read"
    if extension == ".ts":
        return None
    if extension == ".svg":
        return "Cannot display content of SVG file larger than 1MB" if size > MAX_SVG_BYTES else None
    if _media_extension(path) in _MEDIA:
        return f"Cannot process this file type: {extension}"
    return "Cannot view binary files" if extension in _BINARY else None


def _media_extension(path: str) -> str | None:
    """The extension `mime.getType` looks up: after the name's last dot, none when the name has no dot
    past its first character."""
    name = os.path.basename(path).lower()
    extension = name.rsplit(".", 1)[-1]
    return extension if len(extension) < len(name) - 1 else None


def excerpt(text: str) -> tuple[str, int, int, bool]:
    """`Es` from the first line: the text kept, its last line, the number of lines, whether cut."""
    lines = text.split("\n")
    end = min(len(lines), MAX_LINES)
    kept = "\n".join(lines[:end])
    truncated = end < len(lines)
    units = kept.encode("utf-16-le", "surrogatepass")
    if len(units) > 2 * MAX_CHARS:
        truncated = True
        cut = units[: 2 * MAX_CHARS].decode("utf-16-le", "surrogatepass")
        newline = cut.rfind("\n")
        kept = cut[:newline] if newline > 0 else cut
        end = kept.count("\n") + 1 if newline > 0 else 1
    return kept, end, len(lines), truncated
