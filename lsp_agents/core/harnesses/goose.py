"""Goose: `.goosehints` and AGENTS.md, the user's and every folder's from the git root down to the
launch directory, with `@file` imports inlined; a subfolder's when the agent touches a file there.

Documented, from its documentation (documentation/docs/guides/context-engineering/using-goosehints.md,
aaif-goose/goose 64a80a8) and its source (aaif-goose/goose d0a2390: `get_context_filenames`,
`load_hint_files_with_state`, `find_git_root`, `get_local_directories`, `load_hints_from_directory`
in crates/goose/src/hints/load_hints.rs; crates/goose/src/hints/import_files.rs;
`SystemPromptBuilder::build` in crates/goose/src/agents/prompt_manager.rs):
- The names: the JSON list in `CONTEXT_FILE_NAMES` (environment, else the config file), else
  `.goosehints` then AGENTS.md (the documentation gives the other order; the code this one). Each
  folder offers each name in that order, spelled exactly.
- The user's: each name in the config folder (`$GOOSE_PATH_ROOT/config` when that is an absolute
  path, else `$XDG_CONFIG_HOME/goose`, default `~/.config/goose`), then `~/.agents/AGENTS.md` when
  AGENTS.md is a name. The project's: every folder from the nearest one holding `.git` down to the
  launch directory, root first; without git the launch directory alone.
- A file goes in untrimmed, Unicode tag characters removed, its `@path` references (after white
  space or at the start; a path with an extension or a slash, or a capitalised name) replaced by
  `--- Content from <path> ---` / `--- End of <path> ---` around the file's text, three levels
  deep, 64 references a file, none in a file over 128 KiB; a reference stays as written when it is
  absolute, names `.git`, leads out of the git root (no git: the launch directory; for the user's
  files their folder), is git-ignored (not for the user's files), missing, or already being
  inlined. A file that comes out empty is left out; past 1 MiB in all, a file is left out whole.
- The user's files under "### Global Hints", the project's under "### Project Hints", joined by
  one line break: the text after "# Additional Instructions:" at the end of the system prompt.
- After the agent reads or edits a file in a folder below the launch directory, the next system
  prompt adds "### Subdirectory Hints (<folder>)" with the names of each folder from below the
  launch directory down to it that are not in the prompt yet.
"""

from __future__ import annotations

import json
import os
from collections.abc import Hashable, Sequence

import re2

from lsp_agents.core.fs import FileData, FileSystem
from lsp_agents.core.git_ignore import git_ignored
from lsp_agents.core.harnesses.base import Harness, LaunchContext, read_candidate
from lsp_agents.core.harnesses.import_inliner import ImportInliner, ImportSite, Refusal
from lsp_agents.core.harnesses.spec import Detection, EnvDir, HarnessSpec
from lsp_agents.core.imports import ImportRef
from lsp_agents.core.model import Block, Candidate, Cascade, Placement, Reason, Role
from lsp_agents.core.walk import dirs_below, find_marker_root, is_within

NAMES = (".goosehints", "AGENTS.md")
GLOBAL_HEADER = "\n### Global Hints\nThese are my global goose hints.\n"
PROJECT_HEADER = "### Project Hints\nThese are hints for working on the project in this directory.\n"
MAX_HINT_BYTES = 1024 * 1024  # all the hints of one prompt
MAX_IMPORT_DEPTH = 3
MAX_REFERENCES = 64  # reference attempts per hint file
MAX_SCANNED = 128 * 1024  # a file longer than this has its references left as written
# `FILE_REFERENCE_REGEX`, matched with RE2 (linear time: workspace text is untrusted).
_REFERENCE = re2.compile(
    r"(?:^|\s)@([a-zA-Z0-9_\-./]+(?:\.[a-zA-Z0-9]+)+|[A-Z][a-zA-Z0-9_\-]*|[a-zA-Z0-9_\-./]*[./][a-zA-Z0-9_\-./]*)"
)
_TAGS = dict.fromkeys(range(0xE0000, 0xE0080))

