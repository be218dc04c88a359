"""pi (pi-coding-agent): one context file per directory, from the filesystem root down to cwd.

Per directory the first of AGENTS.md, AGENTS.MD, CLAUDE.md, CLAUDE.MD that can be read counts
(one that exists but cannot be read, a directory say, passes to the next name). The agent
directory ($PI_CODING_AGENT_DIR, default ~/.pi/agent) offers the global file the same way. Files go
verbatim into the system prompt, empty ones too, under `## <path>`; there is no deduplication
but by path, no import, no size limit, and nothing is added when the agent reads a file.
"""

from __future__ import annotations

from collections.abc import Hashable
from collections.abc import Set as AbstractSet

from lsp_agents.core.fs import FileData
from lsp_agents.core.harnesses.base import Harness, LaunchContext, NameSearch, read_candidate, skipped
from lsp_agents.core.harnesses.spec import Detection, EnvDir, HarnessSpec, Tilde
from lsp_agents.core.model import Block, Candidate, Cascade, Placement, Reason, Role
from lsp_agents.core.walk import ancestors

NAMES = ("AGENTS.md", "AGENTS.MD", "CLAUDE.md", "CLAUDE.MD")
HEADER = "# Project Context\n\nProject-specific instructions and guidelines:\n\n"

SPEC = HarnessSpec(
    "pi",
    "pi",
    verified=True,
    version="0.73.1",
    package="@mariozechner/pi-coding-agent",
    home=EnvDir("PI_CODING_AGENT_DIR", (".pi", "agent"), tilde=Tilde.HOME_OR_HOME_SLASH),
    global_files=NAMES,
    instruction_names=NAMES,
    looks_for=("AGENTS.md", "CLAUDE.md"),
    own_names=frozenset({"AGENTS.md", "AGENTS.MD"}),  # CLAUDE.md is read for compatibility only
    detection=Detection(own_files=(".pi",)),
    literal_imports=True,
)


class Pi(Harness):
    spec = SPEC

    def directory_names(self, ctx: LaunchContext) -> frozenset[str] | None:
        return frozenset(n.lower() for n in NAMES)

    def content_shape(self, data: FileData) -> Hashable:
        """pi takes every readable file whole: only readability counts."""
        return (data.problem,)  # never None: None means "anything may change"

    def load_eager(self, ctx: LaunchContext) -> Cascade:
        cascade = Cascade(self.id, ctx.cwd)
        loaded: list[tuple[str, str]] = []
        global_file = self._directory_file(ctx, self.home_dir(ctx), Role.GLOBAL, cascade)
        if global_file:
            loaded.append(global_file)
        seen = {path for path, _text in loaded}
        for directory in reversed(ancestors(ctx.cwd)):
            found = self._directory_file(ctx, directory, Role.PROJECT, cascade, seen)
            if found:
                seen.add(found[0])
                loaded.append(found)
        if loaded:
            text = HEADER + "".join(f"## {path}\n\n{content}\n\n" for path, content in loaded)
            cascade.blocks.append(Block(Placement.SYSTEM, text))
        return cascade

    def _directory_file(
        self, ctx: LaunchContext, directory: str, role: Role, cascade: Cascade, seen: AbstractSet[str] = frozenset()
    ) -> tuple[str, str] | None:
        """The first name of the directory that exists and reads; the names after it are shadowed."""
        chosen: tuple[str, str] | None = None
        search = NameSearch(ctx, cascade, role)
        for _name, path in search.candidates(directory, NAMES):
            if path in seen:
                cascade.files.append(skipped(ctx, path, role, Reason.DUPLICATE_PATH))
                return None
            data = read_candidate(ctx.fs, cascade, path, role)
            if data is None:
                continue
            cascade.files.append(Candidate(path, role, True, data.size))
            search.taken, chosen = path, (path, data.text())
        return chosen
