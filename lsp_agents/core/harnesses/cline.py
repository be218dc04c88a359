"""Cline CLI: the launch directory's `.clinerules` and AGENTS.md, and the user's rule folders.

Rules come from `cwd/.clinerules` (a folder: its own `.md`, `.markdown` and `.txt` files and an
AGENTS.md in it, no subfolders and no symlinked files; or a single file), `cwd/AGENTS.md`
("Workspace AGENTS.md"), `~/.agents/AGENTS.md` ("Global AGENTS.md") and the folders
`~/.cline/rules`, `~/Documents/Cline/Rules`, `~/Cline/Rules`. Nothing above cwd. A rule's
frontmatter is dropped (`name:` renames it, `disabled: true` / `enabled: false` turn it off) and
its body trimmed; blank rules are skipped. Of two rules of a name in one folder the one listed last
(`readdir`, unsorted) wins (`loadDefinition`, `bZ` in @cline/core). The rules are sorted by name under `# Rules` in the
system prompt. Nothing is added when the agent reads a file.
"""

from __future__ import annotations

import os
import re
import unicodedata
from collections.abc import Hashable
from dataclasses import dataclass

from lsp_agents.core.fs import FileData
from lsp_agents.core.harnesses.base import Harness, LaunchContext, read_candidate
from lsp_agents.core.harnesses.spec import Detection, FolderFiles, HarnessSpec, home_folder
from lsp_agents.core.model import Block, Candidate, Cascade, Placement, Reason, Role
from lsp_agents.core.text import js_trim
from lsp_agents.core.yaml_text import InvalidYaml, parse_yaml

RULE_EXTENSIONS = (".md", ".markdown", ".txt")
AGENTS = "AGENTS.md"
RULES = ".clinerules"  # a folder of rules in cwd, or a single rule file
USER_RULE_FOLDERS = ((".cline", "rules"), ("Documents", "Cline", "Rules"), ("Cline", "Rules"))
GLOBAL_AGENTS = (".agents", AGENTS)

SPEC = HarnessSpec(
    "cline",
    "Cline CLI",
    verified=True,
    version="3.0.65",
    package="cline",
    home=home_folder(USER_RULE_FOLDERS[0][0]),
    global_folders=(*(home_folder(*parts) for parts in USER_RULE_FOLDERS[1:]), home_folder(GLOBAL_AGENTS[0])),
    global_files=(AGENTS,),
    global_subfolders=("rules", "Rules"),
    instruction_names=(AGENTS, RULES),
    looks_for=(".clinerules", "AGENTS.md"),
    rule_files=(FolderFiles(RULES, "*"),),
    # Not the files in its subfolders: the Cline CLI reads none, the Cline extension all but
    # workflows/, hooks/ and skills/.
    excluded=(f"**/{RULES}/*/**",),
    detection=Detection(names=(RULES,), folders=(RULES,), own_files=(RULES, ".cline", "Documents/Cline", "Cline/Rules")),
    literal_imports=True,
)
_FRONTMATTER = re.compile(r"^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$")


@dataclass(frozen=True, slots=True)
class _Rule:
    name: str
    body: str


# ASCII punctuation and symbols in the order of the Unicode collation (CLDR root), which
# JavaScript's `localeCompare` follows: `a_b` < `a-b` < `a.b` < … < `a$b` < `a0` < `ab`.
_PUNCTUATION_ORDER = "_-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$"


def locale_key(name: str) -> tuple[tuple[tuple[int, int, str], ...], str]:
    """An approximation of `localeCompare`: white space, then punctuation and symbols, then
    digits, then letters, case-insensitively; lower case first on a tie."""

    def rank(char: str) -> tuple[int, int, str]:
        if char.isspace():
            return 0, 0, char
        position = _PUNCTUATION_ORDER.find(char)
        if position >= 0:
            return 1, position, char
        category = unicodedata.category(char)
        group = 3 if category == "Nd" else 4 if category.startswith("L") else 2
        return group, 0, char.casefold()

    return tuple(rank(c) for c in name), name.swapcase()


