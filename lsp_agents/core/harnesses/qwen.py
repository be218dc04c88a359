"""Qwen Code: Gemini CLI's memory files, one name at a time, plus QWEN.local.md and `.qwen/rules`.

For each `context.fileName` (default QWEN.md, then AGENTS.md): the global file in the Qwen
directory ($QWEN_HOME, default ~/.qwen), then that name in every directory from the git root's
*parent* (no git: the home directory's parent) down to cwd. Then the output-language file Qwen
writes for itself, the git root's `.qwen/QWEN.local.md`, and the rules of `~/.qwen/rules` and
`<root>/.qwen/rules` without `paths:`. Files are deduplicated by real path, `@` imports are
inlined as Gemini does, contents trimmed, headers name paths relative to cwd (rules: to the
root). A rule with `paths:` is appended, once per session, to the result of a read it matches.
Nothing below cwd is ever loaded.
"""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

from lsp_agents.core.config_files import get_path, load_jsonc
from lsp_agents.core.frontmatter import loose_fields
from lsp_agents.core.fs import FileData
from lsp_agents.core.globs import GlobError, compile_patterns
from lsp_agents.core.harnesses.base import Harness, LaunchContext, read_candidate, skipped
from lsp_agents.core.harnesses.gemini import SETTINGS_NAME, TRUSTED_FOLDERS, folder_trusted
from lsp_agents.core.harnesses.gemini_imports import QwenImports
from lsp_agents.core.harnesses.spec import ConfigFile, Detection, EnvDir, FolderFiles, HarnessSpec, ImportDialect, Place, Tilde
from lsp_agents.core.imports import qwen_import_refs
from lsp_agents.core.model import Block, Candidate, Cascade, Placement, Reason, Role
from lsp_agents.core.text import js_trim, memoized_by_text, utf16_sort_key
from lsp_agents.core.walk import MAX_WALK_ENTRIES, find_marker_root, is_within
from lsp_agents.core.yaml_text import InvalidYaml, parse_yaml

DEFAULT_NAMES = ("QWEN.md", "AGENTS.md")
LOCAL_NAME = "QWEN.local.md"
OUTPUT_LANGUAGE = "output-language.md"
FOLDER = ".qwen"  # in the home directory (unless QWEN_HOME says otherwise) and in a project

SPEC = HarnessSpec(
    "qwen",
    "Qwen Code",
    verified=True,
    version="0.24.4",
    package="@qwen-code/qwen-code",
    home=EnvDir("QWEN_HOME", (FOLDER,), tilde=Tilde.PREFIX_THEN_ABSOLUTE),
    global_files=(*DEFAULT_NAMES, OUTPUT_LANGUAGE, TRUSTED_FOLDERS),
    global_subfolders=("rules",),
    instruction_names=(*DEFAULT_NAMES, LOCAL_NAME),
    rule_files=(FolderFiles(f"{FOLDER}/rules", "**/*.md"),),
    config_files=(ConfigFile(SETTINGS_NAME, Place.HOME_FOLDER), ConfigFile(f"{FOLDER}/{SETTINGS_NAME}", Place.ROOT)),
    detection=Detection(names=("QWEN.md",), folders=(FOLDER,), own_files=(FOLDER, "QWEN.md")),
    import_dialect=ImportDialect.QWEN,
)
_FRONTMATTER = re.compile(r"^---\n([\s\S]*?)\n---(?:\n|$)([\s\S]*)$")
_COMMENT = re.compile(r"<!--[\s\S]*?-->")


@dataclass(frozen=True, slots=True)
class QwenRule:
    path: str
    content: str
    paths: tuple[str, ...] | None


def _strip_comments(text: str) -> str:
    previous = None
    while previous != text:
        previous, text = text, _COMMENT.sub("", text)
    return text.replace("<!--", "")