SPEC = HarnessSpec(
    "goose",
    "Goose",
    verified=False,
    version="goose docs 64a80a8 and source d0a2390 (aaif-goose/goose)",
    home=EnvDir("XDG_CONFIG_HOME", (".config",), ("goose",)),
    global_folders=(EnvDir(None, (".agents",)),),
    global_files=NAMES,
    instruction_names=(".goosehints",),
    looks_for=NAMES,
    own_names=frozenset({".goosehints"}),
    detection=Detection(names=(".goosehints",)),
    literal_imports=True,
)


class Goose(Harness):
    spec = SPEC

    def directory_names(self, ctx: LaunchContext) -> frozenset[str] | None:
        return frozenset(name.lower() for name in self._names(ctx))

    def content_shape(self, data: FileData) -> Hashable | None:
        return None  # its imports and its size count

    def home_dir(self, ctx: LaunchContext) -> str:
        root = ctx.env.get("GOOSE_PATH_ROOT", "")
        return os.path.join(root, "config") if os.path.isabs(root) else super().home_dir(ctx)

    def _names(self, ctx: LaunchContext) -> tuple[str, ...]:
        """`get_context_filenames`: a JSON list of names in `CONTEXT_FILE_NAMES`, else the defaults."""
        try:
            names = json.loads(ctx.env.get("CONTEXT_FILE_NAMES", ""))
        except ValueError:
            return NAMES
        return tuple(names) if isinstance(names, list) and all(isinstance(n, str) for n in names) else NAMES

    def _boundary(self, ctx: LaunchContext) -> tuple[str | None, str]:
        """The git root (None without git) and the folder imports must stay in."""
        git_root = find_marker_root(ctx.fs, ctx.cwd, [".git"])
        return git_root, git_root or ctx.cwd

    def load_eager(self, ctx: LaunchContext) -> Cascade:
        cascade = Cascade(self.id, ctx.cwd)
        names = self._names(ctx)
        hints = _Hints(ctx.fs, cascade)
        root = ctx.env.get("GOOSE_PATH_ROOT", "")
        agents_home = os.path.join(root if os.path.isabs(root) else ctx.home, ".agents")
        user = [os.path.join(self.home_dir(ctx), n) for n in names]
        user += [os.path.join(agents_home, "AGENTS.md")] if "AGENTS.md" in names else []
        user_texts = [t for p in user if (t := hints.add(p, Role.GLOBAL, os.path.dirname(p), None)) is not None]
        git_root, boundary = self._boundary(ctx)
        folders = list(reversed([ctx.cwd, *_parents(ctx.cwd, git_root)])) if git_root else [ctx.cwd]
        project = [os.path.join(d, n) for d in folders for n in names]
        project_texts = [t for p in project if (t := hints.add(p, Role.PROJECT, boundary, git_root)) is not None]
        text = GLOBAL_HEADER + "\n".join(user_texts) if user_texts else ""
        if project_texts:
            text += ("\n\n" if user_texts else "") + PROJECT_HEADER + "\n".join(project_texts)
        if text:
            cascade.blocks.append(Block(Placement.SYSTEM, text))
        return cascade

    def on_read(self, ctx: LaunchContext, target: str, loaded: Sequence[str] = (), earlier: Sequence[str] = ()) -> Cascade:
        cascade = Cascade(self.id, ctx.cwd)
        folder = os.path.dirname(target)
        if folder == ctx.cwd or not is_within(ctx.fs.realpath(folder), ctx.fs.realpath(ctx.cwd)):
            return cascade
        seen = {c.path for c in self.eager(ctx).loaded} | set(loaded)
        seen |= {os.path.join(d, n) for p in earlier for d in _below(ctx, p) for n in self._names(ctx)}
        _git_root, boundary = self._boundary(ctx)
        hints = _Hints(ctx.fs, cascade)
        paths = [os.path.join(d, n) for d in _below(ctx, target) for n in self._names(ctx)]
        texts = [t for p in paths if p not in seen and (t := hints.add(p, Role.PROJECT, boundary, None)) is not None]
        if texts:
            header = f"### Subdirectory Hints ({ctx.fs.realpath(folder)})\n"
            cascade.blocks.append(Block(Placement.SYSTEM, header + "\n".join(texts)))
        return cascade


