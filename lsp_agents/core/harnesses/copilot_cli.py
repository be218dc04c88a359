"""GitHub Copilot CLI: copilot-instructions, AGENTS.md, CLAUDE.md and GEMINI.md of the repository
root and of cwd's directories below it, plus `*.instructions.md` by `applyTo`.

The repository root is the git root (no git: cwd). In order: `$COPILOT_HOME/copilot-instructions.md`
(default ~/.copilot), then for the root and then each directory from cwd up to the root (nearest
first) its `.github/copilot-instructions.md`, AGENTS.md, CLAUDE.md, GEMINI.md (cwd's own
`.github/copilot-instructions.md` right after the root's; names matched
without regard to case; a spelling that is no file, a dangling link, gives way to another), each
text once (a copy or a link is dropped unless its imports make it another text), in
`<custom_instruction>` blocks; `@` imports of copilot-instructions.md, AGENTS.md and CLAUDE.md
(from the file's folder; inside the root, the user's file inside $COPILOT_HOME) are inlined right
after the path. Then the instructions files of `$COPILOT_HOME/instructions` and
of the `.github/instructions` of the root and of cwd (not of the directories between) that apply
always (every `applyTo` pattern `**`, `**/*` or `*`, or none), raw, and a table of the others,
cwd's named from cwd. A pattern matches as in .gitignore: one without a slash at any depth.
On read: the listed instructions files (and those earlier reads found) whose `applyTo` matches
the file, then for each directory
from the file's up to the nearest one that holds cwd, its named files and its
`.github/instructions` files that apply always or match, HTML-escaped in `<system_reminder>`
blocks of a user message.
"""

from __future__ import annotations

import os
import re
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field, replace

from lsp_agents.core.frontmatter import pattern_list
from lsp_agents.core.fs import FileData
from lsp_agents.core.globs import GlobError, compile_patterns
from lsp_agents.core.harnesses import copilot_common
from lsp_agents.core.harnesses.base import Harness, LaunchContext, read_candidate
from lsp_agents.core.harnesses.copilot_common import (
    ALWAYS_PATTERNS,
    COPILOT_INSTRUCTIONS,
    INSTRUCTIONS_SUFFIX,
    Instruction,
    instructions_in,
)
from lsp_agents.core.harnesses.copilot_imports import CopilotImports
from lsp_agents.core.harnesses.spec import Detection, EnvDir, HarnessSpec, ImportDialect
from lsp_agents.core.imports import copilot_import_refs
from lsp_agents.core.model import Block, Candidate, Cascade, Placement, Reason, Role
from lsp_agents.core.walk import dirs_below, find_marker_root, is_within

NAMES = ("AGENTS.md", "CLAUDE.md", "GEMINI.md")
# The files whose `@` imports are inlined (not GEMINI.md); copilot-instructions.md imports from its
# own folder, .github or $COPILOT_HOME (copilot-cli-github-imports).
IMPORTING = frozenset({"agents.md", "claude.md", COPILOT_INSTRUCTIONS})
EXCLUDED_AGENT = "coding-agent"  # `excludeAgent: coding-agent` keeps a file from the CLI
TABLE_HEADER = (
    "Here is a list of instruction files that contain rules for modifying or creating new code.\n"
    "These files are important for ensuring that the code is modified or created correctly.\n"
    "Please make sure to follow the rules specified in these files when working with the codebase.\n"
    "If you have not already read the file, use the `view` tool to acquire it.\n"
    "Make sure to acquire the instructions before making any changes to the code.\n"
    "| Pattern | File Path | Description |\n"
    "| ------- | --------- | ----------- |"
)
NESTED_TABLE_HEADER = (
    "Here is a list of nested AGENTS.md files that contain additional agent instructions.\n"
    "These files provide context-specific instructions for different parts of the codebase.\n"
    "Please make sure to follow the rules specified in these files when working with the relevant areas.\n"
    "If you have not already read the file, use the `view` tool to acquire it.\n"
    "Make sure to acquire the instructions before making any changes to the code in those areas.\n"
    "| Directory | File Path | Description |\n"
    "| --------- | --------- | ----------- |"
)

