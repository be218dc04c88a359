"""The message a harness sends when the user types a custom command: `/<name> <arguments>`.

Each rule below was captured from the real CLI (`tests/conformance`, scenarios `*-typed-commands`):

- opencode and Kilo (`run --command`): the template with every `$ARGUMENTS` replaced.
- Claude Code 2.1.332 (closed source, from captures): two text parts that close the first user
  message, `<command-message>NAME</command-message>`, `<command-name>/NAME</command-name>` and,
  when something follows the name, `<command-args>ARGUMENTS</command-args>`, each on its own line;
  then the body below the header, leading blank space removed, where `$ARGUMENTS[N]` and `$N`
  (not followed by a letter, digit or `_`) are the Nth argument from 0 (arguments split as a
  shell splits words, quotes removed; past the last one the text stays), `$ARGUMENTS` is
  everything typed after the name, and `\\$` is a literal `$`. A body that uses none of them gets
  `\\n\\nARGUMENTS: <arguments>` appended when arguments were typed.
- Gemini CLI 0.61.0 and Qwen Code 0.24.4 (`FileCommandLoader`, `ShellProcessor`,
  `DefaultArgumentProcessor`): every `{{args}}` in the prompt becomes the arguments (Gemini joins
  the words with single spaces, `parseSlashCommand`; Qwen keeps what was typed); a prompt without
  `{{args}}` gets the whole typed line appended after a blank line when arguments were typed.
  `!{…}` (a shell command the CLI runs) and `@{…}` (a file it inlines) are not expanded here.
"""

from __future__ import annotations

import re
import shlex

_CLAUDE_PLACEHOLDER = re.compile(r"\\\$|\$ARGUMENTS\[(\d+)\]|\$(\d+)(?!\w)|\$ARGUMENTS")
GEMINI_ARGS = "{{args}}"


def opencode_message(template: str, arguments: str) -> str:
    return template.replace("$ARGUMENTS", arguments)


def claude_message(name: str, arguments: str, body: str) -> str:
    """What Claude Code sends for `/<name> <arguments>`: the two parts, joined."""
    arguments = arguments.strip()
    header = f"<command-message>{name}</command-message>\n<command-name>/{name}</command-name>\n"
    if arguments:
        header += f"<command-args>{arguments}</command-args>\n"
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
    return header + expanded


def gemini_message(name: str, arguments: str, prompt: str, *, join_words: bool) -> str:
    """What Gemini CLI (`join_words`) or Qwen Code sends for `/<name> <arguments>`."""
    typed = arguments.strip()
    value = " ".join(typed.split()) if join_words else typed
    if GEMINI_ARGS in prompt:
        return prompt.replace(GEMINI_ARGS, value)
    return f"{prompt}\n\n/{name} {typed}" if value else prompt


def _shell_words(arguments: str) -> list[str]:
    """The arguments split as a POSIX shell splits words; by blanks when the quotes do not close."""
    try:
        return shlex.split(arguments)
    except ValueError:
        return arguments.split()