def _parents(cwd: str, top: str | None) -> list[str]:
    """The folders above `cwd` up to `top` (included), nearest first."""
    found = []
    directory = cwd
    while top is not None and directory != top and os.path.dirname(directory) != directory:
        directory = os.path.dirname(directory)
        found.append(directory)
    return found


def _below(ctx: LaunchContext, path: str) -> list[str]:
    """The folders from below the launch directory down to `path`'s, outermost first."""
    folder = os.path.dirname(path)
    return [] if folder == ctx.cwd or not is_within(folder, ctx.cwd) else dirs_below(ctx.cwd, folder)


class _Hints:
    """The hint files of one prompt, on one byte budget; `add` gives a file's text or None."""

    def __init__(self, fs: FileSystem, cascade: Cascade) -> None:
        self.fs = fs
        self.cascade = cascade
        self.left = MAX_HINT_BYTES
        self.seen: set[str] = set()

    def add(self, path: str, role: Role, boundary: str, git_root: str | None) -> str | None:
        if path in self.seen or not self.fs.is_file(path):
            return None
        self.seen.add(path)
        data = read_candidate(self.fs, self.cascade, path, role)
        if data is None or data.data is None:
            return None
        try:
            text = data.data.decode("utf-8").translate(_TAGS)
        except UnicodeDecodeError:
            self.cascade.files.append(Candidate(path, role, False, data.size, Reason.UNREADABLE))
            return None
        start = len(self.cascade.files)
        text = GooseImports(self.fs, self.cascade, boundary, git_root).expand(text, path) if len(text) <= MAX_SCANNED else text
        size = len(text.encode())
        if not text or size > self.left:
            self.cascade.files.append(
                Candidate(path, role, False, data.size, Reason.EMPTY if not text else Reason.BUDGET_EXHAUSTED)
            )
            return None
        self.left -= size
        self.cascade.files.insert(start, Candidate(path, role, True, data.size))
        return text


class GooseImports(ImportInliner):
    """Goose's `@path` references: inlined in place between "Content from" and "End of" lines."""

    max_depth = MAX_IMPORT_DEPTH

    def __init__(self, fs: FileSystem, cascade: Cascade, boundary: str, git_root: str | None) -> None:
        super().__init__(fs, cascade)
        self.boundary = boundary
        self.git_root = git_root  # the project's .gitignore files filter its imports; None: no filter
        self.attempts = 0

    def refs(self, text: str) -> tuple[ImportRef, ...]:
        refs = []
        for match in _REFERENCE.finditer(text):
            start = match.start(1) - 1
            line = text.count("\n", 0, start)
            refs.append(ImportRef(match.group(1), start, match.end(1), line, start - (text.rfind("\n", 0, start) + 1)))
        return tuple(refs)

    def refuse(self, site: ImportSite) -> Refusal | None:
        self.attempts += 1
        path = site.ref.path
        if self.attempts > MAX_REFERENCES or site.level > self.max_depth or os.path.isabs(path):
            return Refusal(None)
        if any(part.lower() == ".git" for part in path.split("/")):
            return Refusal(None)
        if not is_within(self.fs.realpath(site.target), self.fs.realpath(self.boundary)):
            return Refusal(Reason.IMPORT_OUTSIDE_ROOT)
        if self.git_root is not None and git_ignored(self.fs, self.git_root, site.target, is_dir=False):
            return Refusal(None)
        if not self.fs.is_file(site.target):
            return Refusal(Reason.IMPORT_NOT_FOUND)
        if site.target in site.chain:
            return Refusal(Reason.IMPORT_CYCLE)
        return None

    def wrap(self, site: ImportSite, inner: str) -> str:
        return f"--- Content from {site.ref.path} ---\n{inner.translate(_TAGS)}\n--- End of {site.ref.path} ---"
