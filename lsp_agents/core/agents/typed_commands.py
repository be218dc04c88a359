"""The message a harness sends when the user types a custom command: `/<name> <arguments>`.

Each rule below was captured from the real CLI (`tests/conformance`, scenarios `*-typed-commands`,
`*-typed-injections`):

- opencode and Kilo (`run --command`): the template with every `$ARGUMENTS` replaced.
- Claude Code 2.1.332 (closed source, from captures): two text parts that close the first user
  message (the second one when an `@path` in the body makes the CLI read a file first),
  `<command-message>NAME</command-message>`, `<command-name>/NAME</command-name>` and, when
  something follows the name, `<command-args>ARGUMENTS</command-args>`, each on its own line;
  then the body below the header, leading blank space removed, where `$ARGUMENTS[N]` and `$N`
  (not followed by a letter, digit or `_`) are the Nth argument from 0 (arguments split as a
  shell splits words, quotes removed; past the last one the text stays), `$ARGUMENTS` is
  everything typed after the name, and `\\$` is a literal `$`. A body that uses none of them gets
  `\\n\\nARGUMENTS: <arguments>` appended when arguments were typed. A skill typed (skills before
  commands, as `b2i` lists them) has `Base directory for this skill: <its folder>` and a blank line
  before its body. Then (`SFn`, `Bit`) each ```` ```! ```` block and each `` !`cmd` `` at a line's
  start or after a blank, outside other code spans, is the command's output: a placeholder here,
  never run (`shell_output`). An `@path` in the body stays as written; the CLI also sends the
  file's Read call and result before the message (`claude_mentions`). FINDINGS.md §11f. A name
  no command or skill holds may be one of Claude Code's built-in commands (`claude_builtins`,
  §11g): its own prompt after the same lines (a placeholder here), or nothing sent at all.
- Gemini CLI 0.61.0 and Qwen Code 0.24.4 (`FileCommandLoader`, `ShellProcessor`,
  `DefaultArgumentProcessor`): every `{{args}}` in the prompt becomes the arguments (Gemini joins
  the words with single spaces, `parseSlashCommand`; Qwen keeps what was typed); a prompt without
  `{{args}}` gets the whole typed line appended after a blank line when arguments were typed.
  `@{…}` (a file it inlines) and `!{…}` (a shell command it runs, never run here): see `injections`,
  which builds the whole message. Gemini CLI leaves a command's arguments' `@path` as typed, but
  runs `handleAtCommand` on a line no custom command takes: its `@path` references are read and
  appended after `--- Content from referenced files ---` (`gemini_at`, FINDINGS.md §11h); a line
  whose references read nothing is sent as typed. Qwen Code also runs a skill typed by its name (a
  custom command of that name wins): `Base directory for this skill: <folder>`, an `Important:` line,
  a blank line, the body trimmed (nothing in it replaced or inlined) and a newline; with arguments, a
  blank line, the line typed and a note on the file the CLI wrote them to; a bundled skill's folder
  and body are placeholders; two to five skills in a row send each one's text: see `qwen_typed`,
  FINDINGS.md §11i. A line neither takes goes through Qwen's own `handleAtCommand`: its `@path`
  references inside the launch directory are read in the order typed (no search for a missing
  name; a folder as a tree of up to 20 entries; the temp folder, read outside, a placeholder) and
  appended after `--- Content from referenced files ---`; with nothing read the line is sent with a
  blank put before each `@` (`qwen_at`, FINDINGS.md §11j).
- pi 0.73.1 (`dist/core/prompt-templates.js` `expandPromptTemplate`, `parseCommandArgs`,
  `substituteArgs`): the template's body alone (no wrapper) with `$N` the Nth argument from 1 (none:
  empty), `${@:N}` and `${@:N:L}` the arguments from the Nth, `$ARGUMENTS` and `$@` all of them
  joined by single spaces; arguments split at blanks and tabs, `"…"` and `'…'` quoting. A body
  without placeholders is sent as it is: the arguments are dropped. `/skill:NAME args`
  (`_expandSkillCommand`) sends the skill's file in a `<skill name location>` block, then the
  arguments (trimmed) after a blank line.
- Factory droid 0.225.2 (`iS`, the command registry's `execute`, `cd`, `z0`; `droid exec` too): the
  body below the header (untrimmed) with every `$ARGUMENTS` replaced by the text typed after the
  name (its end trimmed; `<system-reminder>` and `<system-notification>` tags in it escaped), between
  `<system-notification>` lines, as a user message of its own. Names are matched case-insensitively.
  A skill the user may invoke (`rS`: valid, not `enabled: false` nor `user-invocable: false`) is
  typed by its name when no command has it (the registry's order: built-in, custom, skill): droid's
  sentence, then `<skill filePath>` with `<name>`, `<description>` (as written, `(project)` or
  `(personal)` after it) and the body trimmed, and the arguments, trimmed, after a blank line (`k`).
"""

