"""A workspace folder as the language server keeps it."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from lsp_agents.core.settings import Settings
from lsp_agents.core.workspace import WorkspaceIndex


@dataclass(eq=False)
class Folder:
    """One workspace folder: its index, its settings, and how far its analysis is.

    `indexed` once discovery is complete (until then harness models walk the tree themselves),
    `analysed` while the worker holds the folder's analysis, `ready` once the first analysis is
    done; `lock` lets one analysis of the folder run at a time.
    """

    uri: str
    root: str
    settings: Settings
    index: WorkspaceIndex
    harnesses: list[str] | None = None  # the harnesses the analysis models, once the worker has the folder
    analysed: bool = False
    indexed: bool = False
    ready: asyncio.Event = field(default_factory=asyncio.Event)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
