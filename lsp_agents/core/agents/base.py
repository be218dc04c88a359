"""The interface of a harness's agents/skills/commands model, and what the models share.

A model answers three questions for a launch context: which definitions the harness finds
(`catalog`), what it sends at the start of a session and in which order (`start_layers`), and
which reminders a session adds and when (`session_reminders`). Vendor prompt text never
appears: built-in entries and reminders are placeholders that name them.
"""

from __future__ import annotations

import os
from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from lsp_agents.core.agents.claude_builtins import Builtin
from lsp_agents.core.agents.discovery import ParsedDefinition, find_files, markdown_file, parse_definition
from lsp_agents.core.agents.model import Catalog, Definition, Delivery, Issue, Kind, Layer, Scope
from lsp_agents.core.agents.typed_commands import opencode_message
from lsp_agents.core.harnesses.base import LaunchContext
from lsp_agents.core.model import Cascade, JsonObject


@dataclass(frozen=True, slots=True)
class PlainLine:
    """A typed line no command takes that the CLI sends as it is, leaving parts of its first request
    out (`left_out`: layer names) or adding what it sends for the files the line names (`reads`, the
    `mentions` reminder's parts; `found`, what those reads add to the system-role message, the
    `skills-found` reminder's parts), and why (`note`)."""

    note: str
    left_out: tuple[str, ...]
    reads: tuple[str, ...] = ()
    found: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class StartText:
    """What the caller already knows of the session start: the instruction cascade and the
    environment block (their layers keep the placement the harness gives them)."""

    cascade: Cascade
    environment: str
    base_prompt: str | None = None


@dataclass(frozen=True, slots=True)
class Reminder:
    """A reminder a session adds: its name, where it goes, and its text (the user's own text,
    or a placeholder naming the vendor's)."""

    name: str
    placement: str
    text: str
    source: str = "placeholder"
    verified: bool = False

    def to_json(self) -> JsonObject:
        return {
            "name": self.name,
            "placement": self.placement,
            "text": self.text,
            "source": self.source,
            "verified": self.verified,
        }


@dataclass(frozen=True, slots=True)
class SessionPlan:
    """The session to simulate: the agent it starts with, whether plan mode is on, the agent it
    switches to afterwards, and the step limit to reach."""

    agent: Definition | None = None
    plan: bool = False
    switch_to: Definition | None = None