def parse_rule(text: str, default_name: str) -> _Rule | Reason:
    """A rule as Cline reads it, or why Cline skips the file: its frontmatter is not YAML, it is
    disabled, or nothing is left of it."""
    text = text.removeprefix("\ufeff")
    match = _FRONTMATTER.match(text)
    fields: dict[object, object] = {}
    body = text
    if match:
        try:
            loaded = parse_yaml(match.group(1))
        except InvalidYaml:
            return Reason.INVALID_HEADER
        fields = loaded if isinstance(loaded, dict) else {}
        body = match.group(2)
    body = js_trim(body)
    if fields.get("disabled") is True or (fields.get("disabled") is None and fields.get("enabled") is False):
        return Reason.DISABLED
    name = fields.get("name")
    name = js_trim(name) if isinstance(name, str) and js_trim(name) else js_trim(default_name)
    return _Rule(name, body) if body and name else Reason.EMPTY


class Cline(Harness):
    spec = SPEC

    reads_above_launch_directory = False

    def directory_names(self, ctx: LaunchContext) -> frozenset[str] | None:
        return frozenset({RULES, AGENTS.lower()})

    def content_shape(self, data: FileData) -> Hashable | None:
        """Whether a rule loads and the name it goes by (which decides the winner of a name)."""
        if data.problem:
            return data.problem
        rule = parse_rule(data.text(), os.path.basename(data.path))
        return rule.name.casefold() if isinstance(rule, _Rule) else None

    def _sources(self, ctx: LaunchContext) -> list[tuple[str, Role]]:
        """Rule folders and single rule files, user ones first (the output is sorted anyway)."""
        return [
            *((ctx.home_path(*parts), Role.GLOBAL) for parts in (*USER_RULE_FOLDERS, GLOBAL_AGENTS)),
            (os.path.join(ctx.cwd, RULES), Role.RULE),
            (os.path.join(ctx.cwd, AGENTS), Role.PROJECT),
        ]

    def _files(self, ctx: LaunchContext, source: str) -> list[str]:
        """A file source as it is; a folder's regular rule files (symlinks are not followed),
        then its AGENTS.md if the listing did not hold one."""
        if ctx.fs.is_file(source):
            return [source]
        if not ctx.fs.is_dir(source):
            return []
        found = []
        for name in ctx.fs.list_dir(source):
            path = os.path.join(source, name)
            if name.lower().endswith(RULE_EXTENSIONS) and not ctx.fs.is_link(path) and ctx.fs.is_file(path):
                found.append(path)
        agents = os.path.join(source, AGENTS)
        if agents not in found and ctx.fs.is_file(agents):
            found.append(agents)
        return found

    def _default_name(self, ctx: LaunchContext, path: str) -> str:
        base = os.path.basename(path)
        if base.lower() == AGENTS.lower():
            if path == os.path.join(ctx.cwd, AGENTS):
                return "Workspace AGENTS.md"
            if path == ctx.home_path(".agents", AGENTS):
                return "Global AGENTS.md"
        stem, extension = os.path.splitext(base)
        return stem if extension else base

    def load_eager(self, ctx: LaunchContext) -> Cascade:
        cascade = Cascade(self.id, ctx.cwd)
        rules: list[_Rule] = []
        names: dict[str, str] = {}
        for source, role in self._sources(ctx):
            # `loadDefinition` keeps the last file of a name, its folder listed unsorted (`bZ`): read backwards here.
            for path in reversed(self._files(ctx, source)):
                data = read_candidate(ctx.fs, cascade, path, role)
                if data is None:
                    continue
                rule = parse_rule(data.text(), self._default_name(ctx, path))
                if isinstance(rule, Reason):
                    cascade.files.append(Candidate(path, role, False, data.size, rule))
                elif rule.name.casefold() in names:  # rules are keyed by name: the first one keeps it
                    cascade.files.append(
                        Candidate(path, role, False, data.size, Reason.NAME_SHADOWED, related=names[rule.name.casefold()])
                    )
                else:
                    names[rule.name.casefold()] = path
                    cascade.files.append(Candidate(path, role, True, data.size))
                    rules.append(rule)
        if rules:
            rules.sort(key=lambda rule: locale_key(rule.name))
            text = "# Rules\n" + "\n\n".join(f"## {rule.name}\n{rule.body}" for rule in rules)
            cascade.blocks.append(Block(Placement.SYSTEM, text))
        return cascade
