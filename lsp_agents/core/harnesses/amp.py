"""Amp (Sourcegraph's coding agent), from its manual: AGENTS.md from cwd up to the home directory,
the user's, a subtree's when the agent reads a file there, and the files they `@`-mention.

Documented, from the Amp Owner's Manual, section "AGENTS.md" (ampcode.com/manual#AGENTS.md, as
published in 2026; its parts "Mentioning Files" and "Granular Guidance"):
- Amp includes the AGENTS.md of the launch directory and of its parent directories up to the
  home directory; the AGENTS.md of a subtree when it reads a file there; and both
  `~/.config/amp/AGENTS.md` and `~/.config/AGENTS.md` when they exist. Where a directory has no
  AGENTS.md, its AGENT.md, else its CLAUDE.md, is included instead.
- An AGENTS.md `@`-mentions other files to include them: a path relative to the AGENTS.md, an
  absolute one or `~/…`, or a glob (`@doc/*.md`, `@specs/**/*.md`).
- A mentioned file whose front matter has `globs` is included only once Amp has read a file they
  match; a glob is taken as `**/<glob>` unless it starts with `./` or `../`, then relative to the
  mentioned file.
Assumed where the manual is silent: the walk includes the home directory itself, and outside the
home directory goes up to `/`; the user's files come first, `~/.config/amp` before `~/.config`
(named exactly, not moved by `XDG_CONFIG_HOME`), then the directories outermost first; a mention
is found where Claude Code finds an import (Markdown text, not code), its path ended at quotes
and trailing punctuation as the Copilot CLI ends it (`See @doc/style.md, …`), is followed one level (a
mentioned file's own mentions are not), and its file comes right after the file mentioning it,
front matter left out, the mention left as written; glob mentions match in path order; a file
met twice (a symlink, a second mention) is sent once; the wrapper, not published, is a neutral
`<instructions path="…">` element per file; what a read adds comes with the tool result.
Nothing detects Amp: it has no file of its own, only AGENTS.md (enabled by name).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Hashable, Sequence
from dataclasses import replace

from lsp_agents.core.frontmatter import ParsedFile, compile_rule_globs, parse_file, pattern_list
from lsp_agents.core.fs import FileData
from lsp_agents.core.globs import GlobError, scan
from lsp_agents.core.harnesses.base import Harness, LaunchContext, skipped
from lsp_agents.core.harnesses.import_inliner import ImportInliner, ImportSite, Refusal
from lsp_agents.core.harnesses.rule_modes import admit_once, tagged
from lsp_agents.core.harnesses.spec import Detection, HarnessSpec, ImportDialect, home_folder
from lsp_agents.core.imports import ImportRef, copilot_import_refs
from lsp_agents.core.model import Block, Cascade, Placement, Reason, Role
from lsp_agents.core.walk import ancestors, dirs_below, is_within

NAMES = ("AGENTS.md", "AGENT.md", "CLAUDE.md")  # per directory, the first that exists
USER_FILES = ((".config", "amp", "AGENTS.md"), (".config", "AGENTS.md"))
GLOBS_KEY = "globs"
_GLOB_CHARS = frozenset("*?[{")

SPEC = HarnessSpec(
    "amp",
    "Amp",
    verified=False,
    version="ampcode.com/manual#AGENTS.md 2026",
    home=home_folder(".config", "amp"),
    global_files=("AGENTS.md",),
    instruction_names=NAMES,
    looks_for=NAMES,
    own_names=frozenset({"AGENTS.md", "AGENT.md"}),  # CLAUDE.md is read for compatibility only
    detection=Detection(),  # AGENTS.md alone says nothing of Amp: enabled by name only
    import_dialect=ImportDialect.COPILOT,
)


class Amp(Harness):
    spec = SPEC

    def directory_names(self, ctx: LaunchContext) -> frozenset[str] | None:
        return frozenset(name.lower() for name in NAMES)

    def content_shape(self, data: FileData) -> Hashable | None:
        return None  # its mentions count

    def load_eager(self, ctx: LaunchContext) -> Cascade:
        cascade = Cascade(self.id, ctx.cwd)
        sent: set[str] = set()
        mentions = AmpMentions(ctx, cascade, sent, read=None)
        entries = [(ctx.home_path(*parts), Role.GLOBAL) for parts in USER_FILES]
        top = ctx.home if is_within(ctx.cwd, ctx.home) else None
        entries += [(p, Role.PROJECT) for d in reversed(ancestors(ctx.cwd, top)) if (p := self._first(ctx, cascade, d))]
        files = [
            (f.path, f.body.strip("\r\n")) for path, role in entries for f in self._admit(ctx, cascade, mentions, path, role)
        ]
        if files:
            cascade.blocks.append(Block(Placement.SYSTEM, tagged("instructions", files)))
        return cascade

    def on_read(self, ctx: LaunchContext, target: str, loaded: Sequence[str] = (), earlier: Sequence[str] = ()) -> Cascade:
        cascade = Cascade(self.id, ctx.cwd)
        eager = self.eager(ctx)
        before = [c.path for c in eager.loaded] + list(loaded)
        sent = {ctx.fs.realpath(p) for p in before}
        files: list[tuple[str, str]] = []
        # Mentions gated by `globs` in the files already in context, now that `target` is read.
        gated = AmpMentions(ctx, cascade, sent, read=target, gated_only=True)
        for path in dict.fromkeys(p for p in before if os.path.basename(p) in NAMES):
            file = parse_file(ctx.fs, path, frontmatter=False)
            if not file.problem:
                gated.expand(file.text, path)
        files += gated.files
        folder = os.path.dirname(target)
        below = dirs_below(ctx.cwd, folder) if folder != ctx.cwd and is_within(folder, ctx.cwd) else []
        mentions = AmpMentions(ctx, cascade, sent, read=target)
        for directory in below:
            first = self._first(ctx, cascade, directory)
            if first is None or first == target:
                continue
            if ctx.fs.realpath(first) in sent:
                cascade.files.append(skipped(ctx, first, Role.PROJECT, Reason.ALREADY_LOADED))
                continue
            files += [(f.path, f.body.strip("\r\n")) for f in self._admit(ctx, cascade, mentions, first, Role.PROJECT)]
        if files:
            cascade.blocks.append(Block(Placement.TOOL_RESULT, tagged("instructions", files)))
        return cascade

    def _first(self, ctx: LaunchContext, cascade: Cascade, directory: str) -> str | None:
        """The directory's AGENTS.md, else AGENT.md, else CLAUDE.md; the others are passed over."""
        found = [p for name in NAMES if ctx.fs.exists(p := os.path.join(directory, name))]
        cascade.files += [skipped(ctx, p, Role.PROJECT, Reason.NAME_SHADOWED, found[0]) for p in found[1:]]
        return found[0] if found else None

    def _admit(self, ctx: LaunchContext, cascade: Cascade, mentions: AmpMentions, path: str, role: Role) -> list[ParsedFile]:
        """The file (when it exists and is taken) followed by the files it mentions."""
        if not ctx.fs.exists(path):
            return []
        file = parse_file(ctx.fs, path, frontmatter=False)
        if not admit_once(ctx, cascade, file, role, mentions.sent):
            return []
        start = len(mentions.files)
        mentions.expand(file.text, path)
        return [file, *(replace(file, path=p, body=body) for p, body in mentions.files[start:])]


