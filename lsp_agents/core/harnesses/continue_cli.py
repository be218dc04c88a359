"""Continue CLI (`cn`): the launch directory's agent file and always-on rules, nothing above it.

The agent file is the first of AGENTS.md, AGENT.md, CLAUDE.md, CODEX.md that exists in cwd (one
that cannot be read, a directory say, silences all of them). Rules are the config's `rules`, then
every `*.md` under `cwd/.continue/rules` and `<global dir>/rules` (CONTINUE_GLOBAL_DIR, default
~/.continue), in the byte order of their names, that applies always: `alwaysApply: true`, or
neither `alwaysApply`, `globs` nor `regex` (`invokable` rules never). A rule file whose text
repeats a config rule is dropped (two rule files with the same text are both sent). Everything
goes into one `<context name="userRules">` block of the system prompt; nothing is added on read.
"""

from __future__ import annotations

import os
import re
from collections.abc import Hashable

from lsp_agents.core.config_files import load_yaml
from lsp_agents.core.fs import FileData
from lsp_agents.core.harnesses.base import Harness, LaunchContext, NameSearch, read_candidate
from lsp_agents.core.harnesses.spec import ConfigFile, DefinitionRivals, Detection, EnvDir, FolderFiles, HarnessSpec, Place
from lsp_agents.core.model import Block, Candidate, Cascade, Placement, Reason, Role
from lsp_agents.core.text import JS_SPACE_CLASS, js_trim, node_readdir_key
from lsp_agents.core.walk import MAX_WALK_ENTRIES
from lsp_agents.core.yaml_text import InvalidYaml, parse_yaml

AGENT_FILES = ("AGENTS.md", "AGENT.md", "CLAUDE.md", "CODEX.md")
FOLDER = ".continue"  # in the home directory (unless CONTINUE_GLOBAL_DIR says otherwise) and in cwd
CONFIG_NAME = "config.yaml"

SPEC = HarnessSpec(
    "continue",
    "Continue CLI",
    verified=True,
    version="1.5.47",
    package="@continuedev/cli",
    home=EnvDir("CONTINUE_GLOBAL_DIR", (FOLDER,)),
    global_subfolders=("rules",),
    instruction_names=AGENT_FILES,
    looks_for=(*AGENT_FILES, ".continue/rules"),
    rule_files=(FolderFiles(f"{FOLDER}/rules", "**/*.md"),),
    own_names=frozenset({"AGENTS.md", "AGENT.md"}),  # CLAUDE.md and CODEX.md are read for compatibility only
    config_files=(ConfigFile(CONFIG_NAME, Place.HOME_FOLDER),),
    detection=Detection(folders=(FOLDER,), own_files=(FOLDER,)),
    literal_imports=True,
    definition_rivals=DefinitionRivals.LISTS_BOTH,  # two skills of one name are both listed (core/agents/continue_cli.py)
)
# Continue splits a rule on every line that is `---` (JavaScript `/^---\s*$/m`), not only at the top.
_FENCE = re.compile(rf"(?:^|(?<=[\n\r\u2028\u2029]))---[{JS_SPACE_CLASS}]*(?=$|[\n\r\u2028\u2029])")


def parse_rule(text: str) -> tuple[object, str]:
    """(frontmatter, rule text) as Continue reads a rule file: CRLF becomes LF; with two `---`
    lines anywhere, what lies between the first two is YAML and the rest, trimmed, is the rule."""
    text = text.replace("\r\n", "\n")
    parts = _FENCE.split(text)
    if len(parts) < 3:
        return {}, text
    try:
        fields = parse_yaml(parts[1])
    except InvalidYaml:
        return {}, text
    return fields or {}, "---".join(parts[2:]).strip()


_MISSING = object()


def _field(fields: object, name: str) -> object:
    return fields.get(name, _MISSING) if isinstance(fields, dict) else _MISSING


