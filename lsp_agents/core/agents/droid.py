"""Factory droid's custom droids and skills (@factory/cli 0.225.1, the binary of 0.225.2).

The binary embeds its JavaScript bundle; the rules below cite it by a string unique to it.

Folders (`Ja`: the user folder, the project folder at the git root, no git: at cwd, and the
folders of every directory from cwd up to below the git root; the project folder is dropped when
the root is the home directory): the nested directories come first, nearest first, then the project,
then the home directory. Skills: the `skills` of `.factory`, `.agents` and `.agent`, in that order,
first of each nested directory, then of the project, then of the home directory; in each skills folder the entries that are directories, sorted with
`localeCompare`, a folder holding a `SKILL.md` being a skill and any other searched below (`lt`).
A skill is valid with a `name` of `[a-z0-9-]` and a body (`_f`: "Skill must have a name", "Skill
must have a system prompt"); it is listed unless `enabled: false` or `disable-model-invocation:
true`, and only with a `description` key (an empty one reads "No description provided"). The
header is read leniently, and not at all after a byte-order mark (`an`: the text must open with `---`;
droid reads files with the mark kept), as for droids. The first skill of a name wins. The listing is a `<system-reminder>` part
of the first user message, `name: description` per line (white space runs made one space, cut to
1,023 characters and `…` beyond 1,024: `yr`), before the built-in skills. Not modelled: the
listing's budget (`Rn`: 1.5 % of the working token limit at 4 characters a token, 8,000 without
one, the built-in skills' descriptions counted first), past which a skill is listed by name only.

Skills found on read (`DynamicContextDiscovery.discoverSkills`, announced by `Ie` after the
instruction files of the read's `<system-reminder>`): the `skills` of `.factory`, `.agents` and
`.agent` (not itself a symlink) in each folder the read walks, outermost first; their entries in
directory order (`be`: readdir, unsorted, any depth, kept inside the skills folder), each skill
file once a session. One is announced, as `- name: description (project)` (`No description` for an
empty one), when its header has a string `name` and `description`, its name is valid, its body is
not empty and it is not `enabled: false`; and when no skill of the start and no skill found on an
earlier read has its name (`R`: the `dynamic` bucket comes after the project and user ones; names
compared through `Se`).

Custom droids (`loadAllDroids`): the `*.md` files directly in the `droids` folder of `.factory` in the
same directories, in directory order (`readdir`, unsorted: the filesystem's order), each named by
its `name` else its file name, with any header (`Lr`: none is rejected). The first of a name wins.
Listed after the built-in subagents (`ui`, "Custom droids available (from"):
`- name: description (location: project|personal)`, the descriptions cut with `…` to share 1 % of
the model's working token limit at 4 characters a token (4,000 characters when the limit is
unknown: `oi`) after the names.

Delegated to (the `Task` tool, `TaskCliExecutor`; offered by `droid exec --auto high`), a droid's request has
droid's subagent preamble, the droid's trimmed body and droid's subagent contract as its system prompt, then the
skills listing and the instructions as the main agent's first user message has them, without the droids listing
(verified in air-gap mode, `FACTORY_AIRGAP_ENABLED=1`: FINDINGS.md DRA-7).

Commands (`xr`, `Et`, `If`): every file at any depth below the `commands` of `.factory` in the same
directories whose name ends in `.md` (any case) or whose first line starts with `#!` (a script droid
runs: not modelled, left out here), named by its file name without the extension, lower-cased, runs
of characters other than `[a-z0-9_-]` made `-` (`ns/Odd Name!.md` is `odd-name-`). The first of a
name wins (the project's over the user's). Not sent at the start; typed (`droid exec "/name args"`
too), the body goes as a user message of its own (`typed_commands.droid_message`; verified). A skill
is typed by its name when no command has it (`oS`, the registry's `getRegisteredCommand`: built-in,
custom, skill), unless its header is off the skill schema or says `user-invocable: false` (`rS`):
its file in a `<skill>` block (`typed_commands.droid_skill_message`, `k`; verified). A built-in
command's name (`droid_builtins`) takes neither: the line is sent as typed (verified for `review`), or the
built-in's own prompt (`droid_builtins.message`; verified). The files and folders the message sent tags with `@`
come first (`droid_at`; verified).
"""

from __future__ import annotations

