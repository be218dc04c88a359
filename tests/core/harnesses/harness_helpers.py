"""Run one harness model directly (`load_eager`, `on_read`) on a small workspace and a home folder
built in a temporary directory, and name what it loaded the way the tables of these tests write
it: workspace paths relative to the workspace, home paths as `~/…`, the folder above the
workspace (no repository holds it) as `../…`."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from workspace_files import write_tree

from lsp_agents.core.fs import FileSystem
from lsp_agents.core.harnesses import HARNESSES, LaunchContext
from lsp_agents.core.model import Cascade, Reason
from lsp_agents.core.settings import HarnessOptions


@dataclass
class Workspace:
    """A workspace `ws` (a git root unless built without) and a home folder `home`."""

    ws: Path
    home: Path

    def context(
        self, cwd: str = "", env: Mapping[str, str] | None = None, options: HarnessOptions | None = None
    ) -> LaunchContext:
        return LaunchContext(
            cwd=str(self.ws / cwd) if cwd else str(self.ws),
            home=str(self.home),
            fs=FileSystem(),
            env={k: v.replace("~", str(self.home)) for k, v in (env or {}).items()},  # `~/x`: in the home folder
            options=options or HarnessOptions(),
        )

    def eager(
        self, harness: str, cwd: str = "", env: Mapping[str, str] | None = None, options: HarnessOptions | None = None
    ) -> Cascade:
        """What `harness` loads at start, launched in `cwd` (relative to the workspace)."""
        return HARNESSES[harness].load_eager(self.context(cwd, env, options))

    def on_read(
        self,
        harness: str,
        target: str,
        cwd: str = "",
        loaded: Sequence[str] = (),
        earlier: Sequence[str] = (),
        env: Mapping[str, str] | None = None,
    ) -> Cascade:
        """What `harness`'s read tool appends when the agent reads `target` (a table's name)."""
        ctx = self.context(cwd, env)
        return HARNESSES[harness].on_read(ctx, self.path(target), [self.path(p) for p in loaded], [self.path(p) for p in earlier])

    def path(self, name: str) -> str:
        """The absolute path of a table's name (`~/…` in the home folder, `../…` above the workspace)."""
        return str(self.home / name[2:]) if name.startswith("~/") else str(self.ws / name)

    def name(self, path: str) -> str:
        """A table's name for an absolute path (`../…` in the folder above the workspace)."""
        for base, prefix in ((self.ws, ""), (self.home, "~/"), (self.ws.parent, "../")):
            if path == str(base) or path.startswith(str(base) + os.sep):
                return prefix + os.path.relpath(path, base)
        return path

    def loaded(self, cascade: Cascade) -> list[str]:
        """The files loaded, in the order the harness sends them."""
        return [self.name(c.path) for c in cascade.files if c.loaded]

    def not_loaded(self, cascade: Cascade) -> dict[str, Reason | None]:
        """Every candidate weighed and not loaded, with its reason."""
        return {self.name(c.path): c.reason for c in cascade.files if not c.loaded}


def text(cascade: Cascade) -> str:
    """Everything the harness sends, its blocks joined."""
    return "\n".join(block.text for block in cascade.blocks)


def build(
    tmp_path: Path, files: Mapping[str, str | bytes], home: Mapping[str, str | bytes] | None = None, *, git: bool = True
) -> Workspace:
    root = tmp_path.resolve()
    workspace = Workspace(root / "ws", root / "home")
    workspace.ws.mkdir()
    workspace.home.mkdir()
    if git:
        (workspace.ws / ".git").mkdir()
    write_tree(workspace.ws, files)
    write_tree(workspace.home, home or {})
    return workspace