class AmpMentions(ImportInliner):
    """Amp's `@` mentions: each file taken after the one mentioning it, the mention left as written."""

    max_depth = 1

    def __init__(
        self, ctx: LaunchContext, cascade: Cascade, sent: set[str], *, read: str | None, gated_only: bool = False
    ) -> None:
        super().__init__(ctx.fs, cascade)
        self.ctx = ctx
        self.sent = sent  # real paths sent so far
        self.read = read  # the file the agent read (None at start)
        self.gated_only = gated_only  # only the files a read brings: those with `globs`
        self.files: list[tuple[str, str]] = []  # (path, text) of the mentioned files taken
        self.importer = ""
        self.parsed: dict[str, ParsedFile] = {}

    def expand(self, text: str, importer: str, *, level: int = 0, chain: frozenset[str] = frozenset()) -> str:
        self.importer = importer
        return super().expand(text, importer, level=level, chain=chain)

    def refs(self, text: str) -> tuple[ImportRef, ...]:
        """Copilot-style mentions, a glob one standing for each file it matches (bounded scan)."""
        found: list[ImportRef] = []
        for ref in copilot_import_refs(text):
            if not _GLOB_CHARS.intersection(ref.path):
                found.append(ref)
                continue
            pattern = self._absolute(ref.path, self.importer)
            base = _static_prefix(pattern)
            try:
                matches = scan(self.fs, base, os.path.relpath(pattern, base).replace(os.sep, "/"))
            except GlobError as exc:
                self.cascade.warnings.append(f"warning: {self.importer}: mention @{ref.path} not evaluated: {exc}")
                continue
            found += [replace(ref, path=match) for match in sorted(matches)]
        return tuple(found)

    def target(self, ref: ImportRef, importer: str) -> str:
        return os.path.normpath(self._absolute(ref.path, importer))

    def _absolute(self, path: str, importer: str) -> str:
        if path.startswith("~/"):
            return self.ctx.home_path(path[2:])
        return path if os.path.isabs(path) else os.path.join(os.path.dirname(importer), path)

    def refuse(self, site: ImportSite) -> Refusal | None:
        if not self.fs.is_file(site.target):
            return Refusal(None if self.gated_only else Reason.IMPORT_NOT_FOUND)
        if site.target not in self.parsed:
            self.parsed[site.target] = parse_file(self.fs, site.target)
        file = self.parsed[site.target]
        globs = pattern_list(file.fields.get(GLOBS_KEY))
        if self.gated_only and not globs:
            return Refusal(None)  # sent at start already
        if self.fs.realpath(site.target) in self.sent:
            return Refusal(Reason.ALREADY_LOADED if self.read else Reason.DUPLICATE_PATH)
        if globs:
            matches = _gate(file, globs, self.cascade)
            if matches is None:
                return Refusal(Reason.GLOB_NOT_EVALUABLE)
            if self.read is None:
                return Refusal(Reason.CONDITIONAL)
            if not matches(self.read):
                return Refusal(None if self.gated_only else Reason.GLOB_NO_MATCH)
        if file.unusable:
            return Refusal(file.unusable)
        return None

    def load(self, site: ImportSite) -> str | None:
        file = self.parsed[site.target]
        self.record(site, None, file.size)
        self.sent.add(self.fs.realpath(site.target))
        self.files.append((site.target, file.body.strip("\r\n")))
        return None

    def place(self, text: str, placed: Sequence[tuple[ImportRef, str | None]]) -> str:
        return text  # the mentions stay as written; their files follow the mentioning one


