"""The answers about agents and sessions that the CLI and the server serve: the layers of the
first request, the definitions a harness finds, and the timeline of a session's reminders.

Like `compose`, each function returns the JSON-ready dict both front ends print, and the
warnings met on the way.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence

from lsp_agents.core.agents import DEFINITIONS
from lsp_agents.core.agents.base import Reminder, SessionPlan, StartText
from lsp_agents.core.agents.model import Catalog, Definition, Delivery, Kind, Layer, Scope
from lsp_agents.core.harnesses import Harness, LaunchContext
from lsp_agents.core.model import Cascade, JsonObject


class UnknownAgent(ValueError):
    """The agent asked for is not one the harness can run a session as."""


def select_agent(harness: Harness, catalog: Catalog | None, name: str) -> Definition:
    """The agent `name` as the harness would run the session with it (`--agent NAME`)."""
    model = DEFINITIONS.get(harness.id)
    if catalog is None or model is None or not (model.runs_agents or model.delegated_prompts):
        raise UnknownAgent(f"{harness.spec.title} has no agents to run a session as")
    agents = catalog.active(Kind.AGENT)
    found = next((a for a in agents if a.name == name), None)
    if found is None:
        runnable = sorted(a.name for a in agents if a.primary or model.delegated_prompts)
        raise UnknownAgent(f"{harness.spec.title} has no agent {name!r} here (agents: {', '.join(runnable) or 'none'})")
    if not found.primary and not model.delegated_prompts:
        raise UnknownAgent(f"{name!r} is a subagent: {harness.spec.title} runs it only when the main agent delegates to it")
    return found


def start_layers(
    harness: Harness,
    ctx: LaunchContext,
    cascade: Cascade,
    environment: str,
    *,
    agent: str | None = None,
    base_prompt: str | None = None,
) -> tuple[list[Layer], Definition | None]:
    """The layers of the first request in send order, and the agent the session runs as."""
    model = DEFINITIONS.get(harness.id)
    start = StartText(cascade, environment, base_prompt)
    if model is None:
        if agent is not None:
            raise UnknownAgent(f"{harness.spec.title} has no agents to run a session as")
        base = base_prompt if base_prompt is not None else f"[{harness.spec.title} base prompt]"
        return [
            Layer("base", "system", base, "user" if base_prompt is not None else "placeholder"),
            Layer("environment", "system", environment, "harness"),
            Layer("instructions", "system", "\n\n".join(b.text for b in cascade.blocks), "workspace"),
        ], None
    catalog = model.catalog(ctx)
    chosen = select_agent(harness, catalog, agent) if agent is not None else None
    return model.start_layers(ctx, catalog, start, chosen), chosen


def definitions_result(harnesses: Iterable[Harness], ctx: LaunchContext) -> tuple[JsonObject, list[str]]:
    """Per harness: every agent, skill and command it finds from `ctx`, and its listings."""
    entries, warnings = [], []
    for harness in harnesses:
        model = DEFINITIONS.get(harness.id)
        if model is None:
            entries.append({"harness": harness.id, "modelled": False, "definitions": [], "listings": [], "evidence": {}})
            continue
        catalog = model.catalog(ctx)
        layers = model.start_layers(ctx, catalog, StartText(harness.eager(ctx), ""), None)
        entries.append(
            {
                "harness": harness.id,
                "modelled": True,
                "evidence": dict(model.evidence),
                "definitions": [d.to_json() for d in catalog.definitions if d.scope != Scope.BUILTIN],
                "listings": [layer.to_json() for layer in layers if layer.name in ("skills", "agents")],
            }
        )
        warnings += catalog.warnings
    return {"cwd": ctx.cwd, "harnesses": entries}, warnings


def session_result(
    harness: Harness,
    ctx: LaunchContext,
    *,
    agent: str | None = None,
    plan: bool = False,
    reads: Sequence[str] = (),
    switch_to: str | None = None,
    command: str | None = None,
    arguments: str = "",
) -> tuple[JsonObject, list[str]]:
    """What a session adds while it runs, in order: at start, on typing a command, on reading
    each file, on switching agents, on the agent's last step."""
    model = DEFINITIONS.get(harness.id)
    catalog = model.catalog(ctx) if model is not None else None
    chosen = (
        select_agent(harness, catalog, agent)
        if agent is not None
        else (model.default_agent(catalog) if model is not None and catalog is not None else None)
    )
    target = select_agent(harness, catalog, switch_to) if switch_to is not None else None
    planned = model.session_reminders(ctx, catalog, SessionPlan(chosen, plan, target)) if model and catalog else {}
    eager = harness.eager(ctx)
    start = [
        Reminder("instructions", str(b.placement), b.text, "workspace", harness.spec.verified)
        for b in eager.blocks
        if b.text.startswith("<system-reminder>")
    ]
    timeline = [_event("start", "at start", start + planned.get("start", []))]
    if command is not None:
        typed, extra = _command(harness, ctx, catalog, command, arguments)
        timeline.append(_event("command", f"on typing /{command}", typed, command=command, **extra))
    loaded: list[str] = []
    for index, read in enumerate(reads):
        cascade = harness.on_read(ctx, read, loaded, reads[:index])
        loaded += [c.path for c in cascade.loaded]
        found = [Reminder("instructions", str(b.placement), b.text, "workspace", harness.spec.verified) for b in cascade.blocks]
        timeline.append(
            _event("read", f"on reading {_shown(read, ctx.cwd)}", found, file=read, files=[c.path for c in cascade.loaded])
        )
    if target is not None:
        timeline.append(_event("switch", f"on switching to {target.name}", planned.get("switch", []), agent=target.name))
    limit = model.step_limit(chosen) if model is not None else None
    if limit:
        timeline.append(_event("step", f"at step {limit} of {limit}", planned.get("step", []), step=limit, of=limit))
    result = {"harness": harness.id, "cwd": ctx.cwd, "agent": chosen.name if chosen else None, "plan": plan, "timeline": timeline}
    return result, eager.warnings + (catalog.warnings if catalog else [])