from __future__ import annotations

import os
import re
import shlex
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

_CLAUDE_PLACEHOLDER = re.compile(r"\\\$|\$ARGUMENTS\[(\d+)\]|\$(\d+)(?!\w)|\$ARGUMENTS")


def typed_line(name: str, arguments: str) -> str:
    """The line the user typed: `/<name>`, and its arguments after a blank."""
    return f"/{name} {arguments}" if arguments else f"/{name}"


def opencode_message(template: str, arguments: str) -> str:
    return template.replace("$ARGUMENTS", arguments)


def shell_output(command: str, title: str) -> str:
    """What stands where a CLI would put a shell command's output: lsp-agents never runs one."""
    return f"[output of `{command}`: run by {title}, not shown]"


# The spot `shell_output` fills (the conformance tests match it to any text).
SHELL_OUTPUT = re.compile(r"\[output of `[\s\S]*?`: run by (?:Claude Code|Gemini CLI|Qwen Code), not shown\]")
_CLAUDE_BLOCK = re.compile(r"```!\s*\n?([\s\S]*?)\n?```")  # 2.1.332 `Lxr`
_CLAUDE_INLINE = re.compile(r"(?<!\S)!`([^`]+)`")  # `Nxr`: `(?<=^|\s)!`([^`]+)`` with the m flag
_CODE_SPAN = re.compile(r"`[^`\n]+`")


def claude_message(name: str, arguments: str, body: str, skill_folder: str | None = None) -> str:
    """What Claude Code sends for `/<name> <arguments>` (a skill's: `skill_folder` holds it): the two parts, joined."""
    arguments = arguments.strip()
    return claude_command_lines(name, arguments) + _claude_shell(claude_body(arguments, body, skill_folder))


def claude_command_lines(name: str, arguments: str) -> str:
    """The lines Claude Code opens a typed command's message with (`arguments` trimmed)."""
    lines = f"<command-message>{name}</command-message>\n<command-name>/{name}</command-name>\n"
    return lines + (f"<command-args>{arguments}</command-args>\n" if arguments else "")


def claude_mention_text(arguments: str, body: str, skill_folder: str | None = None) -> str:
    """The command's text as far as lsp-agents knows it when Claude Code looks for `@path` mentions
    in it: the body with the arguments in it, each shell marker removed (its output is not known)."""
    return _claude_shell(claude_body(arguments.strip(), body, skill_folder), lambda _command: "")


def claude_body(arguments: str, body: str, skill_folder: str | None = None) -> str:
    """The command's body with its arguments in it (`arguments` trimmed), before the shell markers run."""
    if skill_folder is not None:
        body = f"Base directory for this skill: {skill_folder}\n\n{body.lstrip()}"
    words = _shell_words(arguments)
    used = False

    def replace(match: re.Match[str]) -> str:
        nonlocal used
        if match.group(0) == "\\$":
            return "$"
        used = True
        index = match.group(1) or match.group(2)
        if index is None:
            return arguments
        return words[int(index)] if int(index) < len(words) else match.group(0)

    expanded = _CLAUDE_PLACEHOLDER.sub(replace, body.lstrip())
    if not used and arguments:
        expanded += f"\n\nARGUMENTS: {arguments}"
    return expanded


