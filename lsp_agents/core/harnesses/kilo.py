"""Kilo Code CLI, a fork of opencode: opencode's rules under Kilo's names, plus Kilo's rule folders.

Everything opencode does holds (family rule, worktree walk, config `instructions`, reads), with
KILO_* flags, ~/.config/kilo and kilo.json, `$KILO_CONFIG_DIR/AGENTS.md` before the default
global file, a byte-order mark kept, reads resolved to real paths, and a file read without trust
(the project files, rule files, most config `instructions`) dropped when its real path leaves the
worktree, or the launch directory without git (`Opencode._out_of_scope`). The rule folders come after the project files and
before the config's instructions: the user's ~/.kilo/rules and ~/.kilocode/rules, then cwd's
.kilo/rules and .kilocode/rules (one file per name across each pair), the legacy .kilocoderules,
and the mode folders `.kilo/rules-<mode>` and `.kilocode/rules-<mode>` with `.kilocoderules-<mode>`.
A file's `{file:…}` and `{env:…}` references are filled in (`Kilo.substitute`).
"""

from __future__ import annotations

import os
import re
from collections.abc import Hashable
from dataclasses import replace

from lsp_agents.core.fs import FileData
from lsp_agents.core.harnesses.base import LaunchContext
from lsp_agents.core.harnesses.opencode import PROJECT_NAMES, REFERENCE_CHARS, Flavor, Opencode, config_files
from lsp_agents.core.harnesses.opencode import SPEC as OPENCODE_SPEC
from lsp_agents.core.harnesses.spec import DefinitionRivals, Detection, EnvDir, FolderFiles, home_folder
from lsp_agents.core.model import Cascade, Role
from lsp_agents.core.text import js_trim, js_trim_start
from lsp_agents.core.walk import is_within

KILO = Flavor("KILO", strip_bom=False, config_dir_env="KILO_CONFIG_DIR", read_real_path=True, scoped_reads=True)
RULE_FOLDERS = (".kilo", ".kilocode")
LEGACY_RULES = ".kilocoderules"
# References as in `opencode.REFERENCE_CHARS`: no brace inside and bounded, so matching stays linear.
_ENV = re.compile(rf"\{{env:([^{{}}]{{1,{REFERENCE_CHARS}}})\}}")
_FILE = re.compile(rf"\{{file:([^{{}}]{{1,{REFERENCE_CHARS}}})\}}")
# In a file read without trust (markdown), `${…}` is no reference (`(?<!\$)`).
_UNTRUSTED_ENV = re.compile(rf"(?<!\$)\{{env:([^{{}}]{{1,{REFERENCE_CHARS}}})\}}")
_UNTRUSTED_FILE = re.compile(rf"(?<!\$)\{{file:([^{{}}]{{1,{REFERENCE_CHARS}}})\}}")
# Values Kilo never hands out (the bundle's `kuH.env`), compared in upper case.
_BLOCKED_ENV = frozenset({"KILO_SERVER_PASSWORD", "KILO_SERVER_USERNAME", "KILO_BROWSER_BROKER_URL", "KILO_BROWSER_BROKER_TOKEN"})

MODES = ("code", "architect", "ask", "debug", "orchestrator")
GLOBAL_CONFIG_NAMES = ("config.json", "kilo.json", "kilo.jsonc", "opencode.json", "opencode.jsonc")  # in this order
PROJECT_CONFIG_NAMES = ("kilo.jsonc", "kilo.json", "opencode.jsonc", "opencode.json")

# opencode's description with Kilo's names (its agents, skills and commands: lsp_agents.core.agents.kilo).
SPEC = replace(
    OPENCODE_SPEC,
    id="kilo",
    title="Kilo Code CLI",
    version="7.7.7",
    package="@kilocode/cli",
    home=EnvDir("XDG_CONFIG_HOME", (".config",), below=("kilo",)),
    global_folders=(EnvDir(KILO.config_dir_env, None), home_folder(".claude"), *(home_folder(f) for f in RULE_FOLDERS)),
    global_subfolders=("rules",),
    instruction_names=(*PROJECT_NAMES, LEGACY_RULES),
    looks_for=(*PROJECT_NAMES, *(f"{folder}/rules" for folder in RULE_FOLDERS)),
    # The mode folders (`.kilo/rules-<mode>`, `.kilocoderules-<mode>`) are read but not discovered yet.
    rule_files=tuple(FolderFiles(f"{folder}/rules", "*.md") for folder in RULE_FOLDERS),
    project_folders=(),
    config_files=config_files(GLOBAL_CONFIG_NAMES, PROJECT_CONFIG_NAMES),
    detection=Detection(folders=RULE_FOLDERS, own_files=(*RULE_FOLDERS, LEGACY_RULES, "kilo.json", "kilo.jsonc", ".config/kilo")),
    legacy_names=(),  # opencode's deprecated CONTEXT.md is reported where opencode is enabled
    # Kilo reads definitions one after the other: the last one found of a name wins (opencode's
    # parallel reads make that copy unpredictable).
    definition_rivals=DefinitionRivals.KEEPS_ONE,
)


