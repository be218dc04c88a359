"""`workspace/executeCommand`: the CLI's answers for a file of the workspace.

Each command returns exactly what `lsp-agents prompt|reminders|cascade --format json` prints for
the same file with `--cwd` the resolved launch directory and `--home` the resolved home: both
front ends call the same compose functions. Unsaved buffers count, as everywhere in the server.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable

from lsp_agents.core.agents.session import definitions_result, session_result
from lsp_agents.core.compose import cascade_result, prompt_result, reminders_result
from lsp_agents.core.harnesses import HARNESSES, get_harness
from lsp_agents.core.model import JsonObject
from lsp_agents.server import file_facts
from lsp_agents.server.budget import guarded
from lsp_agents.server.server import AgentsLanguageServer  # at run time: pygls resolves the handlers' annotations
from lsp_agents.server.uris import path_of

log = logging.getLogger(__name__)
EFFECTIVE_PROMPT = "lspAgents.effectivePrompt"
FILE_REMINDERS = "lspAgents.fileReminders"
CASCADE = "lspAgents.cascade"
REINDEX = "lspAgents.reindex"
AGENTS = "lspAgents.agents"
FILE_USES = "lspAgents.fileUses"
SESSION_REMINDERS = "lspAgents.sessionReminders"


class BadArguments(ValueError):
    """The command's arguments cannot be used; the message says why."""


def _options(args: tuple[object, ...]) -> JsonObject:
    if len(args) != 1 or not isinstance(args[0], dict) or not isinstance(args[0].get("uri"), str):
        raise BadArguments("expected one argument {uri, ...} with `uri` a file URI")
    return args[0]


def _path(value: str) -> str:
    """A file URI or a plain path, as absolute path."""
    path = path_of(value) if "://" in value else os.path.abspath(value)
    if path is None:
        raise BadArguments(f"not a file URI: {value!r}")
    return path


def _cwd(options: JsonObject) -> str | None:
    cwd = options.get("cwd")
    if cwd is None:
        return None
    if not isinstance(cwd, str) or not os.path.isdir(_path(cwd)):
        raise BadArguments(f"cwd {cwd!r} is not a directory")
    return _path(cwd)


def _answer(result: tuple[JsonObject, list[str]]) -> JsonObject:
    value, warnings = result
    for warning in dict.fromkeys(warnings):
        log.warning("%s", warning)
    return value


def effective_prompt(ls: AgentsLanguageServer, options: JsonObject) -> JsonObject:
    path = _path(options["uri"])
    harness = get_harness(options.get("harness") or ls.settings_for(path).default_harness)
    layers = options.get("layers") in (True, "all")
    agent = _optional_text(options, "agent")
    return _answer(prompt_result(harness, ls.context(path, _cwd(options)), layers=layers, agent=agent))


def file_reminders(ls: AgentsLanguageServer, options: JsonObject) -> JsonObject:
    path = _path(options["uri"])
    harness = get_harness(options.get("harness") or ls.settings_for(path).default_harness)
    loaded = [_path(p) for p in options.get("loaded") or ()]
    return _answer(reminders_result(harness, ls.context(path, _cwd(options)), path, loaded))


def cascade(ls: AgentsLanguageServer, options: JsonObject) -> JsonObject:
    path = _path(options["uri"])
    name = options.get("harness") or "all"
    harnesses = list(HARNESSES.values()) if name == "all" else [get_harness(name)]
    return _answer(cascade_result(harnesses, ls.context(path), path))


def file_uses(ls: AgentsLanguageServer, options: JsonObject) -> JsonObject:
    """Who sends the file itself, per enabled harness, in the words of the hover and the code lens
    (no harness weighs a file that is not an instruction file)."""
    path = _path(options["uri"])
    if not file_facts.is_instruction(ls, path):
        return {"file": path, "harnesses": [], "shadows": []}
    return file_facts.uses_of(ls, path).to_json()


def agents(ls: AgentsLanguageServer, options: JsonObject) -> JsonObject:
    path = _path(options["uri"])
    name = options.get("harness") or "all"
    harnesses = list(HARNESSES.values()) if name == "all" else [get_harness(name)]
    return _answer(definitions_result(harnesses, ls.context(path, _cwd(options))))


def session_reminders(ls: AgentsLanguageServer, options: JsonObject) -> JsonObject:
    """The session's reminders; `uri` picks the folder and launch directory, `reads` the files read."""
    path = _path(options["uri"])
    harness = get_harness(options.get("harness") or ls.settings_for(path).default_harness)
    reads = [_path(p) for p in options.get("reads") or () if isinstance(p, str)]
    return _answer(
        session_result(
            harness,
            ls.context(path, _cwd(options)),
            agent=_optional_text(options, "agent"),
            plan=options.get("plan") is True,
            reads=reads,
            switch_to=_optional_text(options, "switchTo"),
            command=_optional_text(options, "command"),
            arguments=_optional_text(options, "arguments") or "",
        )
    )


def _optional_text(options: JsonObject, key: str) -> str | None:
    value = options.get(key)
    if value is not None and not isinstance(value, str):
        raise BadArguments(f"{key} must be a string")
    return value


Command = Callable[[AgentsLanguageServer, JsonObject], JsonObject]


def _command(name: str, run: Command) -> Callable[..., JsonObject | None]:
    """A command handler. pygls structures a command's arguments by the handler's annotations,
    resolved when it runs: `*args: object` passes them on as sent, `_options` checks them."""

    def command(ls: AgentsLanguageServer, *args: object) -> JsonObject | None:
        try:
            return run(ls, _options(args))
        except ValueError as exc:  # BadArguments, UnknownHarness: the user can fix these
            log.error("%s: %s", name, exc)
            return None

    command.__name__ = command.__qualname__ = name  # the request's name in the log
    return guarded()(command)


def register(server: AgentsLanguageServer) -> None:
    for name, run in (
        (EFFECTIVE_PROMPT, effective_prompt),
        (FILE_REMINDERS, file_reminders),
        (CASCADE, cascade),
        (FILE_USES, file_uses),
        (AGENTS, agents),
        (SESSION_REMINDERS, session_reminders),
    ):
        server.command(name)(_command(name, run))

    @server.command(REINDEX)
    @guarded()
    def reindex(ls: AgentsLanguageServer, *args: object) -> JsonObject:
        """Starts the re-analysis and answers at once (with what is known now): on a large
        workspace it takes seconds. `lspAgents/analysisComplete` follows for each folder."""
        if not ls.stopping:
            ls.run_task(ls.reindex())
        return {"folders": len(ls.folders), "instructionFiles": sum(len(f.index.instruction_files) for f in ls.folders.values())}