def _claude_shell(text: str, output: Callable[[str], str] | None = None) -> str:
    """`SFn`: each ```` ```! ```` block and each `` !`…` `` after a blank or at a line's start (outside
    other code spans, `Bit`) with a command in it (trimmed, CRLF as LF) becomes the command's output."""
    found = [*_CLAUDE_BLOCK.finditer(text), *(_CLAUDE_INLINE.finditer(_blank_code_spans(text)) if "!`" in text else ())]
    for match in found:
        command = match[1].strip(JS_WHITESPACE).replace("\r\n", "\n")
        if command:  # each raw text replaced at its first occurrence, as `y.replace(raw, …)` does
            shown = shell_output(command, "Claude Code") if output is None else output(command)
            text = text.replace(match[0], shown, 1)
    return text


def _blank_code_spans(text: str) -> str:
    """`text` with the inside of each code span blanked (same length), but for spans that are a
    marker's own (after `!` or a backtick): a `` !`…` `` inside other code is no marker."""

    def blank(span: re.Match[str]) -> str:
        own = span.start() and text[span.start() - 1] in "!`"
        return span[0] if own else f"`{' ' * (len(span[0]) - 2)}`"

    return _CODE_SPAN.sub(blank, text)


@dataclass(frozen=True)
class DroidSkill:
    """A skill as droid's `k` sends it when typed: its name, `SKILL.md` path, description as written
    (`No description provided` when empty), `project` or `personal`, and body (trimmed)."""

    name: str
    path: str
    description: str
    location: str
    body: str


# droid's sentence before a typed skill's block (vendor text: the conformance extract shows this too).
DROID_SKILL_PREAMBLE = "[droid's note on a skill the user selected]"
_DROID_HEADER = re.compile(r"---\r?\n([\s\S]*?)\r?\n---\r?\n?")
_DROID_TAGS = {
    tag: tag.replace("<", "&lt;").replace(">", "&gt;")
    for tag in ("<system-reminder>", "</system-reminder>", "<system-notification>", "</system-notification>")
}


def droid_command_body(text: str) -> str:
    """droid's `an`: the text after a `---` header (as read: a byte-order mark means no header), untrimmed."""
    match = _DROID_HEADER.match(text)
    return text[match.end() :] if match else text


def droid_message(arguments: str, body: str) -> str:
    """What droid sends for `/<name> <arguments>` (`arguments`: everything after the first space)."""
    typed = droid_escape(arguments.rstrip(JS_WHITESPACE))
    return f"<system-notification>\n{js_replace_all(body, '$ARGUMENTS', typed)}\n</system-notification>"


def droid_skill_message(skill: DroidSkill, arguments: str) -> str:
    """What droid sends for a skill typed as `/<name> <arguments>` (`k`): the skill's file in a `<skill>`
    block after droid's own sentence (a placeholder here), then the arguments, trimmed, after a blank line."""
    typed = droid_escape(arguments.strip(JS_WHITESPACE))
    block = (
        f'<system-notification>\n{DROID_SKILL_PREAMBLE}\n<skill filePath="{_droid_attribute(skill.path)}">\n'
        f"<name>{_droid_attribute(skill.name)}</name>\n<description>{skill.description} ({skill.location})</description>\n"
        f"{skill.body}\n</skill>\n</system-notification>"
    )
    return f"{block}\n\n{typed}" if typed else block


def droid_escape(text: str) -> str:
    """`xe`: the reminder and notification tags in typed text made harmless."""
    for tag, escaped in _DROID_TAGS.items():
        text = text.replace(tag, escaped)
    return text


