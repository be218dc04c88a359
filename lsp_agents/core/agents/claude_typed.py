"""How Claude Code 2.1.332 reads a line the user types before any command runs (closed source; names
as minified in its bundle; tests/conformance/FINDINGS.md SV-2, scenario `claude-typed-not-a-command`).

- `Db` (with `yL`): the line, trimmed, must start with `/`; the command name is what follows the `/`
  up to the first white space, the arguments the rest, trimmed. With no name (`/`, `/ x`) the
  dispatcher (`nSd`) logs `tengu_input_slash_missing` and, in a non-interactive session, sends the
  line as a plain prompt.
- `nSd` looks the name up as typed among the commands, skills and built-ins (`$s`); when none has
  it and arguments were typed, it tries `NAME:WORD` with the first word (`/ns tool go` runs `ns:tool`
  with `go`): `subcommand`.
- With nothing found, a name `ZOt` refuses (`^[a-zA-Z0-9_][a-zA-Z0-9:_-]*$`: `/v1.2`, `/-x`, `/x/y`,
  `/été`) or one that names a path on the machine (`/tmp`, `/etc`: `stat` of `/NAME` succeeds)
  also sends the line as a plain prompt. Such a prompt (`y()` without `extractPromptAttachments`)
  has no attachments: no skills or agents listing, no environment paragraph (the system-role
  message holds only the date) and no `@path` read: `plain_line`. Any other name goes on to the
  unknown-command path: the line is sent with the listings and a reminder that no command of that
  name is available (`/1`, `/_x`, `/x:y`, a name in another case than the command's). There the
  prompt's attachments are extracted, so the line's `@path` mentions are read as a typed command's are
  (`claude_mentions`), and the skills folders those reads reach are found (`claude_found`; FINDINGS.md
  §11o, scenario `claude-typed-unknown-mentions`): `unknown_line`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from lsp_agents.core.agents.typed_commands import JS_WHITESPACE
from lsp_agents.core.fs import FileSystem

_COMMAND_NAME = re.compile(r"[a-zA-Z0-9_][a-zA-Z0-9:_-]*")  # `ZOt`
_BLANK = re.compile(f"[{re.escape(JS_WHITESPACE)}]")  # JavaScript's `\s`
# The parts of the first request a plain prompt goes without (the definitions models' layer names).
PLAIN_LEAVES_OUT = ("environment", "agents", "skills")


@dataclass(frozen=True)
class ParsedLine:
    name: str
    arguments: str


def parse_line(line: str) -> ParsedLine | None:
    """`Db`: the command name and arguments of a typed line; None when it names none."""
    text = line.strip(JS_WHITESPACE)
    if not text.startswith("/"):
        return None
    name, arguments = _first_word(text[1:])
    return ParsedLine(name, arguments.strip(JS_WHITESPACE)) if name else None


def subcommand(line: ParsedLine, known: Callable[[str], bool]) -> ParsedLine:
    """`nSd`: `/NAME WORD rest` runs `NAME:WORD` with `rest` when nothing has the name NAME but
    something has `NAME:WORD`."""
    words = line.arguments.lstrip(JS_WHITESPACE)
    if known(line.name) or not words:
        return line
    word, rest = _first_word(words)
    joined = f"{line.name}:{word}"
    return ParsedLine(joined, rest.lstrip(JS_WHITESPACE)) if known(joined) else line


def plain_line(fs: FileSystem, line: str) -> str | None:
    """Why Claude Code sends `line`, which no command, skill or built-in takes, as a plain prompt
    without its attachments; None when it takes the unknown-command path instead."""
    parsed = parse_line(line)
    if parsed is None:
        reason = "no command name follows the `/`"
    elif not _COMMAND_NAME.fullmatch(parsed.name):
        reason = f"`{parsed.name}` is no command name to it: a letter, digit or `_`, then letters, digits, `_`, `:` or `-`"
    elif fs.exists(f"/{parsed.name}"):
        reason = f"`/{parsed.name}` is a path on this machine"
    else:
        return None
    return (
        f"Claude Code sends {line!r} as a plain prompt ({reason}): without its environment paragraph, its "
        "skills and agents listings and the files the line's @path mentions name"
    )


def _first_word(text: str) -> tuple[str, str]:
    """`yL`: the text up to the first white space, and what follows that one character."""
    blank = _BLANK.search(text)
    return (text, "") if blank is None else (text[: blank.start()], text[blank.end() :])


def unknown_line(line: str) -> str:
    """What Claude Code does with `line` on the unknown-command path."""
    return (
        f"Claude Code has no command for {line!r}: it sends the line as typed, after a reminder that no command of "
        "that name is available (Claude Code's text, not shown) and after reading the files its @path mentions name"
    )
