"""`workspace/executeCommand`: the CLI's answers for a file of the workspace.

Each command returns exactly what `lsp-agents prompt|reminders|cascade --format json` prints for
the same file with `--cwd` the resolved launch directory and `--home` the resolved home: both
front ends call the same compose functions. Unsaved buffers count, as everywhere in the server.

`lspAgents.diff` answers what `lsp-agents diff BASE --format json` prints, run in the file's
workspace folder with the editor's home and harnesses, the unsaved buffers counting as part of
the work tree; it runs in a process of its own (`workers.comparison`), so it takes the time it
needs without holding up other requests. A revision that is no commit is answered `{"error"}`.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Awaitable, Callable

from lsp_agents.core.agents.session import definitions_result, session_result
from lsp_agents.core.compose import cascade_result, prompt_result, reminders_result
from lsp_agents.core.harnesses import HARNESSES, get_harness
from lsp_agents.core.model import JsonObject
from lsp_agents.git_objects import GitError, recent_revisions, repository_top
from lsp_agents.server import file_facts
from lsp_agents.server.budget import guarded
from lsp_agents.server.server import AgentsLanguageServer  # at run time: pygls resolves the handlers' annotations
from lsp_agents.server.uris import path_of
from lsp_agents.workers.comparison import ComparisonError, ComparisonRequest, run_comparison

log = logging.getLogger(__name__)
EFFECTIVE_PROMPT = "lspAgents.effectivePrompt"
FILE_REMINDERS = "lspAgents.fileReminders"
CASCADE = "lspAgents.cascade"
REINDEX = "lspAgents.reindex"
AGENTS = "lspAgents.agents"
FILE_USES = "lspAgents.fileUses"
SESSION_REMINDERS = "lspAgents.sessionReminders"
DIFF = "lspAgents.diff"
REVISIONS = "lspAgents.revisions"


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
    earlier = [_path(p) for p in options.get("readBefore") or ()]
    return _answer(reminders_result(harness, ls.context(path, _cwd(options)), path, loaded, earlier))


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


def _workspace_directory(ls: AgentsLanguageServer, path: str) -> str:
    """Where `lsp-agents diff` runs for `path`: its workspace folder, else its own folder."""
    folder = ls.folder_for(path)
    return folder.root if folder is not None else path if os.path.isdir(path) else os.path.dirname(path)


async def diff(ls: AgentsLanguageServer, options: JsonObject) -> JsonObject:
    """`lsp-agents diff BASE --format json` in the file's workspace folder, with the unsaved
    buffers; `{"error": why}` when there is no comparison (a bad revision, no git work tree)."""
    path = _path(options["uri"])
    base = options.get("base")
    if not isinstance(base, str) or not base.strip():
        raise BadArguments("base must name a revision")
    settings = ls.settings_for(path)
    harnesses = () if settings.harnesses == "auto" else tuple(settings.harnesses)
    request = ComparisonRequest(_workspace_directory(ls, path), base, harnesses, ls.home(settings), ls.fs.unsaved())
    try:
        compared = await asyncio.to_thread(run_comparison, request, lambda: ls.stopping)
    except ComparisonError as exc:
        return {"error": str(exc)}
    for warning in dict.fromkeys(compared.warnings):
        log.warning("%s: %s", DIFF, warning)
    return compared.answer


async def revisions(ls: AgentsLanguageServer, options: JsonObject) -> JsonObject:
    """What to compare with: HEAD, HEAD~1, the recent branches and tags of the file's repository."""
    directory = _workspace_directory(ls, _path(options["uri"]))

    def listed() -> JsonObject:
        try:
            found = recent_revisions(repository_top(directory))
        except GitError as exc:
            return {"error": str(exc)}
        return {"revisions": [{"name": r.name, "kind": r.kind, "subject": r.subject} for r in found]}

    return await asyncio.to_thread(listed)


def _optional_text(options: JsonObject, key: str) -> str | None:
    value = options.get(key)
    if value is not None and not isinstance(value, str):
        raise BadArguments(f"{key} must be a string")
    return value


Command = Callable[[AgentsLanguageServer, JsonObject], JsonObject]
AsyncCommand = Callable[[AgentsLanguageServer, JsonObject], Awaitable[JsonObject]]


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


def _async_command(name: str, run: AsyncCommand) -> Callable[..., Awaitable[JsonObject | None]]:
    """A command handler that waits on work done elsewhere (a comparison in a process of its own)."""

    async def command(ls: AgentsLanguageServer, *args: object) -> JsonObject | None:
        try:
            return await run(ls, _options(args))
        except ValueError as exc:
            log.error("%s: %s", name, exc)
            return None

    command.__name__ = command.__qualname__ = name
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
    for name, waiting in ((DIFF, diff), (REVISIONS, revisions)):
        server.command(name)(_async_command(name, waiting))

    @server.command(REINDEX)
    @guarded()
    def reindex(ls: AgentsLanguageServer, *args: object) -> JsonObject:
        """Starts the re-analysis and answers at once (with what is known now): on a large
        workspace it takes seconds. `lspAgents/analysisComplete` follows for each folder."""
        if not ls.stopping:
            ls.run_task(ls.reindex())
        return {"folders": len(ls.folders), "instructionFiles": sum(len(f.index.instruction_files) for f in ls.folders.values())}