def _static_prefix(pattern: str) -> str:
    """The folders of an absolute glob before its first glob character."""
    parts = pattern.split(os.sep)
    static = []
    for part in parts[:-1]:
        if _GLOB_CHARS.intersection(part):
            break
        static.append(part)
    return os.sep.join(static) or os.sep


def _gate(file: ParsedFile, globs: list[str], cascade: Cascade) -> Callable[[str], bool] | None:
    """Whether a read file matches a mentioned file's `globs`: `**/<glob>` against the whole path,
    a `./` or `../` glob relative to the mentioned file's folder; None when not evaluable."""
    folder = os.path.dirname(file.path)
    tests: list[Callable[[str], bool]] = []
    anywhere = [f"**/{g}" for g in globs if not g.startswith(("./", "../"))]
    if anywhere:
        matcher = compile_rule_globs(file, anywhere, cascade, anchored=True)
        if matcher is None:
            return None
        tests.append(_anywhere(matcher))
    for glob in (g for g in globs if g.startswith(("./", "../"))):
        base, rest = _relative_base(folder, glob)
        matcher = compile_rule_globs(file, [rest], cascade, anchored=True)
        if matcher is None:
            return None
        tests.append(_below(matcher, base))

    def matches(path: str) -> bool:
        try:
            return any(test(path) for test in tests)
        except GlobError:
            return False

    return matches


def _anywhere(matcher: Callable[[str], bool]) -> Callable[[str], bool]:
    return lambda path: matcher(path.lstrip(os.sep).replace(os.sep, "/"))


def _below(matcher: Callable[[str], bool], base: str) -> Callable[[str], bool]:
    return lambda path: is_within(path, base) and matcher(os.path.relpath(path, base).replace(os.sep, "/"))


def _relative_base(folder: str, glob: str) -> tuple[str, str]:
    """A `./` or `../` glob as the folder it starts from and the pattern below it."""
    parts = glob.split("/")
    while parts and parts[0] in (".", ".."):
        if parts.pop(0) == "..":
            folder = os.path.dirname(folder)
    return folder, "/".join(parts)
