"""Cline CLI: the launch directory's `.clinerules`, `.cline/rules` and AGENTS.md, and the user's rule folders.

The rule watcher (`dX` in @cline/core, its folders `resolveRulesConfigSearchPaths` of
@cline/shared/storage) reads, in this order: `cwd/AGENTS.md` ("Workspace AGENTS.md"),
`cwd/.clinerules` (a folder: its own `.md`, `.markdown` and `.txt` files and an AGENTS.md in it, no
subfolders and no symlinked files; or a single file), `cwd/.cline/rules` (a folder alike),
`~/.agents/AGENTS.md` ("Global AGENTS.md"), the folders `~/.cline/rules` (`$CLINE_DIR/rules`:
`resolveClineDir`, the variable trimmed, a relative one opened from cwd), `~/Cline/Rules`,
`~/Documents/Cline/Rules` (and the `Documents/Cline/Rules` of each `$OneDrive*`), a path met again
left out, and last the `rules.md` of each folder in `cwd/.cline` that holds a `managed.json` parsing
to a JSON object (`xX`). Nothing above cwd, no `.cursorrules` or `.windsurfrules`. A rule's
frontmatter is dropped (`name:` renames it, `disabled: true` / `enabled: false` turn it off; a name
that is no string or a flag that is no boolean drops the file) and its body trimmed. The frontmatter
is read by the `yaml` package (`pw.parse` in `yX`; see `cline_header`), YAML 1.2: only
`true`/`True`/`TRUE` and the like are booleans, so `disabled: yes` drops the file and `name: on` is
the name "on", `name: 2024-01-01` a string and `name: 1e3` a number; a key given twice drops the
file; blank rules are skipped. Rules are keyed by their trimmed, lower-case name and the last one read keeps the key
(`loadDefinition`), a disabled one too, which then hides the earlier ones; a folder is listed
unsorted (`bZ`). The rules are sorted by name under `# Rules` in the system prompt. Nothing is
added when the agent reads a file.
"""

from __future__ import annotations

import json
import os
import posixpath
import unicodedata
from collections.abc import Hashable

from lsp_agents.core.fs import FileData
from lsp_agents.core.harnesses.base import Harness, LaunchContext, read_candidate
from lsp_agents.core.harnesses.cline_header import ClineFile, parse_file
from lsp_agents.core.harnesses.spec import Detection, FolderFiles, HarnessSpec, home_folder
from lsp_agents.core.model import Block, Candidate, Cascade, Placement, Reason, Role
from lsp_agents.core.text import js_trim

RULE_EXTENSIONS = (".md", ".markdown", ".txt")
AGENTS = "AGENTS.md"
RULES = ".clinerules"  # a folder of rules in cwd, or a single rule file
CLINE = ".cline"  # in cwd: the folder `rules` and the plugins' `rules.md`
PLUGIN_MARKER = "managed.json"
PLUGIN_RULES = "rules.md"
USER_RULE_FOLDERS = ((CLINE, "rules"), ("Cline", "Rules"), ("Documents", "Cline", "Rules"))  # in the order read
CLINE_DIR = "CLINE_DIR"  # moves `~/.cline`
ONEDRIVE = ("OneDrive", "OneDriveConsumer", "OneDriveCommercial")  # each adds its `Documents/Cline/Rules`
GLOBAL_AGENTS = (".agents", AGENTS)

SPEC = HarnessSpec(
    "cline",
    "Cline CLI",
    verified=True,
    version="3.0.65",
    package="cline",
    home=home_folder(CLINE),
    global_folders=(*(home_folder(*parts) for parts in USER_RULE_FOLDERS[1:]), home_folder(GLOBAL_AGENTS[0])),
    global_files=(AGENTS,),
    global_subfolders=("rules", "Rules"),
    instruction_names=(AGENTS, RULES),
    looks_for=(".clinerules", "AGENTS.md"),
    rule_files=(FolderFiles(RULES, "*"), FolderFiles(f"{CLINE}/rules", "*")),
    # Not the files in its subfolders: the Cline CLI reads none, the Cline extension all but
    # workflows/, hooks/ and skills/.
    excluded=(f"**/{RULES}/*/**", f"**/{CLINE}/rules/*/**"),
    detection=Detection(names=(RULES,), folders=(RULES,), own_files=(RULES, ".cline", "Documents/Cline", "Cline/Rules")),
    literal_imports=True,
)
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