class ContinueCli(Harness):
    spec = SPEC
    reads_above_launch_directory = False

    def directory_names(self, ctx: LaunchContext) -> frozenset[str] | None:
        return frozenset({FOLDER, *(n.lower() for n in AGENT_FILES)})

    def content_shape(self, data: FileData) -> Hashable | None:
        """The agent file counts only by whether it is empty; a rule by whether it applies
        always, whether it is blank, and its text (a copy of a config rule drops out)."""
        if data.problem:
            return data.problem
        if "/.continue/rules/" not in data.path.replace(os.sep, "/") and not data.path.endswith("config.yaml"):
            return not data.text()
        return None

    def load_eager(self, ctx: LaunchContext) -> Cascade:
        cascade = Cascade(self.id, ctx.cwd)
        agent = self._agent_file(ctx, cascade)
        configured = self._config_rules(ctx, cascade)
        rules = list(configured)
        for directory, role in (
            (os.path.join(ctx.cwd, FOLDER, "rules"), Role.RULE),
            (os.path.join(self.home_dir(ctx), "rules"), Role.GLOBAL),
        ):
            for path in self._rule_paths(ctx, directory, cascade):
                text = self._rule(ctx, path, role, cascade, configured)
                if text is not None:
                    rules.append(text)
        if agent or rules:
            body = (f"\n{agent}" if agent else "") + ((("\n\n" if agent else "\n") + "\n\n".join(rules)) if rules else "")
            cascade.blocks.append(Block(Placement.SYSTEM, f'<context name="userRules">{body}\n</context>'))
        return cascade

    def _agent_file(self, ctx: LaunchContext, cascade: Cascade) -> str:
        search = NameSearch(ctx, cascade, Role.PROJECT)
        for _name, path in search.candidates(ctx.cwd, AGENT_FILES):
            search.taken = path
            if read_candidate(ctx.fs, cascade, path, Role.PROJECT) is None:
                return ""  # Continue gives up on all the names when the first cannot be read
        chosen = search.taken
        if chosen is None:
            return ""
        text = ctx.fs.read(chosen).text()
        cascade.files.append(Candidate(chosen, Role.PROJECT, bool(text), ctx.fs.size(chosen), None if text else Reason.EMPTY))
        return text

    def _config_rules(self, ctx: LaunchContext, cascade: Cascade) -> list[str]:
        config = load_yaml(ctx.fs, os.path.join(self.home_dir(ctx), CONFIG_NAME))
        if config.warning:
            cascade.warnings.append(config.warning)
        entries = config.values.get("rules")
        rules: list[str] = []
        for entry in entries if isinstance(entries, list) else ():
            text = entry.get("rule") if isinstance(entry, dict) else entry
            if isinstance(text, str) and text:
                rules.append(text)
        return rules

    def _rule_paths(self, ctx: LaunchContext, directory: str, cascade: Cascade) -> list[str]:
        """The `.md` entries under `directory` as `fs.readdirSync(dir, {recursive: true})` gives them to
        `loadMarkdownRulesWithMetadata` (extensions/cli/src/systemMessage.ts): breadth first, each
        directory's names sorted by their bytes as libuv sorts them (`node_readdir_key`), never in the
        file system's own order (symlinked directories followed, each real directory once)."""
        if not ctx.fs.is_dir(directory):
            return []
        found: list[str] = []
        seen: set[str] = set()
        queue, budget = [directory], MAX_WALK_ENTRIES
        while queue:
            current = queue.pop(0)
            real = ctx.fs.realpath(current)
            if real in seen:
                continue
            seen.add(real)
            for name in sorted(ctx.fs.list_dir(current), key=node_readdir_key):
                budget -= 1
                if budget < 0:
                    cascade.warnings.append(f"warning: {directory}: more than {MAX_WALK_ENTRIES} entries, the rest not searched")
                    return found
                path = os.path.join(current, name)
                if ctx.fs.is_dir(path):
                    queue.append(path)
                if name.endswith(".md") and ctx.fs.is_file(path):
                    found.append(path)
        return found

    def _rule(self, ctx: LaunchContext, path: str, role: Role, cascade: Cascade, configured: list[str]) -> str | None:
        data = read_candidate(ctx.fs, cascade, path, role)
        if data is None:
            return None
        fields, text = parse_rule(data.text())
        always = _field(fields, "alwaysApply")
        conditional = _field(fields, "globs") not in (_MISSING, None, "", []) or _field(fields, "regex") not in (
            _MISSING,
            None,
            "",
        )
        invokable = _field(fields, "invokable") not in (_MISSING, None, False, 0, "")
        if invokable:
            reason = Reason.MANUAL
        elif not (always is True or (always is _MISSING and not conditional)):
            reason = Reason.NOT_ALWAYS_APPLIED
        elif not js_trim(text):
            reason = Reason.EMPTY
        elif text in configured:
            reason = Reason.DUPLICATE_PATH
        else:
            reason = None
        cascade.files.append(Candidate(path, role, reason is None, data.size, reason))
        return text if reason is None else None