def _droid_attribute(text: str) -> str:
    """`nS`: `&`, `"`, `<`, `>` and `'` as entities, line breaks and tabs as blanks."""
    escaped = text.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;").replace(">", "&gt;")
    return re.sub(r"[\r\n\t]", " ", escaped.replace("'", "&#39;"))


def pi_template_body(text: str) -> str:
    """pi's `parseFrontmatter` body: line ends made `\\n`; after a `---` header, trimmed; without one
    (a byte-order mark before the `---` counts as none), the whole text untrimmed."""
    normalized = text.replace("\r\n", "\n").replace("\r", "\n")
    end = normalized.find("\n---", 3)
    if not normalized.startswith("---") or end == -1:
        return normalized
    return normalized[end + 4 :].strip(JS_WHITESPACE)


def pi_message(arguments: str, body: str) -> str:
    """What pi sends for `/<name> <arguments>` (`arguments`: everything after the first space)."""
    words = _pi_words(arguments)
    joined = " ".join(words)

    def positional(match: re.Match[str]) -> str:
        index = int(match.group(1)) - 1
        return words[index] if 0 <= index < len(words) else ""

    def sliced(match: re.Match[str]) -> str:
        start = max(int(match.group(1)) - 1, 0)
        if match.group(2) is not None:
            return " ".join(words[start : start + int(match.group(2))])
        return " ".join(words[start:])

    result = re.sub(r"\$(\d+)", positional, body)
    result = re.sub(r"\$\{@:(\d+)(?::(\d+))?\}", sliced, result)
    result = js_replace_all(result, "$ARGUMENTS", joined)
    return js_replace_all(result, "$@", joined)


def pi_skill_message(name: str, path: str, text: str, arguments: str) -> str:
    """What pi sends for `/skill:<name> <arguments>`: the skill file's body (header removed, trimmed)."""
    body = pi_template_body(text).strip(JS_WHITESPACE)
    block = f'<skill name="{name}" location="{path}">\nReferences are relative to {os.path.dirname(path)}.\n\n{body}\n</skill>'
    typed = arguments.strip(JS_WHITESPACE)
    return f"{block}\n\n{typed}" if typed else block


def _pi_words(arguments: str) -> list[str]:
    """`parseCommandArgs`: words split at spaces and tabs, `"` and `'` quote (an open quote runs to the end)."""
    words: list[str] = []
    current, quote = "", None
    for char in arguments:
        if quote:
            if char == quote:
                quote = None
            else:
                current += char
        elif char in "\"'":
            quote = char
        elif char in " \t":
            if current:
                words.append(current)
            current = ""
        else:
            current += char
    if current:
        words.append(current)
    return words


def js_replace_all(text: str, search: str, replacement: str) -> str:
    """JavaScript's `replace(/search/g, replacement)` or `replaceAll(search, replacement)` with a string
    replacement, whose `$$`, `$&`, `` $` `` and `$'` patterns it expands."""
    parts = text.split(search)
    if len(parts) == 1:
        return text
    out = [parts[0]]
    position = len(parts[0])
    for part in parts[1:]:
        values = {"$$": "$", "$&": search, "$`": text[:position], "$'": text[position + len(search) :]}
        out.append(_JS_PATTERN.sub(partial(_js_pattern_value, values), replacement))
        out.append(part)
        position += len(search) + len(part)
    return "".join(out)


def _js_pattern_value(values: dict[str, str], match: re.Match[str]) -> str:
    return values[match.group(0)]


_JS_PATTERN = re.compile(r"\$[$&`']")
# What JavaScript's String.prototype.trim removes: white space and line terminators.
JS_WHITESPACE = " \t\n\v\f\r\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"


def _shell_words(arguments: str) -> list[str]:
    """The arguments split as a POSIX shell splits words; by blanks when the quotes do not close."""
    try:
        return shlex.split(arguments)
    except ValueError:
        return arguments.split()
