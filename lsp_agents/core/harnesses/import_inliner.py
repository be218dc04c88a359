"""The one walk over `@path` imports that every harness family shares, parameterised by its dialect.

A dialect is a subclass: its fields (`max_depth`, `strip_bom`, `sized_refusals`) and a few named
hooks (`refs`, `target`, `refuse`, `load`, `unreadable`, `wrap`, `place`) say where the families differ.

| | Gemini / Qwen (gemini_imports) | Copilot CLI (copilot_imports) | Claude Code (claude_memory) |
| --- | --- | --- | --- |
| an import | outside backtick regions / Markdown code | in Markdown text | in Markdown text, frontmatter aside |
| relative to | the importer's folder | the importer's folder | the importer's real folder, `~/` the home |
| depth | 5 | 8 | 4 |
| cycle | on the current import chain | inlined already into the instruction file | loaded already in the session |
| outside | the project root: refused | the repository root: refused | the launch directory: needs approval |
| in the prompt | inlined in place, failures as comments | inlined after the import's line | each import a memory file of its own |

The walk: each reference is resolved (`target`), weighed by the dialect's checks in its order
(`refuse`), else read and recorded as a candidate, its own imports walked (`load`); what stands in
the prompt for each reference is placed by `place`.
"""

from __future__ import annotations

import os
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from lsp_agents.core.fs import FileData, FileSystem
from lsp_agents.core.imports import ImportRef
from lsp_agents.core.model import Candidate, Cascade, Reason, Role


@dataclass(frozen=True, slots=True)
class ImportSite:
    """One reference where it stands: what it names (`target`), who names it (`importer`), how
    many imports deep it is (`level`, 1 for the top file's own) and the files above it (`chain`)."""

    ref: ImportRef
    target: str
    importer: str
    level: int
    chain: frozenset[str]


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why a reference is not followed (None: silently, no candidate) and what the prompt holds in
    its place (None: the reference as written)."""

    reason: Reason | None
    text: str | None = None


class ImportInliner(ABC):
    """Walks a file's imports, records every one as a candidate and returns the prompt text."""

    max_depth: ClassVar[int]  # how many imports deep a file may be
    strip_bom: ClassVar[bool] = False  # whether an imported file's byte-order mark goes (Bun decodes so)
    sized_refusals: ClassVar[bool] = True  # a refused import's candidate carries its size (Gemini's: 0)

    def __init__(self, fs: FileSystem, cascade: Cascade) -> None:
        self.fs = fs
        self.cascade = cascade

    def expand(self, text: str, importer: str, *, level: int = 0, chain: frozenset[str] = frozenset()) -> str:
        """`text` (of `importer`, `level` imports deep below the top file) with its imports placed."""
        placed: list[tuple[ImportRef, str | None]] = []
        for ref in self.refs(text):
            site = ImportSite(ref, self.target(ref, importer), importer, level + 1, chain)
            refusal = self.refuse(site)
            if refusal is None:
                placed.append((ref, self.load(site)))
                continue
            if refusal.reason is not None:
                self.record(site, refusal.reason, self.fs.size(site.target) if self.sized_refusals else 0)
            placed.append((ref, refusal.text))
        return self.place(text, placed)

    @abstractmethod
    def refs(self, text: str) -> tuple[ImportRef, ...]:
        """What counts as an import in `text` (code spans and the like are the finder's business)."""

    def target(self, ref: ImportRef, importer: str) -> str:
        return os.path.normpath(os.path.join(os.path.dirname(importer), ref.path))

    @abstractmethod
    def refuse(self, site: ImportSite) -> Refusal | None:
        """The dialect's checks, in its order: the first that refuses the import, else None."""

    def too_deep(self, site: ImportSite) -> Refusal | None:
        return Refusal(Reason.IMPORT_TOO_DEEP) if site.level > self.max_depth else None

    def load(self, site: ImportSite) -> str | None:
        """Read the import, record it, walk its own imports; what the prompt holds for it."""
        data = self.fs.read(site.target)
        if data.problem:
            return self.unreadable(site, data)
        self.record(site, None, data.size)
        inner = self.expand(data.text(strip_bom=self.strip_bom), site.target, level=site.level, chain=site.chain | {site.target})
        return self.wrap(site, inner)

    def unreadable(self, site: ImportSite, data: FileData) -> str | None:
        self.record(site, data.problem, data.size)
        return None

    def wrap(self, site: ImportSite, inner: str) -> str:
        """How a loaded import's expanded text stands in the prompt."""
        return inner

    def place(self, text: str, placed: Sequence[tuple[ImportRef, str | None]]) -> str:
        """`text` with what stands for each reference put where the dialect puts it: by default
        in place of the reference (kept as written where nothing stands for it)."""
        pieces: list[str] = []
        last = 0
        for ref, replacement in placed:
            pieces += [text[last : ref.start], text[ref.start : ref.end] if replacement is None else replacement]
            last = ref.end
        pieces.append(text[last:])
        return "".join(pieces)

    def record(self, site: ImportSite, reason: Reason | None, size: int) -> None:
        self.cascade.files.append(Candidate(site.target, Role.IMPORT, reason is None, size, reason, related=site.importer))
