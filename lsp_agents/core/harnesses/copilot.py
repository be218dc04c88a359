"""GitHub Copilot in VS Code, from its documentation: always-on files plus `*.instructions.md` by applyTo.

Every request carries .github/copilot-instructions.md, the root AGENTS.md, the CLAUDE.md family and
each instructions file whose applyTo is `*`, `**` or `**/*`, as attachments, and a listing of every
instructions file and every AGENTS.md in the workspace for the model to read itself: a nested
AGENTS.md is only listed. Another applyTo attaches its file when a file it matches is in the request;
for a read, that is the read file. VS Code makes a relative pattern unanchored (`**/` prefix) and
matches it case-insensitively against the absolute path, whatever the docs say about the root.
The workspace root is the launch directory. No order is documented: this model follows VS Code's
collection order (applying instructions, then copilot-instructions and AGENTS.md, then the listing).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass

from lsp_agents.core.frontmatter import ParsedFile, admit, admit_files, admitted_shape, compile_rule_globs
from lsp_agents.core.fs import FileData
from lsp_agents.core.globs import GlobError
from lsp_agents.core.harnesses import copilot_common
from lsp_agents.core.harnesses.base import Harness, LaunchContext, skipped
from lsp_agents.core.harnesses.copilot_common import COPILOT_INSTRUCTIONS, INSTRUCTIONS_SUFFIX, Instruction, instructions_in
from lsp_agents.core.harnesses.spec import Detection, FolderFiles, GlobStyle, HarnessSpec, Misfiling, RuleHeader, home_folder
from lsp_agents.core.model import Block, Cascade, Placement, Reason, Role
from lsp_agents.core.walk import is_within, workspace_files

SPEC = HarnessSpec(
    "copilot",
    "GitHub Copilot (VS Code)",
    verified=False,
    version="vscode-docs 2026-07",
    home=home_folder(".copilot"),
    global_folders=(home_folder(".claude"),),
    global_files=("CLAUDE.md",),
    global_subfolders=("instructions", "rules"),
    instruction_names=("AGENTS.md", "CLAUDE.md", "CLAUDE.local.md"),
    looks_for=(".github/copilot-instructions.md", ".github/instructions", "AGENTS.md", "CLAUDE.md"),
    rule_files=(*copilot_common.GITHUB_FILES, FolderFiles(".claude/rules", "**/*.md")),
    misplaced=("**/.github/instructions/**/*.md",),  # not `*.instructions.md`: never read (see analysis.placement)
    project_folders=(".github/instructions",),
    detection=Detection(names=(COPILOT_INSTRUCTIONS,), folders_together=(".github", "instructions")),
    root_only=True,
    literal_imports=True,
    rule_header=RuleHeader(
        ".github/instructions",
        ".instructions.md",
        "applyTo",
        GlobStyle.ANYWHERE_IGNORE_CASE,
        never="Copilot attaches this file only to matching files, so it never attaches it",
        misfiling=Misfiling.WRONG_SUFFIX,
        misfiled="Copilot only reads *.instructions.md files in .github/instructions/",
        misfiled_suffix=".md",
        list_ignored="applyTo is a YAML list: Copilot in VS Code reads applyTo only as a string, so it never attaches "
        'this file by itself; write the patterns as one comma-separated string (applyTo: "a, b")',
        without_key="Copilot in VS Code never attaches it by itself: it only lists it, and the model reads it if it decides to",
    ),
)
LISTING_HEADER = (
    "<instructions>\n"
    "The files below hold rules for creating and changing code in this workspace.\n"
    "When one applies to the task and is not attached yet, read it with the read tool before changing code."
)


@dataclass(frozen=True, slots=True)
class _Location:
    """A folder VS Code searches recursively for instructions files, and the header key it reads."""

    directory: str
    suffix: str
    key: str
    default: str | None
    role: Role


def _attachment(file: ParsedFile) -> str:
    text = file.text.strip("\r\n")
    return f'<attachment filePath="{file.path}">\n{text}\n</attachment>'


def _instruction_entry(path: str, description: str | None, apply_to: str | None) -> str:
    lines = ["<instruction>"]
    if description:
        lines.append(f"<description>{description}</description>")
    lines.append(f"<file>{path}</file>")
    if apply_to:
        lines.append(f"<applyTo>{apply_to}</applyTo>")
    return "\n".join([*lines, "</instruction>"])


class Copilot(Harness):
    spec = SPEC

    def _locations(self, ctx: LaunchContext) -> list[_Location]:
        """The default `chat.instructionsFilesLocations`; .claude/rules use Claude's `paths`, default `**`."""
        return [
            _Location(os.path.join(ctx.cwd, ".github", "instructions"), INSTRUCTIONS_SUFFIX, "applyTo", None, Role.RULE),
            _Location(os.path.join(ctx.cwd, ".claude", "rules"), ".md", "paths", "**", Role.RULE),
            _Location(os.path.join(self.home_dir(ctx), "instructions"), INSTRUCTIONS_SUFFIX, "applyTo", None, Role.GLOBAL),
            _Location(ctx.home_path(".claude", "rules"), ".md", "paths", "**", Role.GLOBAL),
        ]

    def _instructions(self, ctx: LaunchContext, cascade: Cascade) -> list[Instruction]:
        found: list[Instruction] = []
        searched: set[str] = set()
        for location in self._locations(ctx):
            if location.directory in searched:  # launched in the home directory
                continue
            searched.add(location.directory)
            # VS Code reads applyTo as a string only: a YAML list is no applyTo.
            found += instructions_in(
                ctx.fs,
                location.directory,
                location.role,
                cascade,
                suffix=location.suffix,
                key=location.key,
                default=location.default,
                string_only=location.key == "applyTo",
            )
        return found

    def _matcher(self, item: Instruction, cascade: Cascade) -> Callable[[str], bool] | None:
        """VS Code's applyTo test on an absolute path: relative patterns get `**/`, case is ignored."""
        prefixed = [p if p.startswith(("/", "**/")) else "**/" + p for p in item.patterns]
        matches = compile_rule_globs(item.file, prefixed, cascade, anchored=True, ignore_case=True)
        return None if matches is None else (lambda path: matches(path.lstrip("/")))

    def _always_on(self, ctx: LaunchContext) -> list[tuple[str, Role]]:
        return [
            (os.path.join(ctx.cwd, ".github", COPILOT_INSTRUCTIONS), Role.PROJECT),
            (os.path.join(ctx.cwd, "AGENTS.md"), Role.PROJECT),
            (os.path.join(ctx.cwd, "CLAUDE.md"), Role.PROJECT),
            (os.path.join(ctx.cwd, ".claude", "CLAUDE.md"), Role.PROJECT),
            (os.path.join(ctx.cwd, "CLAUDE.local.md"), Role.LOCAL),
            (ctx.home_path(".claude", "CLAUDE.md"), Role.GLOBAL),
        ]

    def content_shape(self, data: FileData) -> Hashable | None:
        """Blankness for the files taken whole; anything for instructions files (their `applyTo` and description count)."""
        return None if "/.github/instructions/" in data.path.replace(os.sep, "/") else admitted_shape(data)

    # -- eager ------------------------------------------------------------------------------
    def load_eager(self, ctx: LaunchContext) -> Cascade:
        cascade = Cascade(self.id, ctx.cwd)
        attached: list[ParsedFile] = []
        instructions = self._instructions(ctx, cascade)
        for item in instructions:
            if admit(cascade, item.file, item.role, held_back=self._held_back(item, cascade)):
                attached.append(item.file)
        attached += admit_files(ctx.fs, self._always_on(ctx), cascade)
        entries = [
            _instruction_entry(i.file.path, i.description, ", ".join(i.patterns)) for i in instructions if not i.file.problem
        ]
        entries += [self._agents_md_entry(ctx, path) for path in self._workspace_agents_md(ctx, cascade)]
        parts = [_attachment(f) for f in attached]
        if entries:
            parts.append("\n".join([LISTING_HEADER, *entries, "</instructions>"]))
        if parts:
            cascade.blocks.append(Block(Placement.USER, "\n".join(parts)))
        return cascade

    def _held_back(self, item: Instruction, cascade: Cascade) -> Reason | None:
        """Why an instructions file is not attached to every request, if it is not."""
        if not item.patterns:
            return Reason.LISTED_ONLY  # "not applied automatically", only listed
        if item.always:
            return None
        return Reason.CONDITIONAL if self._matcher(item, cascade) else Reason.GLOB_NOT_EVALUABLE

    def _workspace_agents_md(self, ctx: LaunchContext, cascade: Cascade) -> list[str]:
        """Every AGENTS.md in the workspace, for the listing; the nested ones load only if the model reads them.

        From the workspace index when there is one (kept up to date incrementally); else a walk.
        """
        if ctx.index is not None and ctx.index.contains(ctx.cwd):
            paths: Iterable[str] = sorted(p for p in ctx.index.instruction_files if is_within(p, ctx.cwd))
        else:
            paths, complete = workspace_files(ctx.fs, ctx.cwd)
            if not complete:
                cascade.warnings.append(f"warning: {ctx.cwd}: workspace too large, nested AGENTS.md search cut short")
        # Absolute paths: a file named AGENTS.md is one that ends in a separator and that name.
        found = [p for p in paths if p.endswith(f"{os.sep}AGENTS.md")]
        root = os.path.join(ctx.cwd, "AGENTS.md")
        cascade.files += [skipped(ctx, p, Role.PROJECT, Reason.LISTED_ONLY) for p in found if p != root]
        return found

    @staticmethod
    def _agents_md_entry(ctx: LaunchContext, path: str) -> str:
        folder = os.path.relpath(os.path.dirname(path), ctx.cwd)
        description = "Instructions for the workspace" if folder == "." else f"Instructions for folder '{folder}'"
        return _instruction_entry(path, description, None)

    # -- on read ----------------------------------------------------------------------------
    def on_read(self, ctx: LaunchContext, target: str, loaded: Sequence[str] = (), earlier: Sequence[str] = ()) -> Cascade:
        """The instructions files whose applyTo matches the read file, attached to the next request."""
        cascade = Cascade(self.id, ctx.cwd)
        discovery = Cascade(self.id, ctx.cwd)  # eager reports the files discovery skips
        already = {os.path.normpath(p) for p in loaded}
        attached: list[ParsedFile] = []
        for item in self._instructions(ctx, discovery):
            if item.file.unusable or not item.patterns or item.always:
                continue
            matches = self._matcher(item, discovery)
            if matches is None:
                continue
            try:
                held_back = None if matches(target) else Reason.GLOB_NO_MATCH
            except GlobError:
                held_back = Reason.GLOB_NOT_EVALUABLE
            if admit(cascade, item.file, item.role, already, held_back=held_back):
                attached.append(item.file)
        cascade.warnings += discovery.warnings
        if attached:
            cascade.blocks.append(Block(Placement.USER, "\n".join(_attachment(f) for f in attached)))
        return cascade