import os
import re
from typing import ClassVar

from lsp_agents.core.agents import droid_builtins
from lsp_agents.core.agents.base import (
    Definitions,
    PlainLine,
    StartText,
    base_layer,
    instruction_layers,
    mark_shadowed,
    skill_definition,
)
from lsp_agents.core.agents.droid_at import tag_parts
from lsp_agents.core.agents.droid_skills import (
    NO_DESCRIPTION,
    found_name,
    ledger_key,
    read_header,
    read_skill_dirs,
    start_name,
    typed_skill,
    user_invocable,
)
from lsp_agents.core.agents.model import Catalog, Definition, Delivery, Issue, Kind, Layer, Scope
from lsp_agents.core.agents.typed_commands import droid_command_body, droid_message, droid_skill_message, typed_line
from lsp_agents.core.harnesses import harness_model
from lsp_agents.core.harnesses.base import LaunchContext
from lsp_agents.core.harnesses.cline import locale_key
from lsp_agents.core.harnesses.droid import Droid, factory_home
from lsp_agents.core.walk import ancestors, find_marker_root

TITLE = "Factory droid"
SKILL_FOLDERS = (".factory", ".agents", ".agent")
SKILLS_HEADER = "<system-reminder>\nAvailable skills (invoke by exact name when its description matches the request):"
BUILTIN_SKILLS = "[droid built-in skills]"
BUILTIN_SUBAGENTS = "[droid built-in subagents]"
SUBAGENT_PREAMBLE = "[droid subagent preamble]"
SUBAGENT_CONTRACT = "[droid subagent contract]"
LISTING_CHARS = 4000  # `oi`: without a working token limit
MAX_LISTED_DESCRIPTION = 1024  # `Cn`: a skill's description in the listing (`yr`: 1,023 characters and `…`)
_SKILL_NAME = re.compile(r"[a-z0-9-]+")
_COMMAND_NAME_CHARS = re.compile(r"[^a-z0-9\-_]")
_COMMAND_NAME_RUNS = re.compile(r"--+")
MAX_DEPTH = 8