SPEC = HarnessSpec(
    "copilot-cli",
    "GitHub Copilot CLI",
    verified=True,
    version="1.0.102",
    package="@github/copilot",
    home=EnvDir("COPILOT_HOME", (".copilot",)),
    global_files=(COPILOT_INSTRUCTIONS,),
    global_subfolders=("instructions",),
    instruction_names=NAMES,  # in any case
    looks_for=(".github/copilot-instructions.md", *NAMES, ".github/instructions"),
    rule_files=copilot_common.GITHUB_FILES,
    project_folders=(".github/instructions",),
    # Its own folder only: Copilot's files (copilot-instructions.md) are read by the editor and by
    # code review as well, no sign that the command-line agent is in use.
    detection=Detection(own_files=(".copilot",)),
    import_dialect=ImportDialect.COPILOT,
)
# What the CLI's loader takes from a header YAML rejects (`applyTo: **/*.ts`, an alias to YAML). The
# loader is native code, not JavaScript: prebuilds/linux-x64/runtime.node of the unpacked package, a
# stripped Rust library whose panic paths name src/runtime/src/prompts/instructions_discovery.rs and
# repo_instruction_discovery.rs. Only its strings can be read: among them these three expressions (the
# header, its `applyTo` line, a trailing comment). Captured (copilot-cli-applyto-yaml-alias,
# copilot-cli-applyto-fallback): the value's quotes go, `description` and `excludeAgent` are lost with
# the YAML; a header YAML reads is read as YAML (lists and all).
_HEADER = re.compile(r"^---[ \t]*\n(.*?)\n---", re.S)
_APPLY_TO_LINE = re.compile(r"^applyTo:[ \t]+(.*)", re.M)
_TRAILING_COMMENT = re.compile(r"\s+#.*$")
XML_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;"})


@dataclass
class _Session:
    """What one load has sent so far: paths as given and real paths (a read compares both)."""

    sent: set[str] = field(default_factory=set)


