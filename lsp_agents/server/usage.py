"""Who loads an instruction file: per harness and launch directory, at start, on a read, or not
(and why, and what shadows it), and which files it shadows. Hover and code lens both show it.

The harness models answer every question: the file is looked up among the candidates of the
eager load from a launch directory, and of a read of a file next to it.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import TYPE_CHECKING

from lsp_agents.core.analysis.globs import rule_type
from lsp_agents.core.harnesses import HARNESSES
from lsp_agents.core.model import Candidate
from lsp_agents.core.walk import is_within

if TYPE_CHECKING:
    from lsp_agents.server.server import AgentsLanguageServer

_PROBE = "__lsp_agents_probe__"  # a file the agent reads "next to" the instruction file


@dataclass(frozen=True, slots=True)
class Use:
    harness: str
    cwd: str
    when: str | None  # "at start" | "on read" | None (considered, not loaded)
    reason: str | None = None
    related: str | None = None


@dataclass(frozen=True, slots=True)
class Shadow:
    harness: str
    cwd: str
    path: str
    reason: str


def owner_directory(path: str) -> str:
    """The directory an instruction file speaks for: a rule's is the one holding .claude/rules etc."""
    typed = rule_type(path)
    if typed:
        return typed[1]
    directory = os.path.dirname(path)
    return os.path.dirname(directory) if os.path.basename(directory) == ".claude" else directory  # .claude/CLAUDE.md


def launch_directories(ls: AgentsLanguageServer, path: str) -> list[str]:
    """Where a harness started could load this file: the configured launch directory, the file's
    own directory (eagerly there) and the workspace root (on a read, for nested files)."""
    folder = ls.folder_for(path)
    chosen = [ls.launch_directory(path), owner_directory(path), *([folder.root] if folder else [])]
    return list(dict.fromkeys(ls.fs.realpath(d) for d in chosen))


def _match(candidates: list[Candidate], path: str) -> Candidate | None:
    return next((c for c in candidates if c.path == path), None)


def uses(ls: AgentsLanguageServer, path: str, harness_ids: list[str], cwds: list[str]) -> tuple[list[Use], list[Shadow]]:
    found: list[Use] = []
    shadows: list[Shadow] = []
    probe = os.path.join(owner_directory(path), _PROBE)
    contexts = {cwd: ls.context(path, cwd) for cwd in cwds}
    for harness_id in harness_ids:
        harness = HARNESSES[harness_id]
        for cwd, ctx in contexts.items():
            eager = harness.eager(ctx)
            read = harness.on_read(ctx, probe) if is_within(probe, cwd) else None
            candidates = eager.files + (read.files if read else [])
            shadows += [Shadow(harness_id, cwd, c.path, str(c.reason)) for c in candidates
                        if c.related == path and not c.loaded and c.reason]
            if _match(eager.loaded, path) is not None:
                found.append(Use(harness_id, cwd, "at start"))
            elif read is not None and _match(read.loaded, path) is not None:
                found.append(Use(harness_id, cwd, "on read"))
            elif (miss := _match(candidates, path)) is not None:
                found.append(Use(harness_id, cwd, None, str(miss.reason), miss.related))
    return found, shadows
