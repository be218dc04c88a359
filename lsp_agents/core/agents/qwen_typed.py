"""What Qwen Code 0.24.4 sends when the user types a skill's name as a command: `/<name> <arguments>`.

Every skill is a slash command (`packages/cli/src/nonInteractiveCliCommands.ts` `handleSlashCommand`,
in `chunks/chunk-KYFJLESB.js`): the loaders run in the order MCP prompts, built-in commands,
`BundledSkillLoader` (the skills shipped with the CLI), `SkillCommandLoader` (the user's skills, then
the project's, then extensions'), saved workflows, `FileCommandLoader` (`.qwen/commands`), and
`CommandService.create` keeps the last of a name. So a custom command beats a skill of its name,
the project's skill the user's, and any of them a bundled skill or a built-in command (verified:
`clash`, `pclash`, `both`, `review-project`, `init`). `parseSlashCommand` matches the first word
exactly (`/mixedcase` is no `MixedCase`); a skill is named by its header's `name`, not its folder
(`/folder-x` is no command). A skill the loader dropped (`broken`, `nofm`) is no command: the line
is sent as typed. A skill with `user-invocable: false` is known but filtered out in `-p` mode: the
CLI exits with `The command "/NAME" is not supported in this mode.` and sends nothing.

The message (`SkillCommandLoader.loadCommands`' action, `buildSkillLlmContent` in
`chunks/chunk-A3E7JYX7.js`) is `Base directory for this skill: <its folder>\\nImportant: …\\n\\n`,
the body and a newline. The body is `parseSkillContent`'s: the file with a leading byte-order mark
removed and CRLF and lone CR made LF (`normalizeContent`), the text after the `---` header,
trimmed; no placeholder (`{{args}}`, `$ARGUMENTS`), `@{…}`, `!{…}` or `@path` in it is processed
(verified: `argy`, `crlf`). With arguments (the text after the name, trimmed), `appendToLastTextPart`
adds `\\n\\n`, the whole line typed (trimmed, inner blanks kept) and `skillArgsNote`: a paragraph
saying where `writeSkillArgs` put them, `.qwen/tmp/s-<session id>/qwen-skill-args-<name>.txt`
under the launch directory, then `<skill-args-file>PATH</skill-args-file>\\n<skill-args>ARGS</skill-args>\\n`.
The paragraph is vendor text and the session id is random: both are placeholders here.

A bundled skill (`BundledSkillLoader`) sends the same wrapper around its folder in the CLI's
installation and its body (vendor text, also rewritten for the model in use): placeholders here.

Two to five skills typed in a row (`/a /b rest`: `parseStackedSlashCommands`) send each one's
message without arguments, then the rest of the line (trimmed), as parts joined here (verified:
`stacked`, `stacked-six`, `stacked-bundled`). Captures: tests/conformance/FINDINGS.md §11i.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from lsp_agents.core.agents.typed_commands import JS_WHITESPACE

IMPORTANT = "Important: ALWAYS resolve absolute paths from this base directory when working with skills."
BUNDLED_FOLDER = "[Qwen Code's bundled skills folder]"
ARGS_NOTE = "[Qwen Code's note on the arguments file: vendor text, not shown]"
SESSION_ID = "[Qwen Code session id]"
MAX_STACKED = 5  # `MAX_STACKED_SKILLS`
# The spots the placeholders above fill (the conformance tests match them to any text).
SKILL_SPOTS = re.compile(
    r"\[Qwen Code's bundled skills folder\]|\[body of Qwen Code's bundled skill `[^`\n]*`: vendor text, not shown\]"
    r"|\[Qwen Code's note on the arguments file: vendor text, not shown\]|\[Qwen Code session id\]"
)
_HEADER = re.compile(r"---\n([\s\S]*?)\n---(?:\n|$)([\s\S]*)")


@dataclass(frozen=True, slots=True)
class TypedSkill:
    """A skill as the command typing its name runs: its folder as the CLI shows it and its body."""

    name: str
    folder: str
    body: str


def bundled_skill(name: str) -> TypedSkill:
    """A skill shipped with the CLI: where it is and what it says are not shown."""
    return TypedSkill(name, f"{BUNDLED_FOLDER}/{name}", f"[body of Qwen Code's bundled skill `{name}`: vendor text, not shown]")


def normalize_content(text: str) -> str:
    """`normalizeContent`: a leading byte-order mark dropped, CRLF and lone CR made LF."""
    return text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")


def skill_body(text: str) -> str | None:
    """`parseSkillContent`'s body: after `normalizeContent` and the `---` header, trimmed; None without a header."""
    match = _HEADER.fullmatch(normalize_content(text))
    return match.group(2).strip(JS_WHITESPACE) if match else None


def skill_content(skill: TypedSkill) -> str:
    """`buildSkillLlmContent`: the wrapper around the skill's body."""
    return f"Base directory for this skill: {skill.folder}\n{IMPORTANT}\n\n{skill.body}\n"


def args_file(name: str) -> str:
    """`skillArgsPath`: where `writeSkillArgs` puts the arguments, relative to the launch directory."""
    return f".qwen/tmp/s-{SESSION_ID}/qwen-skill-args-{re.sub(r'[^A-Za-z0-9._-]', '_', name)}.txt"


def skill_message(skill: TypedSkill, arguments: str) -> str:
    """What typing `/<name> <arguments>` sends for one skill."""
    args = arguments.strip(JS_WHITESPACE)
    if not args:
        return skill_content(skill)
    raw = f"/{skill.name} {arguments}".strip(JS_WHITESPACE)
    note = f"{ARGS_NOTE}\n<skill-args-file>{args_file(skill.name)}</skill-args-file>\n<skill-args>{args}</skill-args>\n"
    return f"{skill_content(skill)}\n\n{raw}\n\n{note}"


def typed_message(first: TypedSkill, arguments: str, stackable: Callable[[str], TypedSkill | None]) -> str:
    """What typing `/<first.name> <arguments>` sends: `parseStackedSlashCommands` first, where
    `stackable` gives the skill a `/name` word names (one the user may type), else None."""
    skills, rest = [first], arguments
    while True:
        word = re.match(r"\s*(\S+)", rest)
        if word is None or not word[1].startswith("/") or len(word[1]) == 1:
            break
        skill = stackable(word[1][1:])
        if skill is None or len(skills) >= MAX_STACKED:
            break
        skills.append(skill)
        rest = rest[word.end() :]
    if len(skills) < 2:
        return skill_message(first, arguments)
    return "".join(skill_content(skill) for skill in skills) + rest.strip(JS_WHITESPACE)
