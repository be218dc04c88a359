"""What the front end and the worker process send each other (pickled through a pipe).

Requests go one at a time and each gets one final reply, `("done", value)` or
`("failed", text)`; before it the worker may send `("starting", item)` as it begins each step
and `("progress", what, done, total)`.
"""

from __future__ import annotations

import pickle
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Generic, Literal, TypeVar

from lsp_agents.core.analysis import Item
from lsp_agents.core.analysis.cascades import Unit
from lsp_agents.core.disk import Summary
from lsp_agents.core.model import Finding
from lsp_agents.core.positions import Located
from lsp_agents.core.settings import Settings
from lsp_agents.core.workspace import IndexSnapshot


@dataclass(frozen=True)
class FolderSpec:
    """Everything the analysis of one workspace folder starts from."""

    snapshot: IndexSnapshot
    settings: Settings
    home: str
    env: Mapping[str, str]

    @property
    def root(self) -> str:
        return self.snapshot.root


@dataclass(frozen=True)
class Open:
    spec: FolderSpec
    stopped: Mapping[Item, str] = field(default_factory=dict)  # steps not to evaluate, and why
    journal: bool = False  # note every disk call, for the outcomes to carry (`check`'s cache)
    # Paths created, changed or deleted since the snapshot (a worker started again learns them anew).
    updated: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Close:
    root: str


@dataclass(frozen=True)
class Overlays:
    """Unsaved buffers (text) and buffers closed (None): they override the files on disk."""

    texts: Mapping[str, str | None]


@dataclass(frozen=True)
class Early:
    root: str
    encoding: str | None  # the editor's position encoding, or None for the core's spans only


@dataclass(frozen=True)
class AnalyseAll:
    root: str
    encoding: str | None
    workers: int = 1  # processes sharing the work


@dataclass(frozen=True)
class AnalysePaths:
    root: str
    paths: frozenset[str]  # created, changed (on disk or in an editor buffer) or deleted
    encoding: str | None


Request = Open | Close | Overlays | Early | AnalyseAll | AnalysePaths


@dataclass(frozen=True)
class Opened:
    harnesses: list[str]  # the harnesses analysed (detected, or as configured)
    warnings: list[str]


# What an outcome holds per file: `Located` when the request gave an encoding, plain `Finding`s without.
FindingT = TypeVar("FindingT", Located, Finding)


@dataclass(frozen=True)
class Outcome(Generic[FindingT]):
    """Findings per file. `complete`: every file of the folder with findings is in it (a full
    analysis), so files missing have none."""

    findings: Mapping[str, list[FindingT]]
    warnings: list[str]
    complete: bool
    journal: Mapping[str, Summary] | None = None  # the disk calls made so far, when `Open` asked


# The worker's messages while it answers a request, and its final reply.
Step = str | tuple[str, str]  # an analysis step as sent: a file's path, or a unit's harness and cwd
Starting = tuple[Literal["starting"], Step]
StepProgress = tuple[Literal["progress"], str, int, int]
Done = tuple[Literal["done"], object]  # the request's answer: None, Opened or Outcome
Failed = tuple[Literal["failed"], str]  # the worker's traceback
Reply = Done | Failed
Message = Starting | StepProgress | Reply


def starting(item: Item) -> bytes:
    """The message that a step starts, pickled as plain strings by `pickle` itself: it is sent
    before every step, and multiprocessing's pickler of a dataclass costs several times more.
    `Connection.recv` reads it like any message."""
    step: Step = item if isinstance(item, str) else (item.harness, item.cwd)
    message: Starting = ("starting", step)
    return pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)


def started(step: Step) -> Item:
    """The step a `starting` message names."""
    return step if isinstance(step, str) else Unit(*step)