class DroidDefinitions(Definitions):
    harness = "droid"
    title = TITLE
    evidence: ClassVar[dict[str, str]] = {
        "skills listing": "verified: nested, project, then home skills of `.factory`, `.agents`, `.agent`, in a "
        "`<system-reminder>` of the first user message, before the built-in skills (0.225.2)",
        "skill loading": "verified: a name outside `[a-z0-9-]`, no body, `enabled: false`, `disable-model-invocation: "
        "true` or no `description` key: not listed",
        "droids listing": "verified: `.factory/droids/*.md` of the nested directories, the project and the home "
        "directory, in directory order, after the built-in subagents",
        "droid descriptions budget": "source: 1 % of the working token limit at 4 characters a token (`oi`, `ui`)",
        "skills found on read": "verified: announced in the read's reminder after its instruction files, once a "
        "session, unless a skill of the start or found earlier has the name (conformance golden droid-read-skills)",
        "commands": "verified: `.factory/commands` are not sent at the start",
        "typed commands": "verified: `/name args` sends the body, `$ARGUMENTS` replaced, in `<system-notification>` "
        "lines; subfolders read, names lower-cased, the project's over the user's; a skill typed: its file in a "
        "`<skill>` block, the arguments after it (0.225.2)",
        "tagged paths": "verified: `@path` in the message sent adds the file's text or the folder's entries (0.225.2)",
        "built-in commands": "verified: /statusline and /readiness-* send their prompt, the rest the line (0.225.2)",
        "claude folders": "verified: `.claude/agents`, `.claude/skills` and `.claude/commands` are not read",
        "delegated droid": "verified: the droid's trimmed body between droid's subagent preamble and contract as the "
        "system prompt, then the skills listing and the instructions, no droids listing (`droid exec --auto high`, "
        "airgap mode)",
    }
    delegated_prompts = True

    # -- discovery ----------------------------------------------------------------------------
    def _directories(self, ctx: LaunchContext) -> tuple[list[tuple[str, Scope]], list[tuple[str, Scope]]]:
        """The nested directories (nearest first); the project directory and the home directory."""
        root = find_marker_root(ctx.fs, ctx.cwd, [".git"])
        home = os.path.normpath(factory_home(ctx))
        nested = [(d, Scope.PROJECT) for d in ancestors(ctx.cwd, root)[:-1] if d != home] if root else []
        project = self._project(ctx)
        return nested, [(project, Scope.PROJECT)] * (project != home) + [(home, Scope.USER)]

    def _project(self, ctx: LaunchContext) -> str:
        return find_marker_root(ctx.fs, ctx.cwd, [".git"]) or ctx.cwd

    def build(self, ctx: LaunchContext) -> Catalog:
        catalog = Catalog(self.harness, ctx.cwd)
        nested, rest = self._directories(ctx)
        # Each folder name's nested directories (`Ja`'s folderPaths, one resolver per name), then the
        # project's and the home directory's folders.
        roots = [(os.path.join(d, f, "skills"), s) for f in SKILL_FOLDERS for d, s in nested]
        roots += [(os.path.join(d, f, "skills"), s) for d, s in rest for f in SKILL_FOLDERS]
        skills = [self._skill(ctx, path, scope) for root, scope in roots for path in self._skill_files(ctx, root, set(), 0)]
        droids = [
            self._droid(ctx, os.path.join(directory, ".factory", "droids", entry), scope)
            for directory, scope in nested + rest
            for entry in ctx.fs.list_dir(os.path.join(directory, ".factory", "droids"))
            if entry.endswith(".md") and ctx.fs.is_file(os.path.join(directory, ".factory", "droids", entry))
        ]
        commands = [
            command
            for directory, scope in nested + rest
            for path in self._command_files(ctx, os.path.join(directory, ".factory", "commands"), set(), 0)
            if (command := self._command(ctx, path, scope)) is not None
        ]
        mark_shadowed(skills, later_wins=False)
        mark_shadowed(droids, later_wins=False)
        mark_shadowed(commands, later_wins=False)
        catalog.definitions = skills + droids + commands
        return catalog

    def _command_files(self, ctx: LaunchContext, folder: str, seen: set[str], depth: int) -> list[str]:
        """`Et`: the files below `folder` (entries sorted here; droid takes them in directory order)."""
        real = ctx.fs.realpath(folder)
        if depth > MAX_DEPTH or real in seen or not ctx.fs.is_dir(folder):
            return []
        seen.add(real)
        found = []
        for entry in sorted(ctx.fs.list_dir(folder)):
            path = os.path.join(folder, entry)
            if ctx.fs.is_dir(path):
                found += self._command_files(ctx, path, seen, depth + 1)
            elif ctx.fs.is_file(path):
                found.append(path)
        return found

    def _command(self, ctx: LaunchContext, path: str, scope: Scope) -> Definition | None:
        """`xr`: a Markdown command (scripts, `#!` on the first line, are left out)."""
        data = ctx.fs.read(path)
        text = data.text()
        if not path.lower().endswith(".md") or text.startswith("#!"):
            return None
        parsed = read_header(ctx, path)
        body = droid_command_body(text)
        first = next(
            (line.strip() for line in re.split(r"\r?\n", body) if line.strip() and not line.strip().startswith("#!")), None
        )
        name = _COMMAND_NAME_RUNS.sub("-", _COMMAND_NAME_CHARS.sub("-", os.path.basename(path).rsplit(".", 1)[0].lower()))
        command = Definition(
            self.harness,
            Kind.COMMAND,
            name,
            path,
            scope,
            description=parsed.text_field("description") or first or name,
            body=body,
            delivery=Delivery.ON_USE,
        )
        if data.problem or data.data is None:
            command.drop(Issue("invalid-definition", f"{TITLE} cannot read this command ({data.problem})"))
        return command

    def find_command(self, catalog: Catalog, name: str) -> Definition | None:
        """The command registry's order (built-in, custom, skill): a command, else a skill the user may
        type, unless a built-in command has the name."""
        if name.lower() in droid_builtins.BUILTIN_COMMANDS:
            return None
        commands = catalog.active(Kind.COMMAND)
        skills = [d for d in catalog.active(Kind.SKILL) if d.user_invocable]
        return next((d for d in commands + skills if d.name == name.lower()), None)

    def command_message(self, ctx: LaunchContext, command: Definition, arguments: str) -> str:
        if command.kind == Kind.SKILL:
            return droid_skill_message(typed_skill(ctx, command), arguments)
        return droid_message(arguments, command.body or "")

    def command_reads(self, ctx: LaunchContext, command: Definition, arguments: str) -> list[str]:
        return tag_parts(ctx.fs, ctx.cwd, self.command_message(ctx, command, arguments))

    def refusal(self, ctx: LaunchContext, name: str, arguments: str) -> str | None:
        return droid_builtins.refusal(ctx, name, arguments)

    def typed_line_message(self, ctx: LaunchContext, catalog: Catalog, name: str, arguments: str) -> str | None:
        return droid_builtins.message(ctx, name, arguments)

    def line_reads(self, ctx: LaunchContext, name: str, arguments: str) -> list[str]:
        return tag_parts(ctx.fs, ctx.cwd, droid_builtins.tagged_text(name, arguments))

    def plain_line(self, ctx: LaunchContext, name: str, arguments: str) -> PlainLine | None:
        """A line no command takes goes as typed, after the parts for the paths it tags (none: None)."""
        reads = tag_parts(ctx.fs, ctx.cwd, typed_line(name, arguments))
        return (
            PlainLine(f"{TITLE} sends the line as typed, after the files and folders it tags", (), tuple(reads))
            if reads
            else None
        )

    def _skill_files(self, ctx: LaunchContext, folder: str, seen: set[str], depth: int) -> list[str]:
        """`lt`: the skills below `folder`, each folder's entries sorted, once per real folder."""
        real = ctx.fs.realpath(folder)
        if depth > MAX_DEPTH or real in seen or not ctx.fs.is_dir(folder):
            return []
        seen.add(real)
        found = []
        for entry in sorted(ctx.fs.list_dir(folder), key=locale_key):
            path = os.path.join(folder, entry)
            if not ctx.fs.is_dir(path):
                continue
            skill = os.path.join(path, "SKILL.md")
            found += [skill] if ctx.fs.is_file(skill) else self._skill_files(ctx, path, seen, depth + 1)
        return found

    def _skill(self, ctx: LaunchContext, path: str, scope: Scope) -> Definition:
        parsed = read_header(ctx, path)
        name = parsed.text_field("name")
        raw = parsed.fields.get("description")
        description = None if raw is None else " ".join(str(raw).split()) or NO_DESCRIPTION
        skill = skill_definition(
            self.harness,
            name or os.path.basename(os.path.dirname(path)),
            path,
            scope,
            parsed,
            description=description,
        )
        problem = None
        if parsed.problem:
            problem = f"cannot read this skill ({parsed.problem})"
        elif not name:
            problem = "drops a skill without a `name`"
        elif not _SKILL_NAME.fullmatch(name):
            problem = "drops a skill whose name has characters other than lower-case letters, digits and `-`"
        elif not skill.body:
            problem = "drops a skill without a body"
        skill.user_invocable = user_invocable(parsed.fields)
        if problem:
            skill.drop(Issue("invalid-definition", f"{TITLE} {problem}", skill.line))
        elif parsed.fields.get("enabled") is False:
            skill.drop(Issue("disabled", f"{TITLE} does not load a skill with `enabled: false`"))
        elif description is None or parsed.fields.get("disable-model-invocation") is True:
            skill.delivery = Delivery.ON_USE
        else:
            skill.delivery = Delivery.LISTED
        return skill

    def _droid(self, ctx: LaunchContext, path: str, scope: Scope) -> Definition:
        parsed = read_header(ctx, path)  # a byte-order mark: no header (GD-17)
        droid = Definition(
            self.harness,
            Kind.AGENT,
            parsed.text_field("name") or os.path.basename(path)[:-3],
            path,
            scope,
            description=parsed.text_field("description"),
            body=parsed.body.strip(),
            delivery=Delivery.LISTED,
            line=parsed.line_of("name"),
            description_line=parsed.line_of("description"),
        )
        if parsed.problem:
            droid.drop(Issue("invalid-definition", f"{TITLE} cannot read this droid ({parsed.problem})"))
        return droid

    # -- skills found on read -----------------------------------------------------------------
    def read_skills(self, ctx: LaunchContext, dirs: list[str], earlier: list[list[str]]) -> list[str]:
        """The entries a read announces: the skills below `dirs` not found by an `earlier` read, that
        no skill of the start or found earlier shadows (tests/conformance/FINDINGS.md, GD-15)."""
        claimed = {ledger_key(start_name(ctx, d.path)) for d in self.catalog(ctx).definitions if d.kind == Kind.SKILL}
        seen: set[str] = set()
        for previous in earlier:
            for path in self._found_skills(ctx, previous, seen):
                claimed.add(ledger_key(found_name(ctx, path)))
        entries = []
        for path in self._found_skills(ctx, dirs, seen):
            key = ledger_key(found_name(ctx, path))
            if key in claimed:
                continue  # shadowed, or a collision in the `dynamic` bucket (the first one wins)
            if key:
                claimed.add(key)
            parsed = read_header(ctx, path)
            name, description = parsed.fields.get("name"), parsed.fields.get("description")
            if parsed.problem or not isinstance(name, str) or not isinstance(description, str):
                continue  # `iW`: a header off the schema gives a disabled skill
            if not _SKILL_NAME.fullmatch(name) or not ledger_key(name) or not parsed.body.strip():
                continue  # `_f`: invalid
            if parsed.fields.get("enabled") is False:
                continue
            entries.append(f"- {name}: {description or 'No description'} (project)")
        return entries

    def _found_skills(self, ctx: LaunchContext, dirs: list[str], seen: set[str]) -> list[str]:
        """`discoverSkills`: the real paths of the SKILL.md files below `dirs` not in `seen` (updated)."""
        found = []
        for directory in dirs:
            for folder in SKILL_FOLDERS:
                skills = os.path.join(directory, folder, "skills")
                if ctx.fs.is_link(skills) or not ctx.fs.is_dir(skills):
                    continue  # `lstat(...).isDirectory()`
                for skill_dir in read_skill_dirs(ctx, skills, ctx.fs.realpath(skills), set()):
                    real = ctx.fs.realpath(os.path.join(skill_dir, "SKILL.md"))
                    if real not in seen and ctx.fs.is_file(real):
                        seen.add(real)
                        found.append(real)
        return found

    # -- what is sent -------------------------------------------------------------------------
    def skills_listing(self, catalog: Catalog) -> str:
        lines = [
            f"{s.name}: {_cut(s.description or '', MAX_LISTED_DESCRIPTION)}"
            for s in catalog.active(Kind.SKILL)
            if s.delivery == Delivery.LISTED
        ]
        return "\n".join([SKILLS_HEADER, *lines, BUILTIN_SKILLS, "</system-reminder>"])

    def droids_listing(self, ctx: LaunchContext, catalog: Catalog) -> str:
        droids = catalog.active(Kind.AGENT)
        if not droids:
            return BUILTIN_SUBAGENTS
        project = os.path.join(self._project(ctx), ".factory", "droids")
        personal = os.path.join(harness_model(self.harness, Droid).home_dir(ctx), "droids")
        entries = [
            (f"{d.name}:", f"(location: {'personal' if d.scope == Scope.USER else 'project'})", d.description or "")
            for d in droids
        ]
        share = max(0, LISTING_CHARS - sum(len(name) + len(meta) for name, meta, _ in entries)) // len(entries)
        lines = [BUILTIN_SUBAGENTS, "", f"Custom droids available (from {project} and {personal}):"]
        for name, meta, description in entries:
            lines.append("- " + " ".join(part for part in (name, _cut(description, share), meta) if part))
        return "\n".join(lines)

    def start_layers(self, ctx: LaunchContext, catalog: Catalog, start: StartText, agent: Definition | None) -> list[Layer]:
        """The main agent's first request; with `agent`, the request of that droid delegated to (`Task`)."""
        skills = Layer("skills", "user", self.skills_listing(catalog), "mixed")
        if agent is None:
            head = [base_layer(TITLE, start, None), skills, Layer("agents", "user", self.droids_listing(ctx, catalog), "mixed")]
        else:
            head = [Layer("agent", "system", f"{SUBAGENT_PREAMBLE}\n\n{agent.body}\n\n{SUBAGENT_CONTRACT}", "mixed"), skills]
        return [*head, *instruction_layers(start), Layer("environment", "user", start.environment, "harness")]


def _cut(text: str, limit: int) -> str:
    """`ai`: at most `limit` characters, the last one `…` when cut."""
    if not text or limit <= 0:
        return ""
    if len(text) <= limit:
        return text
    return "\u2026" if limit == 1 else text[: limit - 1] + "\u2026"
