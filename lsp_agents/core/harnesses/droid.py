"""Factory droid: CLAUDE.md and AGENTS.md of every directory from cwd up to the git root, then
the user's CLAUDE.md and AGENTS.md of ~/.factory, then of ~/.agents (conformance golden
droid-global-both). `$FACTORY_HOME_OVERRIDE` takes the home directory's place for both folders (and
the skills, commands and droids, and the settings file `/statusline` names), the files still shown as `~/…` (`E3()`: `FACTORY_HOME_OVERRIDE ??
HOME`, the config's `homeDir`; GD-93; an empty value, which droid takes as it is, is not modelled).

Nearest directory first; per directory CLAUDE.md (exact case) then AGENTS.md (any case of
`agents`, `.md` in lower case: `Agents.md` counts, `AGENTS.MD` does not; with several,
`AGENTS.md` eagerly, or the first other one when AGENTS.md is a symlink, and all of them on read). No git root: cwd only. A symlinked file is never
taken; eagerly neither is a file reached through a symlinked directory, on read only the files
of a directory that is itself a symlink are passed over (a symlink also hides the file it points
to, when that file comes after it). Each file is sent with its trailing white space cut, as
`% cat <path>` over a `<coding_guidelines>` block, in one user message. On read, the files not
sent yet of the directories below the git root (no git: below cwd) down to the read file's
follow the tool result in a `<system-reminder>`, outermost first (conformance golden
droid-read-walk); a file whose real path was sent before, at the start or on an earlier read (through a
linked folder too), is not sent again (`loadedGuidelinePaths`; droid-read-linked-twice). The same reminder announces the skills found along that walk (`Ie`, after the
files: "New skills discovered along the accessed paths"; see `DroidDefinitions.read_skills`).

Follows droid 0.225.1 (`@factory/cli`; before, the `droid` package): its captures of every
conformance scenario give the same text as 0.215.0's (tests/conformance/FINDINGS.md, section 10).
"""

from __future__ import annotations

import os
from collections.abc import Hashable, Sequence

from lsp_agents.core.fs import FileData
from lsp_agents.core.harnesses.base import Harness, LaunchContext, read_candidate
from lsp_agents.core.harnesses.spec import Detection, EnvDir, HarnessSpec
from lsp_agents.core.model import Block, Candidate, Cascade, Placement, Reason, Role
from lsp_agents.core.text import js_trim_end
from lsp_agents.core.walk import ancestors, dirs_below, find_marker_root

HEADER = (
    "# Codebase and user instructions are shown below. Instructions from files closest to your current "
    "directory take precedence over those further up the hierarchy.\n"
)
PERSONAL = (".factory", ".agents")  # the home folders whose PERSONAL_NAMES are sent, in this order
PERSONAL_NAMES = ("CLAUDE.md", "AGENTS.md")
HOME_ENV = "FACTORY_HOME_OVERRIDE"
SPEC = HarnessSpec(
    "droid",
    "Factory droid",
    verified=True,
    version="0.225.1",
    package="@factory/cli",  # the same `droid` binary; published as `droid` up to 0.215.0
    former_packages=("droid",),
    home=EnvDir(HOME_ENV, (), below=(PERSONAL[0],)),
    global_folders=(EnvDir(HOME_ENV, (), below=(PERSONAL[1],)),),
    global_files=PERSONAL_NAMES,
    instruction_names=("CLAUDE.md", "AGENTS.md"),  # `agents` in any case
    looks_for=("CLAUDE.md", "AGENTS.md"),
    detection=Detection(own_files=(PERSONAL[0],)),
    literal_imports=True,
)
READ_FILES = "Additional project instructions discovered along the accessed paths:"  # `$h`
READ_HEADER = f"<system-reminder>\n{READ_FILES}\n\n"
READ_SKILLS_HEADER = "New skills discovered along the accessed paths and now available via the Skill tool:"  # `ZT`


def factory_home(ctx: LaunchContext) -> str:
    """droid's home directory: `$FACTORY_HOME_OVERRIDE`, else the user's."""
    return ctx.env.get(HOME_ENV) or ctx.home


def _guidelines(content: str) -> str:
    return f"<coding_guidelines>\n{js_trim_end(content)}\n</coding_guidelines>"


def _agents_names(names: Sequence[str]) -> list[str]:
    return sorted(n for n in names if n.endswith(".md") and n[:-3].lower() == "agents")


