"""The agents.md open spec: AGENTS.md only, and "the closest AGENTS.md to the edited file wins".

The spec gives no loading mechanism, so this model makes "closest wins" an ordering, as most
implementations do: at start every AGENTS.md from the repository root (the nearest ancestor holding
`.git`, else the launch directory alone) down to the launch directory, root first, so the closest
comes last; on a read, the AGENTS.md files below the launch directory down to the read file's
directory, again root first. The wrapper is a neutral comment naming each file.
"""

from __future__ import annotations

import os
from collections.abc import Hashable, Sequence

from lsp_agents.core.frontmatter import ParsedFile, admit_files, admitted_shape
from lsp_agents.core.fs import FileData
from lsp_agents.core.harnesses.base import Harness, LaunchContext
from lsp_agents.core.harnesses.spec import HarnessSpec
from lsp_agents.core.model import Block, Cascade, Placement, Role
from lsp_agents.core.walk import ancestors, dirs_below, find_marker_root

NAME = "AGENTS.md"
# Nothing detects it: it is the open spec's reading, not a program anyone runs (enabled by name only).
SPEC = HarnessSpec(
    "agents-md",
    "AGENTS.md (open spec)",
    verified=False,
    version="agents.md efab70c4",
    instruction_names=(NAME,),
    looks_for=(NAME,),
    closest_wins=True,
)


def _render(files: Sequence[ParsedFile]) -> str:
    return "\n\n".join(f"<!-- {NAME}: {f.path} -->\n{f.text}" for f in files)


class AgentsMd(Harness):
    spec = SPEC

    def load_eager(self, ctx: LaunchContext) -> Cascade:
        cascade = Cascade(self.id, ctx.cwd)
        root = find_marker_root(ctx.fs, ctx.cwd, [".git"]) or ctx.cwd
        directories = reversed(ancestors(ctx.cwd, root))
        files = admit_files(ctx.fs, [(os.path.join(d, NAME), Role.PROJECT) for d in directories], cascade)
        if files:
            cascade.blocks.append(Block(Placement.SYSTEM, _render(files)))
        return cascade

    def directory_names(self, ctx: LaunchContext) -> frozenset[str] | None:
        return frozenset({NAME.lower()})

    def content_shape(self, data: FileData) -> Hashable:
        return admitted_shape(data)

    def on_read(self, ctx: LaunchContext, target: str, loaded: Sequence[str] = (), earlier: Sequence[str] = ()) -> Cascade:
        cascade = Cascade(self.id, ctx.cwd)
        already = {os.path.normpath(p) for p in loaded}
        directories = dirs_below(ctx.cwd, os.path.dirname(target))
        files = admit_files(ctx.fs, [(os.path.join(d, NAME), Role.PROJECT) for d in directories], cascade, already)
        if files:
            cascade.blocks.append(Block(Placement.TOOL_RESULT, _render(files)))
        return cascade