def _command(
    harness: Harness, ctx: LaunchContext, catalog: Catalog | None, name: str, arguments: str
) -> tuple[list[Reminder], JsonObject]:
    """The message typing `/<name> <arguments>` sends (the harness's rule, `typed_commands`), after
    what the CLI sends for the files it names (`mentions`: Claude Code's `@path` reads, droid's tagged paths,
    joined by newlines; `skills-found`: the skills Claude Code's reads find) and before what it adds after
    it (Claude Code's `skill-variants`); for a built-in command (none of the catalog's has its name), its message (after its arguments' mentions where its prompt
    holds them) or what it does instead (a `note`); for a line the CLI sends as typed or as a plain prompt, a
    `note`, the layers of the first request it goes without (`left_out`) and what it sends for the files the
    line names and the skills their reads find.
    The second value holds the event's fields besides the reminders."""
    model = DEFINITIONS.get(harness.id)
    if model is not None and not model.expands_typed_commands:
        raise UnknownAgent(f"{harness.spec.title} has no command {name!r} it runs when typed: it sends the line as typed")
    if model is not None and (refusal := model.refusal(ctx, name, arguments)) is not None:
        return [], {"note": refusal}
    if model is not None and catalog is not None:
        name, arguments = model.typed_command_line(catalog, name, arguments)
    found = model.find_command(catalog, name) if catalog and model else None
    builtin = model.find_builtin(name) if model is not None and found is None else None
    if builtin is not None and model is not None:
        verified = model.evidence.get("built-in commands", "").startswith("verified")
        if not builtin.sends_prompt:
            return [], {"note": builtin.note()}
        return [
            *_mentions(model.builtin_reads(ctx, builtin, arguments), verified),
            *_found(model.builtin_found(ctx, builtin, arguments), verified),
            Reminder("command", "user", builtin.message(arguments), "harness", verified),
        ], {"note": builtin.note()}
    # Captured where the model's evidence says so.
    verified = model is not None and model.evidence.get("typed commands", "").startswith("verified")
    if found is None and model is not None and catalog is not None:
        line = model.typed_line_message(ctx, catalog, name, arguments)
        if line is not None:  # no command takes the line, but the CLI does not send it as typed
            return [
                *_mentions(model.line_reads(ctx, name, arguments), verified),
                Reminder("command", "user", line, "workspace", verified),
            ], {}
        if (plain := model.plain_line(ctx, name, arguments)) is not None:
            reminders = [*_mentions(list(plain.reads), verified), *_found(list(plain.found), verified)]
            return reminders, {"note": plain.note, "left_out": list(plain.left_out)}
    if found is None or model is None or catalog is None:
        known = ", ".join(sorted(d.name for d in catalog.active(Kind.COMMAND))) if catalog else ""
        raise UnknownAgent(f"{harness.spec.title} has no command {name!r} here (commands: {known or 'none'})")
    return [
        *_mentions(model.command_reads(ctx, found, arguments), verified),
        *_found(model.command_found(ctx, found, arguments), verified),
        Reminder("command", "user", model.command_message(ctx, found, arguments), "workspace", verified),
        *(
            Reminder("skill-variants", "user", text, "workspace", verified)
            for text in model.command_after(ctx, catalog, found, arguments)
        ),
    ], {}