class Kilo(Opencode):
    spec = SPEC
    flavor = KILO

    def directory_names(self, ctx: LaunchContext) -> frozenset[str] | None:
        """opencode's, and the rule folders and legacy rule files."""
        opencode = super().directory_names(ctx)
        if opencode is None:  # it may read anything: so may Kilo
            return None
        legacy = {LEGACY_RULES, *(f"{LEGACY_RULES}-{mode}" for mode in MODES)}
        return frozenset({*opencode, *RULE_FOLDERS, *legacy})

    def content_shape(self, data: FileData) -> Hashable:
        """opencode's (unreadable or empty), plus whether the file asks for `{env:…}` (dropped)
        and the files its `{file:…}` references name."""
        if data.problem:
            return data.problem
        text = data.text()
        return not text, bool(_ENV.search(text)), tuple(_FILE.findall(text))

    def substitute(self, ctx: LaunchContext, path: str, content: str, scope: str | None) -> str | None:
        """Kilo's `ConfigVariable.substitute` for an instruction file (`ConfigMarkdown.substitute`:
        markdown, a missing file read as nothing). A reference after `//` on its line stays as
        written. Read with trust (`scope` None), `{env:NAME}` becomes the value (unset: nothing; a
        blocked name drops the file); without, any `{env:…}` drops the file and `${…}` is text. A
        `{file:path}` (relative to the file, `~/` the home) becomes the file's trimmed text; one whose
        real path leaves the scope drops the file ("blocked file reference")."""
        if "{env:" not in content and "{file:" not in content:
            return content  # most files hold no reference: four scans of their text saved per unit
        env, file = (_ENV, _FILE) if scope is None else (_UNTRUSTED_ENV, _UNTRUSTED_FILE)
        filled = _fill_env(ctx, content, env, trusted=scope is None)
        return None if filled is None else self._fill_files(ctx, path, filled, file, scope)

    def _fill_files(self, ctx: LaunchContext, path: str, content: str, file: re.Pattern[str], scope: str | None) -> str | None:
        live = {
            m.start(): self._reference_target(ctx, path, m.group(1))
            for m in file.finditer(content)
            if not _commented(content, m.start())
        }
        if scope is not None and any(
            ctx.fs.exists(t) and not is_within(ctx.fs.realpath(t), ctx.fs.realpath(scope)) for t in live.values()
        ):
            return None
        return file.sub(lambda m: self._file_value(ctx, live[m.start()]) if m.start() in live else m.group(0), content)

    def _reference_target(self, ctx: LaunchContext, path: str, reference: str) -> str:
        target = ctx.home_path(reference[2:]) if reference.startswith("~/") else os.path.join(os.path.dirname(path), reference)
        return os.path.normpath(target)

    def _file_value(self, ctx: LaunchContext, target: str) -> str:
        data = ctx.fs.read(target)
        return "" if data.problem else js_trim(data.text())

    def extra_paths(self, ctx: LaunchContext, cascade: Cascade) -> list[tuple[str, Role]]:
        home_folders = [ctx.home_path(folder, "rules") for folder in RULE_FOLDERS]
        found = [(p, Role.GLOBAL) for p in self._rule_files(ctx, home_folders)]
        found += [(p, Role.RULE) for p in self._rule_files(ctx, [os.path.join(ctx.cwd, f, "rules") for f in RULE_FOLDERS])]
        legacy = os.path.join(ctx.cwd, LEGACY_RULES)
        if ctx.fs.exists(legacy):
            found.append((legacy, Role.RULE))
        for mode in MODES:
            folders = [os.path.join(ctx.cwd, f"{folder}/rules-{mode}") for folder in RULE_FOLDERS]
            found += [(p, Role.RULE) for p in self._rule_files(ctx, folders)]
            legacy = os.path.join(ctx.cwd, f"{LEGACY_RULES}-{mode}")
            if ctx.fs.exists(legacy):
                found.append((legacy, Role.RULE))
        return found

    def _rule_files(self, ctx: LaunchContext, folders: list[str]) -> list[str]:
        """The `.md` files directly in each folder, in listing order, not symlinks; a name met in
        an earlier folder of the pair is not taken again."""
        found, names = [], set()
        for folder in folders:
            for name in ctx.fs.list_dir(folder):
                path = os.path.join(folder, name)
                if name.endswith(".md") and name not in names and not ctx.fs.is_link(path) and ctx.fs.is_file(path):
                    names.add(name)
                    found.append(path)
        return found


def _commented(text: str, index: int) -> bool:
    """Whether what comes before `index` on its line starts with `//` (the bundle's `qz$`)."""
    start = text.rfind("\n", 0, index) + 1
    return js_trim_start(text[start:index]).startswith("//")


def _fill_env(ctx: LaunchContext, content: str, env: re.Pattern[str], trusted: bool) -> str | None:
    """`{env:NAME}` filled in (unset: nothing); None when a file read without trust has one, or
    when it names a blocked variable."""
    names = [m.group(1) for m in env.finditer(content) if not _commented(content, m.start())]
    if names and (not trusted or any(n.upper() in _BLOCKED_ENV for n in names)):
        return None
    return env.sub(lambda m: m.group(0) if _commented(content, m.start()) else ctx.env.get(m.group(1)) or "", content)