class Cline(Harness):
    spec = SPEC

    reads_above_launch_directory = False

    def directory_names(self, ctx: LaunchContext) -> frozenset[str] | None:
        return frozenset({RULES, CLINE, AGENTS.lower()})

    def content_shape(self, data: FileData) -> Hashable | None:
        """Whether a rule loads, the name it goes by (which decides the winner of a name) and whether it is on."""
        if data.problem:
            return data.problem
        rule = parse_file(data.text(), os.path.basename(data.path))
        return (rule.key, rule.disabled) if isinstance(rule, ClineFile) else None

    def home_dir(self, ctx: LaunchContext) -> str:
        """`resolveClineDir` (`L`): `$CLINE_DIR` trimmed (a relative one from the launch directory),
        else `~/.cline`."""
        return os.path.join(ctx.cwd, self._cline_dir(ctx))

    def _cline_dir(self, ctx: LaunchContext) -> str:
        return js_trim(ctx.env.get(CLINE_DIR, "")) or ctx.home_path(CLINE)

    def _sources(self, ctx: LaunchContext) -> list[tuple[str, Role]]:
        """Rule folders and single rule files in the order the watcher reads them, the last rule
        of a name winning (`resolveRulesConfigSearchPaths`, then `cwd/.cline`). The paths are
        joined as the CLI joins them and a path met again is left out (`R`), a relative one then
        opened from the launch directory."""
        sources = [
            (os.path.join(ctx.cwd, AGENTS), Role.PROJECT),
            (os.path.join(ctx.cwd, RULES), Role.RULE),
            (os.path.join(ctx.cwd, CLINE, "rules"), Role.RULE),
            (ctx.home_path(*GLOBAL_AGENTS), Role.GLOBAL),
            *((path, Role.GLOBAL) for path in self._user_rule_folders(ctx)),
        ]
        unique: dict[str, Role] = {}
        for path, role in sources:
            unique.setdefault(posixpath.normpath(path), role)
        return [
            *((os.path.join(ctx.cwd, path), role) for path, role in unique.items()),
            *((path, Role.RULE) for path in self._plugin_rules(ctx)),
        ]

    def _user_rule_folders(self, ctx: LaunchContext) -> list[str]:
        """`resolveGlobalRulesConfigPaths`: `$CLINE_DIR/rules`, `~/Cline/Rules`, `~/Documents/Cline/Rules`
        and `Documents/Cline/Rules` of each `OneDrive*` folder set."""
        documents = [ctx.home_path("Documents")]
        documents += [os.path.join(value, "Documents") for name in ONEDRIVE if (value := js_trim(ctx.env.get(name, "")))]
        return [
            os.path.join(self._cline_dir(ctx), "rules"),
            ctx.home_path("Cline", "Rules"),
            *(os.path.join(folder, "Cline", "Rules") for folder in documents),
        ]

    def _plugin_rules(self, ctx: LaunchContext) -> list[str]:
        """`rules.md` of each folder (not a symlink) in `cwd/.cline` whose `managed.json` is a JSON
        object or array, the folders sorted like `localeCompare` (`xX`)."""
        root = os.path.join(ctx.cwd, CLINE)
        if not ctx.fs.is_dir(root):
            return []
        folders = [os.path.join(root, name) for name in ctx.fs.list_dir(root)]
        plugins = [f for f in folders if ctx.fs.is_dir(f) and not ctx.fs.is_link(f) and self._is_managed(ctx, f)]
        return [os.path.join(f, PLUGIN_RULES) for f in sorted(plugins, key=locale_key)]

    def _is_managed(self, ctx: LaunchContext, folder: str) -> bool:
        data = ctx.fs.read(os.path.join(folder, PLUGIN_MARKER))
        if data.data is None:
            return False
        try:
            return isinstance(json.loads(data.text()), (dict, list))
        except (ValueError, RecursionError):
            return False

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
        rules: list[ClineFile] = []
        names: dict[str, str] = {}
        # `loadDefinition` keeps the last file of a name, a folder listed unsorted (`bZ`): read backwards here.
        for source, role in reversed(self._sources(ctx)):
            for path in reversed(self._files(ctx, source)):
                data = read_candidate(ctx.fs, cascade, path, role)
                if data is None:
                    continue
                rule = parse_file(data.text(), self._default_name(ctx, path))
                if isinstance(rule, Reason):
                    cascade.files.append(Candidate(path, role, False, data.size, rule))
                elif rule.key in names:  # the first one read here keeps the name, disabled or not
                    cascade.files.append(Candidate(path, role, False, data.size, Reason.NAME_SHADOWED, related=names[rule.key]))
                else:
                    names[rule.key] = path
                    cascade.files.append(
                        Candidate(path, role, not rule.disabled, data.size, Reason.DISABLED if rule.disabled else None)
                    )
                    if not rule.disabled:
                        rules.append(rule)
        if rules:
            rules.sort(key=lambda rule: locale_key(rule.name))
            text = "# Rules\n" + "\n\n".join(f"## {rule.name}\n{rule.body}" for rule in rules)
            cascade.blocks.append(Block(Placement.SYSTEM, text))
        return cascade