class Definitions(ABC):
    """One harness's agents, skills and commands. `evidence` says, per feature, whether the
    behaviour was checked against captures of the real CLI or follows its source or documentation."""

    harness: ClassVar[str]
    title: ClassVar[str]
    evidence: ClassVar[dict[str, str]]
    runs_agents: ClassVar[bool] = False  # a session can run as one of its agents (`--agent NAME`)
    # `--agent NAME` shows the request of the subagent NAME when the main agent delegates to it (verified ones).
    delegated_prompts: ClassVar[bool] = False
    # Typing `/<name> <arguments>` runs a command; False where the CLI sends the line as typed.
    expands_typed_commands: ClassVar[bool] = True

    def catalog(self, ctx: LaunchContext) -> Catalog:
        """Everything found from `ctx`, cached until a file changes; callers must not modify it."""
        return ctx.fs.memo(("definitions", self.harness, ctx.key), lambda: self.build(ctx))

    @abstractmethod
    def build(self, ctx: LaunchContext) -> Catalog:
        """Compute `catalog` (models implement this)."""

    @abstractmethod
    def start_layers(self, ctx: LaunchContext, catalog: Catalog, start: StartText, agent: Definition | None) -> list[Layer]:
        """Every layer of the first request in the order the harness sends them."""

    def session_reminders(self, ctx: LaunchContext, catalog: Catalog, plan: SessionPlan) -> dict[str, list[Reminder]]:
        """Reminders by trigger: "start", "switch", "step" (the per-file ones come from the harness)."""
        return {}

    def step_limit(self, agent: Definition | None) -> int | None:
        return None

    def default_agent(self, catalog: Catalog) -> Definition | None:
        return None

    def find_command(self, catalog: Catalog, name: str) -> Definition | None:
        """The command typing `/<name>` runs."""
        return next((d for d in catalog.active(Kind.COMMAND) if d.name == name), None)

    def refusal(self, ctx: LaunchContext, name: str, arguments: str) -> str | None:
        """Why the CLI sends nothing for `/<name> <arguments>`, refusing the line itself; None: it takes it."""
        return None

    def find_builtin(self, name: str) -> Builtin | None:
        """The built-in command typing `/<name>` runs when the catalog holds none of that name."""
        return None

    def command_message(self, ctx: LaunchContext, command: Definition, arguments: str) -> str:
        """The user message typing `/<name> <arguments>` sends (opencode's rule; see typed_commands)."""
        return opencode_message(command.body or "", arguments)

    def command_reads(self, ctx: LaunchContext, command: Definition, arguments: str) -> list[str]:
        """What the CLI sends before that message for the files the command names (none here)."""
        return []

    def typed_line_message(self, ctx: LaunchContext, catalog: Catalog, name: str, arguments: str) -> str | None:
        """What the CLI sends for `/<name> <arguments>` when no command takes it; None: the line as typed."""
        return None

    def line_reads(self, ctx: LaunchContext, name: str, arguments: str) -> list[str]:
        """What the CLI sends before `typed_line_message`'s message for the files it names (none here)."""
        return []

    def typed_command_line(self, catalog: Catalog, name: str, arguments: str) -> tuple[str, str]:
        """The command name and arguments the CLI reads from `/<name> <arguments>` (here: as given)."""
        return name, arguments

    def plain_line(self, ctx: LaunchContext, name: str, arguments: str) -> PlainLine | None:
        """Whether the CLI sends `/<name> <arguments>`, which no command takes, as it is but without
        parts of its first request (None: as it is, the request otherwise unchanged)."""
        return None

    def builtin_reads(self, ctx: LaunchContext, builtin: Builtin, arguments: str) -> list[str]:
        """What the CLI sends before a built-in command's message for the files it names (none here)."""
        return []

    def command_found(self, ctx: LaunchContext, command: Definition, arguments: str) -> list[str]:
        """What the files the command's mentions read add to the first request's system-role message (none here)."""
        return []

    def builtin_found(self, ctx: LaunchContext, builtin: Builtin, arguments: str) -> list[str]:
        """What the files a built-in's mentions read add to the first request's system-role message (none here)."""
        return []

    def command_after(self, ctx: LaunchContext, catalog: Catalog, command: Definition, arguments: str) -> list[str]:
        """The reminders the CLI adds after the message of a command typed (none here)."""
        return []


# -- shared mechanics ---------------------------------------------------------------------------
def sort_key(name: str) -> tuple[str, str]:
    """Case-insensitive order, lower case first on ties (as JavaScript's localeCompare sorts names)."""
    return name.casefold(), name.swapcase()


def xml_escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;").replace("'", "&#39;")


def base_layer(harness_title: str, start: StartText, agent: Definition | None, placement: str = "system") -> Layer:
    """The agent's prompt where it replaces the harness's own, else the base prompt placeholder."""
    if agent is not None and agent.body:
        return Layer("agent", placement, agent.body, "workspace")
    if start.base_prompt is not None:
        return Layer("base", placement, start.base_prompt, "user")
    return Layer("base", placement, f"[{harness_title} base prompt]", "placeholder")


def instruction_layers(start: StartText) -> list[Layer]:
    """The instruction blocks, one layer per placement the harness uses for them."""
    layers = []
    for block in start.cascade.blocks:
        layers.append(Layer("instructions", str(block.placement), block.text, "workspace"))
    return layers or [Layer("instructions", "system", "", "workspace")]