def _mentions(reads: list[str], verified: bool) -> list[Reminder]:
    """What the CLI sends for the files a message names, joined by newlines (none: no reminder)."""
    return [Reminder("mentions", "user", "\n".join(reads), "workspace", verified)] if reads else []


def _found(parts: list[str], verified: bool) -> list[Reminder]:
    """What the files a message names add to the first request's system-role message (Claude Code's
    skills found), its parts joined by blank lines (none: no reminder)."""
    return [Reminder("skills-found", "system-message", "\n\n".join(parts), "workspace", verified)] if parts else []


def _event(trigger: str, label: str, reminders: list[Reminder], **extra: object) -> JsonObject:
    return {"trigger": trigger, "label": label, **extra, "reminders": [r.to_json() for r in reminders]}


def _shown(path: str, cwd: str) -> str:
    return os.path.relpath(path, cwd) if path.startswith(cwd.rstrip(os.sep) + os.sep) else path


def _on_use(definition: Definition) -> str:
    if definition.kind == Kind.SKILL:
        return "its body when the agent loads the skill"
    if definition.kind == Kind.COMMAND:
        return "its template as the message when the user types it"
    if not definition.primary:
        return "its prompt as the subagent's system prompt when the main agent delegates to it"
    if definition.delivery == Delivery.LISTED:
        return "its prompt as the system prompt when it runs (delegated to, or as the session's agent)"
    return "its prompt in place of the base prompt when the session runs as it"


def definition_uses(harnesses: Iterable[Harness], ctx: LaunchContext, path: str) -> list[JsonObject]:
    """How each harness takes the agent, skill or command defined in `path` from `ctx`: under
    which name, when it is sent, what is sent, and why not (dropped, shadowed)."""
    real = ctx.fs.realpath(path)
    uses = []
    for harness in harnesses:
        model = DEFINITIONS.get(harness.id)
        if model is None:
            continue
        for definition in model.catalog(ctx).definitions:
            if definition.scope != Scope.BUILTIN and ctx.fs.realpath(definition.path) == real:
                uses.append(
                    {
                        "harness": harness.id,
                        "kind": str(definition.kind),
                        "name": definition.name,
                        "delivery": str(definition.delivery),
                        "listed": definition.description,
                        "body_chars": len(definition.body or ""),
                        "on_use": _on_use(definition),
                        "shadowedBy": definition.shadowed_by,
                        "issues": [issue.message for issue in definition.issues],
                    }
                )
    return uses