class CopilotCli(Harness):
    spec = SPEC

    def custom_dirs(self, ctx: LaunchContext) -> list[str]:
        """$COPILOT_CUSTOM_INSTRUCTIONS_DIRS: more folders whose instructions files count and
        whose AGENTS.md is listed (not sent)."""
        value = ctx.env.get("COPILOT_CUSTOM_INSTRUCTIONS_DIRS", "")
        parts = [p.strip() for chunk in value.split(",") for p in chunk.split(os.pathsep)]
        return [os.path.join(ctx.cwd, p) if not os.path.isabs(p) else p for p in parts if p]

    def root(self, ctx: LaunchContext) -> str:
        return find_marker_root(ctx.fs, ctx.cwd, [".git"]) or ctx.cwd

    def _directories(self, ctx: LaunchContext, root: str) -> list[str]:
        """The root, then cwd and its parents below the root, nearest first."""
        chain = [d for d in ancestors_below(ctx.cwd, root)]
        return [root, *chain]

    @staticmethod
    def _instruction_directories(ctx: LaunchContext, root: str) -> list[str]:
        """The directories whose `.github/instructions` count at start: the root and cwd, not the
        directories between (the loader's sources `repo-copilot` and `cwd-copilot`; captured:
        copilot-cli-nested-instructions)."""
        return [root] if ctx.cwd == root else [root, ctx.cwd]

    def directory_names(self, ctx: LaunchContext) -> frozenset[str] | None:
        return frozenset({".github", *(n.lower() for n in NAMES)})

    def content_shape(self, data: FileData) -> Hashable | None:
        """An instructions file's header (it decides inlined, listed or dropped); the imports of
        AGENTS.md and CLAUDE.md; nothing of the other files (sent whole, even empty)."""
        if data.problem:
            return data.problem
        if data.path.endswith(INSTRUCTIONS_SUFFIX):
            return None
        if os.path.basename(data.path).lower() in IMPORTING:
            return tuple(ref.path for ref in copilot_import_refs(data.text(strip_bom=True)))
        return ()

    # -- files ------------------------------------------------------------------------------
    def _named(self, ctx: LaunchContext, directory: str) -> list[str]:
        """The directory's copilot-instructions.md and instruction files, names in any case
        (the exact name first, else the first spelling in code-point order; a spelling that is no
        file, such as a dangling link, is passed over: copilot-cli-dangling-agents-case); once per change."""
        return ctx.fs.memo(("copilot-cli-named", directory), lambda: self._find_named(ctx, directory))

    def _find_named(self, ctx: LaunchContext, directory: str) -> list[str]:
        found = []
        github = os.path.join(directory, ".github", COPILOT_INSTRUCTIONS)
        if ctx.fs.is_file(github):
            found.append(github)
        listing = ctx.fs.list_dir(directory)
        for name in NAMES:
            spellings = sorted(n for n in listing if n.lower() == name.lower())
            files = [n for n in spellings if ctx.fs.is_file(os.path.join(directory, n))]
            chosen = name if name in files else (files[0] if files else None)
            if chosen:
                found.append(os.path.join(directory, chosen))
        return found

    def _instructions(self, ctx: LaunchContext, root: str, cascade: Cascade) -> list[Instruction]:
        """The instructions files read at start: the user's, the root's and cwd's, the custom folders'."""
        found = self._instructions_in(ctx, os.path.join(self.home_dir(ctx), "instructions"), Role.GLOBAL, cascade)
        for directory in [*self._instruction_directories(ctx, root), *self.custom_dirs(ctx)]:
            found += self._instructions_in(ctx, os.path.join(directory, ".github", "instructions"), Role.RULE, cascade)
        return found

    def _instructions_in(self, ctx: LaunchContext, folder: str, role: Role, cascade: Cascade) -> list[Instruction]:
        """A folder's usable instructions files (`excludeAgent: coding-agent` dropped), once per
        change; what discovery recorded (ignored files, warnings) is replayed into `cascade`."""

        def discover() -> tuple[list[Instruction], Cascade]:
            probe = Cascade(self.id, folder)
            found = [_with_fallback_patterns(i) for i in instructions_in(ctx.fs, folder, role, probe)]
            return [i for i in found if i.file.fields.get("excludeAgent") != EXCLUDED_AGENT and not i.file.problem], probe

        found, probe = ctx.fs.memo(("copilot-cli-instructions", folder, role), discover)
        cascade.files += [Candidate(c.path, c.role, c.loaded, c.bytes, c.reason, related=c.related) for c in probe.files]
        cascade.warnings += probe.warnings
        return list(found)

    @staticmethod
    def _always(item: Instruction) -> bool:
        """No pattern, or only patterns that match everything: `["src/**", "**"]` and `"**, src/**"`
        are listed in the table, `["*", "**"]` and `"**/*"` sent whole (copilot-cli-applyto-always)."""
        return all(p in ALWAYS_PATTERNS for p in item.patterns)

    def _body(self, ctx: LaunchContext, path: str, cascade: Cascade, role: Role) -> str | None:
        data = read_candidate(ctx.fs, cascade, path, role)
        if data is None:
            return None
        cascade.files.append(Candidate(path, role, True, data.size))
        text = data.text(strip_bom=True)
        if os.path.basename(path).lower() in IMPORTING:
            root = self.root(ctx)
            boundary = root if is_within(path, root) else self.home_dir(ctx)  # the user's file: inside $COPILOT_HOME
            text = CopilotImports(ctx.fs, cascade, boundary, path).expand(text, path)
        return text

    # -- eager ------------------------------------------------------------------------------
    def _eager_paths(self, ctx: LaunchContext, root: str) -> list[str]:
        """The root's named files, with cwd's own `.github/copilot-instructions.md` right after the
        root's (the loader's `cwd-copilot` source, as for `.github/instructions`), then those of cwd
        and its parents below the root, nearest first (captured: copilot-cli-nested-copilot-instructions)."""
        root_files, *below = [self._named(ctx, d) for d in self._directories(ctx, root)]
        cwd_copilot = os.path.join(ctx.cwd, ".github", COPILOT_INSTRUCTIONS)
        if ctx.cwd == root or not ctx.fs.is_file(cwd_copilot):
            return [*root_files, *(p for files in below for p in files)]
        at = 1 if root_files and root_files[0] == os.path.join(root, ".github", COPILOT_INSTRUCTIONS) else 0
        return [*root_files[:at], cwd_copilot, *root_files[at:], *(p for files in below for p in files if p != cwd_copilot)]

    def load_eager(self, ctx: LaunchContext) -> Cascade:
        cascade = Cascade(self.id, ctx.cwd)
        root = self.root(ctx)
        paths = [os.path.join(self.home_dir(ctx), COPILOT_INSTRUCTIONS), *self._eager_paths(ctx, root)]
        parts: list[str] = []
        sent: dict[str, str] = {}  # text as sent -> the path that sent it
        for path in paths:
            if not ctx.fs.is_file(path):
                continue
            role = Role.GLOBAL if not is_within(path, root) else Role.PROJECT
            probe = Cascade(self.id, ctx.cwd)
            body = self._body(ctx, path, probe, role)
            if body in sent:
                # Once per text as sent, imports inlined: a copy is dropped, and so is a link to a
                # file already sent, unless its imports, found from the link's folder, make it
                # another text (copilot-cli-duplicate-text).
                cascade.files.append(Candidate(path, role, False, ctx.fs.size(path), Reason.DUPLICATE_PATH, related=sent[body]))
                continue
            cascade.files += probe.files
            if body is not None:
                sent[body] = path
                parts.append(f"<custom_instruction>\n{body}\n</custom_instruction>")
        rows = []
        for item in self._instructions(ctx, root, cascade):
            if self._always(item):
                cascade.files.append(Candidate(item.file.path, item.role, True, item.file.size))
                parts.append(item.file.text.removeprefix("\ufeff"))
            else:
                cascade.files.append(Candidate(item.file.path, item.role, False, item.file.size, Reason.CONDITIONAL))
                shown = self._shown_instruction(ctx, item.file.path, root)
                rows.append(f"| {', '.join(item.patterns)} | '{shown}' | {item.description or ''} |")
        if rows:
            parts.append("\n".join([TABLE_HEADER, *rows]))
        nested = self._nested_rows(ctx, root, cascade)
        if nested:
            parts.append("\n".join([NESTED_TABLE_HEADER, *nested]))
        if parts:
            cascade.blocks.append(Block(Placement.SYSTEM, "\n\n".join(parts)))
        return cascade

    def _nested_rows(self, ctx: LaunchContext, root: str, cascade: Cascade) -> list[str]:
        rows = []
        for directory in self.custom_dirs(ctx):
            path = os.path.join(directory, "AGENTS.md")
            if ctx.fs.is_file(path):
                cascade.files.append(Candidate(path, Role.PROJECT, False, ctx.fs.size(path), Reason.LISTED_ONLY))
                folder = self._shown(directory, root)
                rows.append(f"| {folder}/ | '{self._shown(path, root)}' | Agent instructions for {folder}/**/* |")
        return rows

    @staticmethod
    def _shown(path: str, root: str) -> str:
        return os.path.relpath(path, root) if is_within(path, root) else path

    def _shown_instruction(self, ctx: LaunchContext, path: str, root: str) -> str:
        """An instructions file as the table and the reminders name it: cwd's own from cwd
        ('.github/instructions/x.instructions.md' at cwd packages/api), the others from the root."""
        own = os.path.join(ctx.cwd, ".github", "instructions")
        return self._shown(path, ctx.cwd if is_within(path, own) else root)

    # -- on read ----------------------------------------------------------------------------
    def on_read(self, ctx: LaunchContext, target: str, loaded: Sequence[str] = (), earlier: Sequence[str] = ()) -> Cascade:
        cascade = Cascade(self.id, ctx.cwd)
        root = self.root(ctx)
        eager = self.eager(ctx)
        # A read skips a file the eager load sent under the same path, and any file a read sent
        # (compared by real path); it names a file by its real path and reads it there (imports from its folder).
        eager_paths = {c.path for c in eager.loaded}
        sent = {ctx.fs.realpath(p) for p in loaded}
        relative = os.path.relpath(target, root).replace(os.sep, "/") if is_within(target, root) else None
        reminders: list[str] = []
        for item in self._known_instructions(ctx, root, earlier):
            if not self._always(item) and relative is not None and self._matches(item, relative):
                self._remind(ctx, item.file.path, item.role, root, (eager_paths, sent), reminders, cascade, text=item.file.text)
        # The folders are walked from where a linked folder leads; `applyTo` is matched with the path as read (seed 9510).
        for directory in self._read_directories(ctx, root, ctx.fs.realpath(target)):
            for path in self._named(ctx, directory):
                self._remind(ctx, path, Role.PROJECT, root, (eager_paths, sent), reminders, cascade)
            for item in self._instructions_in(
                ctx, os.path.join(directory, ".github", "instructions"), Role.RULE, Cascade(self.id, ctx.cwd)
            ):
                if self._always(item) or (relative is not None and self._matches(item, relative)):
                    self._remind(
                        ctx, item.file.path, item.role, root, (eager_paths, sent), reminders, cascade, text=item.file.text
                    )
        if reminders:
            cascade.blocks.append(Block(Placement.USER, "\n" + "\n".join(reminders)))
        return cascade

    def _known_instructions(self, ctx: LaunchContext, root: str, earlier: Sequence[str]) -> list[Instruction]:
        """The instructions files the CLI knows of when a read comes: those read at start, then
        those the `earlier` reads found in the `.github/instructions` of the folders they walked,
        in that order. A read sends the ones whose `applyTo` matches before it walks its own
        folders: a `*.md` file met on a read of packages/api/util.ts is sent on a later read of
        other/notes.md (copilot-cli-read-known-instructions)."""
        known = self._instructions(ctx, root, Cascade(self.id, ctx.cwd))
        for read in earlier:
            for directory in self._read_directories(ctx, root, read):
                folder = os.path.join(directory, ".github", "instructions")
                known += self._instructions_in(ctx, folder, Role.RULE, Cascade(self.id, ctx.cwd))
        return list({item.file.path: item for item in known}.values())  # once each, where first found

    @staticmethod
    def _read_directories(ctx: LaunchContext, root: str, target: str) -> list[str]:
        """The directories a read adds files of: from the file's up to, not including, the nearest
        one that holds cwd, nearest first (cwd other, a read of packages/api/src/x.ts: src, api,
        packages; cwd packages/api/src: nothing above it). Captured (copilot-cli-nested-instructions
        and a probe of v1.0.102); the loader's code is native, see _HEADER."""
        folder = os.path.dirname(target)
        if not is_within(folder, root):
            return []
        return list(reversed(dirs_below(os.path.commonpath([ctx.cwd, folder]), folder)))

    @staticmethod
    def _matches(item: Instruction, relative: str) -> bool:
        """As .gitignore matches the path from the root: `*.md` and `guide.md` at any depth,
        `sub/*.md` and `docs/**/*.md` from the root only (copilot-cli-applyto-always)."""
        try:
            return compile_patterns(item.patterns, anchored=False)(relative)
        except GlobError:
            return False

    def _remind(
        self,
        ctx: LaunchContext,
        path: str,
        role: Role,
        root: str,
        sent: tuple[set[str], set[str]],
        reminders: list[str],
        cascade: Cascade,
        text: str | None = None,
    ) -> None:
        """Add the reminder for `path` unless it was sent (see `sent` in on_read) or is blank."""
        eager_paths, read_reals = sent
        real = ctx.fs.realpath(path)
        if path in eager_paths or real in read_reals:
            cascade.files.append(Candidate(path, role, False, ctx.fs.size(path), Reason.ALREADY_LOADED))
            return
        read_reals.add(real)
        if text is None:
            probe = Cascade(self.id, ctx.cwd)
            text = self._body(ctx, real, probe, role)  # read where it lives: imports from the real folder
            if text is None or not text.strip():
                cascade.files.append(Candidate(path, role, False, ctx.fs.size(path), probe.files[0].reason or Reason.EMPTY))
                return
            cascade.files += probe.files
        else:
            cascade.files.append(Candidate(path, role, True, ctx.fs.size(path)))
        shown = self._shown_instruction(ctx, real, root)
        escaped = text.removeprefix("\ufeff").translate(XML_ESCAPES)
        reminders.append(
            f"<system_reminder>\nCustom instructions from {shown}. Apply these to any code you write here:\n\n{escaped}\n</system_reminder>"
        )


def ancestors_below(cwd: str, root: str) -> list[str]:
    """cwd and its parents strictly below `root`, nearest first (none when cwd is the root)."""
    return list(reversed(dirs_below(root, cwd)))


def _with_fallback_patterns(item: Instruction) -> Instruction:
    """`item` with the `applyTo` the CLI reads line by line when YAML rejected the header (see _HEADER)."""
    if item.file.error is None:
        return item
    header = _HEADER.match(item.file.text.removeprefix("\ufeff"))
    line = _APPLY_TO_LINE.search(header.group(1)) if header else None
    if line is None:
        return item
    value = _TRAILING_COMMENT.sub("", line.group(1)).strip()
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        value = value[1:-1]
    return replace(item, patterns=tuple(pattern_list(value)))