def markdown_definitions(
    ctx: LaunchContext, root: str, pattern_dirs: Sequence[str], catalog: Catalog, *, max_depth: int = 8
) -> list[tuple[str, str, ParsedDefinition]]:
    """(name, path, parsed) of every `*.md` under `root/<dir>` for each of `pattern_dirs`, named by
    its path below that directory without `.md`, in path order."""
    found = []
    for directory in pattern_dirs:
        base = os.path.join(root, directory)
        if not ctx.fs.is_dir(base):
            continue
        walk = find_files(ctx.fs, base, markdown_file, max_depth=max_depth)
        if not walk.complete:
            catalog.warnings.append(f"warning: {base}: too many entries, the rest not searched")
        for path in walk.files:
            name = os.path.relpath(path, base).replace(os.sep, "/")[:-3]
            found.append((name, path, parse_definition(ctx.fs, path)))
    return found


def skill_definition(harness: str, name: str, path: str, scope: Scope, parsed: ParsedDefinition, **fields: Any) -> Definition:
    """The skill of the `SKILL.md` at `path`, named `name`, its findings placed on the header's
    `name` and `description` lines. `fields` are the rest of the definition (description,
    declared name…); the body is the text after the header, trimmed, and the folder the skill's
    folder's name, unless `fields` says otherwise."""
    fields.setdefault("body", parsed.body.strip())
    fields.setdefault("folder", os.path.basename(os.path.dirname(path)))
    return Definition(
        harness,
        Kind.SKILL,
        name,
        path,
        scope,
        line=parsed.line_of("name"),
        description_line=parsed.line_of("description"),
        **fields,
    )


def unreadable_issue(harness_title: str, parsed: ParsedDefinition, what: str) -> Issue | None:
    """The issue of a file the harness cannot read at all, or whose header gives no field."""
    if parsed.problem:
        return Issue("invalid-definition", f"{harness_title} cannot read this {what} ({parsed.problem})")
    if parsed.unreadable_header:
        return Issue(
            "invalid-definition", f"{harness_title} drops this {what}: its header does not parse ({parsed.yaml_error})", 0
        )
    return None


def mark_shadowed(definitions: Iterable[Definition], *, later_wins: bool, fold_case: bool = False) -> None:
    """Among the kept definitions of each (kind, name), all but the winner are shadowed by it;
    `fold_case`: names compared lower-cased. A file reached twice (a symlinked folder) is one
    definition: the repeat is dropped silently."""
    groups: dict[tuple[Kind, str], list[Definition]] = {}
    for definition in definitions:
        if not definition.dropped:
            name = definition.name.lower() if fold_case else definition.name
            groups.setdefault((definition.kind, name), []).append(definition)
    for group in groups.values():
        winner = group[-1] if later_wins else group[0]
        for other in group:
            if other is not winner:
                other.shadowed_by = winner.path
                other.delivery = Delivery.NOT_SENT


def shadow_by_name(definitions: Iterable[Definition], winners: Iterable[Definition]) -> None:
    """Each of `definitions` not shadowed yet that has the name of one of `winners` is shadowed by the
    first of them (a harness that keeps one entry per name across kinds: a command named like a skill)."""
    names: dict[str, str] = {}
    for winner in winners:
        names.setdefault(winner.name, winner.path)
    for definition in definitions:
        if definition.name in names and definition.shadowed_by is None:
            definition.shadowed_by = names[definition.name]
            definition.delivery = Delivery.NOT_SENT


def dedupe_real(ctx: LaunchContext, definitions: list[Definition]) -> list[Definition]:
    """One definition per real file, the first way it was reached."""
    seen: set[str] = set()
    kept = []
    for definition in definitions:
        real = ctx.fs.realpath(definition.path) if os.path.isabs(definition.path) else definition.path
        key = f"{definition.kind}:{definition.name}:{real}"
        if key not in seen:
            seen.add(key)
            kept.append(definition)
    return kept