@memoized_by_text
def parse_rule(path: str, text: str) -> QwenRule | None:
    """A `.qwen/rules` file: BOM dropped, line ends normalised, frontmatter `paths:` read, HTML
    comments removed, trimmed; None when nothing is left."""
    text = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    paths = None
    match = _FRONTMATTER.match(text)
    if match:
        try:
            fields = parse_yaml(match.group(1))
        except InvalidYaml:
            fields = loose_fields(match.group(1))  # Qwen falls back to a line-by-line reading
        raw = fields.get("paths") if isinstance(fields, dict) else None
        if isinstance(raw, list):
            paths = tuple(str(p) for p in raw if p is not None and str(p)) or None
        elif isinstance(raw, str) and raw:
            paths = (raw,)
        text = match.group(2)
    content = js_trim(_strip_comments(text))
    return QwenRule(path, content, paths) if content else None


class Qwen(Harness):
    spec = SPEC

    def _settings(self, ctx: LaunchContext, cascade: Cascade) -> tuple[tuple[str, ...], bool]:
        """(memory file names, trusted): the workspace settings override the user's."""
        user = load_jsonc(ctx.fs, os.path.join(self.home_dir(ctx), SETTINGS_NAME))
        trusted = folder_trusted(ctx, user.values, os.path.join(self.home_dir(ctx), TRUSTED_FOLDERS))
        layers = [user]
        if trusted and ctx.cwd != ctx.home:
            layers.append(load_jsonc(ctx.fs, os.path.join(ctx.cwd, FOLDER, SETTINGS_NAME)))
        names: tuple[str, ...] = DEFAULT_NAMES
        for layer in layers:
            if layer.warning:
                cascade.warnings.append(layer.warning)
            value = get_path(layer.values, "context.fileName")
            if isinstance(value, str) and value.strip():
                names = (value.strip(),)
            elif isinstance(value, list) and value and all(isinstance(v, str) for v in value):
                names = tuple(v.strip() for v in value)
        return names, trusted

    def root(self, ctx: LaunchContext) -> str | None:
        return find_marker_root(ctx.fs, ctx.cwd, [".git"])

    def looks_for(self, ctx: LaunchContext) -> tuple[str, ...]:
        return (*self._settings(ctx, Cascade(self.id, ctx.cwd))[0], ".qwen/rules")

    def directory_names(self, ctx: LaunchContext) -> frozenset[str] | None:
        """The memory file names, QWEN.local.md and `.qwen` (the launch directory's settings choose the names)."""
        names, _trusted = self._settings(ctx, Cascade(self.id, ctx.cwd))
        return frozenset({FOLDER, LOCAL_NAME.lower(), *(n.lower() for n in names)})

    def content_shape(self, data: FileData) -> Hashable | None:
        """A memory file's `@` imports and blankness; a rule's blankness and `paths:`."""
        if data.problem:
            return data.problem
        text = data.text()
        if "/.qwen/rules/" in data.path.replace(os.sep, "/"):
            rule = parse_rule(data.path, text)
            return ("rule", rule.paths if rule else None, rule is None)
        refs = tuple(ref.path for ref in qwen_import_refs(text))
        return refs, not refs and not js_trim(text)

    # -- eager ------------------------------------------------------------------------------
    def load_eager(self, ctx: LaunchContext) -> Cascade:
        cascade = Cascade(self.id, ctx.cwd)
        names, trusted = self._settings(ctx, cascade)
        root = self.root(ctx)
        parts = [self._element(ctx, path, role, cascade) for path, role in self._memory_paths(ctx, names, trusted, root, cascade)]
        rules, _conditional = self._rules(ctx, root or ctx.cwd, trusted, cascade)
        text = "\n\n".join([p for p in parts if p] + [self._render_rule(r, root or ctx.cwd) for r in rules])
        if text:
            cascade.blocks.append(Block(Placement.SYSTEM, text))
        return cascade

    def _memory_paths(
        self, ctx: LaunchContext, names: Sequence[str], trusted: bool, root: str | None, cascade: Cascade
    ) -> list[tuple[str, Role]]:
        qwen_dir = self.home_dir(ctx)
        found: dict[str, Role] = {}
        for name in names:
            global_path = os.path.join(qwen_dir, name)
            if ctx.fs.exists(global_path):
                found.setdefault(global_path, Role.GLOBAL)
            if ctx.cwd == ctx.home:
                home_path = os.path.join(ctx.home, name)
                if ctx.fs.exists(home_path) and home_path != global_path:
                    found.setdefault(home_path, Role.GLOBAL)
            elif trusted:
                for path in self._upward(ctx, name, root, global_path, cascade):
                    found.setdefault(path, Role.PROJECT)
        language = os.path.join(ctx.cwd, FOLDER, OUTPUT_LANGUAGE)
        if not ctx.fs.exists(language):
            language = os.path.join(qwen_dir, OUTPUT_LANGUAGE)
        if ctx.fs.exists(language):
            found.setdefault(language, Role.GLOBAL)
        if trusted and root:
            local = os.path.join(root, FOLDER, LOCAL_NAME)
            if ctx.fs.exists(local):
                found.setdefault(local, Role.LOCAL)
        unique, seen = [], set()
        for path, role in found.items():
            real = ctx.fs.realpath(path)
            if real in seen:
                cascade.files.append(skipped(ctx, path, role, Reason.DUPLICATE_PATH))
                continue
            seen.add(real)
            unique.append((path, role))
        return unique

    def _upward(self, ctx: LaunchContext, name: str, root: str | None, global_path: str, cascade: Cascade) -> list[str]:
        """`name` in each directory from cwd up to the root's parent (no root: home's parent), root first."""
        stop = os.path.dirname(root) if root else os.path.dirname(ctx.home)
        qwen_dirs = {self.home_dir(ctx), ctx.home_path(FOLDER)}
        found: list[str] = []
        current = ctx.cwd
        while current != os.path.dirname(current) and current not in qwen_dirs:
            path = os.path.join(current, name)
            if ctx.fs.exists(path) and path != global_path:
                found.insert(0, path)
            if current == stop:
                break
            current = os.path.dirname(current)
        return found

    def _element(self, ctx: LaunchContext, path: str, role: Role, cascade: Cascade) -> str | None:
        data = read_candidate(ctx.fs, cascade, path, role)
        if data is None:
            return None
        candidate = Candidate(path, role, True, data.size)
        cascade.files.append(candidate)  # before its imports
        content, imports = ctx.fs.memo(("qwen-expanded", path), lambda: self._expanded(ctx, path, data.text()))
        cascade.files += [Candidate(c.path, c.role, c.loaded, c.bytes, c.reason, related=c.related) for c in imports]
        if not content:
            candidate.loaded, candidate.reason = False, Reason.EMPTY
            return None
        shown = os.path.relpath(path, ctx.cwd)
        return f"--- Context from: {shown} ---\n{content}\n--- End of Context from: {shown} ---"

    def _expanded(self, ctx: LaunchContext, path: str, text: str) -> tuple[str, list[Candidate]]:
        """A file's trimmed text with its imports inlined, and the import candidates met: the
        same from every launch directory, so computed once per file."""
        probe = Cascade(self.id, ctx.cwd)
        directory = os.path.dirname(path)
        project_root = find_marker_root(ctx.fs, directory, [".git"]) or directory
        content = js_trim(QwenImports(ctx.fs, probe, project_root).expand(text, path, chain=frozenset({path})))
        return content, probe.files

    # -- rules ------------------------------------------------------------------------------
    def _rules(self, ctx: LaunchContext, root: str, trusted: bool, cascade: Cascade) -> tuple[list[QwenRule], list[QwenRule]]:
        """(always-on rules, rules with `paths:`), user rules first, each folder in path order."""
        global_dir = os.path.join(self.home_dir(ctx), "rules")
        folders = [(global_dir, Role.GLOBAL)]
        project_dir = os.path.join(root, FOLDER, "rules")
        if trusted and os.path.normpath(project_dir) != os.path.normpath(global_dir):
            folders.append((project_dir, Role.RULE))
        always, conditional = [], []
        for folder, role in folders:
            paths = ctx.fs.memo(("qwen-rule-files", folder), functools.partial(self._sorted_rule_files, ctx, folder))
            for path in paths:
                data = read_candidate(ctx.fs, cascade, path, role)
                if data is None:
                    continue
                rule = parse_rule(path, data.text())
                if rule is None:
                    cascade.files.append(Candidate(path, role, False, data.size, Reason.EMPTY))
                elif rule.paths:
                    conditional.append(rule)
                    cascade.files.append(Candidate(path, role, False, data.size, Reason.CONDITIONAL))
                else:
                    always.append(rule)
                    cascade.files.append(Candidate(path, role, True, data.size))
        return always, conditional

    def _sorted_rule_files(self, ctx: LaunchContext, folder: str) -> list[str]:
        return sorted(self._rule_files(ctx, folder), key=utf16_sort_key)

    def _rule_files(self, ctx: LaunchContext, folder: str, budget: list[int] | None = None) -> list[str]:
        """`*.md` under `folder`, recursively; symlinked files and folders are passed over."""
        budget = [MAX_WALK_ENTRIES] if budget is None else budget
        found = []
        for name in ctx.fs.list_dir(folder):
            budget[0] -= 1
            if budget[0] < 0:
                break
            path = os.path.join(folder, name)
            if ctx.fs.is_link(path):
                continue
            if ctx.fs.is_dir(path):
                found += self._rule_files(ctx, path, budget)
            elif name.endswith(".md") and ctx.fs.is_file(path):
                found.append(path)
        return found

    @staticmethod
    def _render_rule(rule: QwenRule, root: str) -> str:
        shown = os.path.relpath(rule.path, root)
        return f"--- Rule from: {shown} ---\n{rule.content}\n--- End of Rule from: {shown} ---"

    # -- on read ----------------------------------------------------------------------------
    def on_read(self, ctx: LaunchContext, target: str, loaded: Sequence[str] = (), earlier: Sequence[str] = ()) -> Cascade:
        """The rules with `paths:` that match the read file (relative to the root, as read and as
        resolved), each once per session, in a `<system-reminder>` after the read's output."""
        cascade = Cascade(self.id, ctx.cwd)
        _names, trusted = self._settings(ctx, cascade)
        root = self.root(ctx) or ctx.cwd
        _always, conditional = self._rules(ctx, root, trusted, Cascade(self.id, ctx.cwd))
        relatives = [os.path.relpath(target, root)] if is_within(target, root) else []
        real, real_root = ctx.fs.realpath(target), ctx.fs.realpath(root)
        if real != target and is_within(real, real_root) and os.path.relpath(real, real_root) not in relatives:
            relatives.append(os.path.relpath(real, real_root))
        already = set(loaded)
        matched = []
        for rule in conditional:
            size = ctx.fs.size(rule.path)
            if rule.path in already:
                cascade.files.append(Candidate(rule.path, Role.RULE, False, size, Reason.ALREADY_LOADED))
                continue
            try:
                matches = compile_patterns(rule.paths or (), anchored=True)
            except GlobError:
                cascade.files.append(Candidate(rule.path, Role.RULE, False, size, Reason.GLOB_NOT_EVALUABLE))
                continue
            hit = any(matches(r) for r in relatives)
            warning = matches.warning(rule.path)
            if warning:
                cascade.warnings.append(warning)
            cascade.files.append(Candidate(rule.path, Role.RULE, hit, size, None if hit else Reason.GLOB_NO_MATCH))
            if hit:
                matched.append(rule)
        if matched:
            body = "\n\n".join(self._render_rule(r, root) for r in matched)
            cascade.blocks.append(Block(Placement.TOOL_RESULT, f"<system-reminder>\n{body}\n</system-reminder>"))
        return cascade