class Droid(Harness):
    spec = SPEC

    def directory_names(self, ctx: LaunchContext) -> frozenset[str] | None:
        return frozenset({"claude.md", "agents.md"})

    def content_shape(self, data: FileData) -> Hashable:
        """droid sends every readable file whole, empty ones too."""
        return (data.problem,)  # never None: None means "anything may change"

    def _direct(self, ctx: LaunchContext, path: str, base: str | None = None) -> bool:
        """A regular file reached from `base` (the physical cwd's chain by default) without any
        symlink: droid passes over the others."""
        if not ctx.fs.is_file(path):
            return False
        expected = path if base is None else os.path.join(ctx.fs.realpath(base), os.path.relpath(path, base))
        return ctx.fs.realpath(path) == expected

    def _directory_files(self, ctx: LaunchContext, directory: str, *, all_agents: bool) -> list[str]:
        """The directory's CLAUDE.md and AGENTS.md names that exist, symlinks included."""
        names = ctx.fs.list_dir(directory)
        agents = _agents_names(names)
        if not all_agents and agents:  # the first one droid would take: a symlinked AGENTS.md gives way
            direct = [n for n in agents if self._direct(ctx, os.path.join(directory, n))]
            agents = ["AGENTS.md"] if "AGENTS.md" in direct else direct[:1]
        candidates = (["CLAUDE.md"] if "CLAUDE.md" in names else []) + agents
        return [os.path.join(directory, n) for n in candidates]

    def _read(self, ctx: LaunchContext, path: str, role: Role, cascade: Cascade) -> str | None:
        data = read_candidate(ctx.fs, cascade, path, role)
        if data is None:
            return None
        cascade.files.append(Candidate(path, role, True, data.size))
        return data.text()

    def load_eager(self, ctx: LaunchContext) -> Cascade:
        cascade = Cascade(self.id, ctx.cwd)
        root = find_marker_root(ctx.fs, ctx.cwd, [".git"])
        project = []
        for directory in ancestors(ctx.cwd, root) if root else [ctx.cwd]:
            for path in self._directory_files(ctx, directory, all_agents=False):
                if not self._direct(ctx, path):
                    continue
                content = self._read(ctx, path, Role.PROJECT, cascade)
                if content is not None:
                    project.append(f"% cat {path}\n{_guidelines(content)}")
        personal = []
        for parts in ((folder, name) for folder in PERSONAL for name in PERSONAL_NAMES):
            path = os.path.join(factory_home(ctx), *parts)
            if self._direct(ctx, path, factory_home(ctx)):
                content = self._read(ctx, path, Role.GLOBAL, cascade)
                if content is not None:
                    personal.append(f"% cat ~/{'/'.join(parts)}\n{_guidelines(content)}")
        if project or personal:
            text = HEADER
            if project:
                text += "## Project Instructions:\n" + "\n\n".join(project) + "\n"
            if personal:
                text += "\n## Personal Global Instructions:\n" + "\n\n".join(personal)
            cascade.blocks.append(Block(Placement.USER, text.rstrip("\n")))
        return cascade

    def on_read(self, ctx: LaunchContext, target: str, loaded: Sequence[str] = (), earlier: Sequence[str] = ()) -> Cascade:
        cascade = Cascade(self.id, ctx.cwd)
        # `loadedGuidelinePaths`: the real paths of the files sent, at the start and on earlier reads.
        already = {ctx.fs.realpath(path) for path in [*(c.path for c in self.eager(ctx).loaded), *loaded]}
        sections = []
        seen: set[str] = set()
        # The walk starts below the git root (no git: below cwd), not below cwd: a file beside or
        # above cwd brings its folders' files, and an ancestor's second `agents` spelling comes on
        # read; the git root's own folder never does (droid-read-walk).
        for directory in self._read_dirs(ctx, target):
            if ctx.fs.is_link(directory):
                continue  # a symlinked folder's own files are passed over, those of the folders under it are not
            for path in self._directory_files(ctx, directory, all_agents=True):
                # On read droid keeps the first path to each real file, then drops symlinked ones:
                # a CLAUDE.md symlinked to the AGENTS.md beside it silences both.
                real = ctx.fs.realpath(path)
                if real in seen or ctx.fs.is_link(path) or not ctx.fs.is_file(path):
                    seen.add(real)
                    continue
                seen.add(real)
                if real in already:
                    cascade.files.append(Candidate(path, Role.PROJECT, False, ctx.fs.size(path), Reason.ALREADY_LOADED))
                    continue
                content = self._read(ctx, path, Role.PROJECT, cascade)
                if content is not None:
                    sections.append(f"## {path}\n{_guidelines(content)}")
        # `Ie`: the files under their header, then the skills under theirs, every part a paragraph.
        from lsp_agents.core.agents.droid import DroidDefinitions  # the definitions import this module

        skills = DroidDefinitions().read_skills(ctx, self._read_dirs(ctx, target), [self._read_dirs(ctx, p) for p in earlier])
        parts = ([READ_FILES, *sections] if sections else []) + ([READ_SKILLS_HEADER, *skills] if skills else [])
        if parts:
            cascade.blocks.append(Block(Placement.USER, "<system-reminder>\n" + "\n\n".join(parts) + "\n</system-reminder>"))
        return cascade

    def _read_dirs(self, ctx: LaunchContext, target: str) -> list[str]:
        """`getIntermediateDirectories`: the folders a read walks, outermost first."""
        root = find_marker_root(ctx.fs, ctx.cwd, [".git"]) or ctx.cwd
        return dirs_below(root, os.path.dirname(target))
