"""pi's skills and prompt templates (@mariozechner/pi-coding-agent 0.73.1). pi has no subagents.

Skills (`dist/core/package-manager.js` `addAutoDiscoveredResources`, `collectSkillEntries`;
`dist/core/skills.js` `loadSkills`, `loadSkillFromFile`): first the project's, then the user's —
cwd's `.pi/skills`, the `.agents/skills` of every directory from cwd up to the git root (to `/`
without git; `~/.agents/skills` left for the user's), then `skills` of the agent directory
(`$PI_CODING_AGENT_DIR`, default `~/.pi/agent`) and `~/.agents/skills`. In each folder, names in
byte order: a folder holding `SKILL.md` is one skill (nothing below it is searched), other folders
are searched below (dot entries and `node_modules` skipped, symlinks followed, `.gitignore`,
`.ignore` and `.fdignore` honoured); in a `.pi/skills` or agent-directory `skills` folder itself,
every `*.md` is a skill too. A skill needs a YAML header (an error drops it) with a text
`description` (a byte-order mark before the `---` leaves it without one: `extractFrontmatter` keeps the
BOM `readFileSync` returns); its name is `name`, else its folder's. The first of a name wins, the same real
file is read once. The listing (`formatSkillsForPrompt`) follows the project context in the
system prompt, in discovery order, XML-escaped, without `disable-model-invocation: true` skills;
the body is sent when the model reads the file.

Prompt templates (`dist/core/package-manager.js` `collectAutoPromptEntries`,
`dist/core/prompt-templates.js`): `*.md` directly in cwd's `.pi/prompts`, then in the agent
directory's `prompts` (not subfolders, dot entries skipped), named by file; the first of a name wins
(the project's, `dedupePrompts`). Nothing is sent at the start: typing `/name args` (`pi -p` too)
sends the body alone, as the user message (`typed_commands.pi_message`; verified). `/skill:name args`
sends a skill the same way (`typed_commands.pi_skill_message`), listed or not.
"""

from __future__ import annotations

import os
from typing import ClassVar

from lsp_agents.core.agents.base import Definitions, StartText, base_layer, instruction_layers, mark_shadowed, skill_definition
from lsp_agents.core.agents.discovery import ParsedDefinition, parse_definition
from lsp_agents.core.agents.model import Catalog, Definition, Delivery, Issue, Kind, Layer, Scope
from lsp_agents.core.agents.typed_commands import pi_message, pi_skill_message, pi_template_body
from lsp_agents.core.harnesses import HARNESSES
from lsp_agents.core.harnesses.base import LaunchContext
from lsp_agents.core.patterns import IgnorePatterns
from lsp_agents.core.walk import ancestors, find_marker_root

TITLE = "pi"
IGNORE_FILES = (".gitignore", ".ignore", ".fdignore")
INTRO = (
    "The following skills provide specialized instructions for specific tasks.\n"
    "Use the read tool to load a skill's file when the task matches its description.\n"
    "When a skill file references a relative path, resolve it against the skill directory (parent of "
    "SKILL.md / dirname of the path) and use that absolute path in tool commands."
)
MAX_DEPTH = 16


def xml_escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;").replace("'", "&apos;")


class _Ignore:
    """pi's `ignore` matcher of one skills folder: each folder's ignore files, prefixed with the
    folder's path below the root (`prefixIgnorePattern`)."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self._matcher: IgnorePatterns | None = None

    def add(self, ctx: LaunchContext, directory: str, root: str) -> None:
        relative = os.path.relpath(directory, root).replace(os.sep, "/")
        prefix = "" if relative == "." else relative + "/"
        for name in IGNORE_FILES:
            data = ctx.fs.read(os.path.join(directory, name))
            if data.problem or data.data is None:
                continue
            for line in data.text().splitlines():
                pattern, negated = line, False
                if not line.strip() or (line.strip().startswith("#") and not line.strip().startswith("\\#")):
                    continue
                if pattern.startswith("!"):
                    pattern, negated = pattern[1:], True
                elif pattern.startswith("\\!"):
                    pattern = pattern[1:]
                pattern = prefix + pattern.removeprefix("/")
                self.lines.append(f"!{pattern}" if negated else pattern)
                self._matcher = None

    def ignores(self, relative: str) -> bool:
        if not self.lines:
            return False
        if self._matcher is None:
            self._matcher = IgnorePatterns(self.lines)
        return self._matcher.match(relative)


def skill_files(ctx: LaunchContext, root: str, *, root_files: bool) -> list[str]:
    """`collectSkillEntries`: the skill files below `root`, in pi's order."""
    found: list[str] = []
    if ctx.fs.is_dir(root):
        _collect(ctx, root, root, root_files, _Ignore(), found, 0)
    return found


def _collect(
    ctx: LaunchContext, directory: str, root: str, root_files: bool, ignore: _Ignore, found: list[str], depth: int
) -> None:
    ignore.add(ctx, directory, root)
    names = sorted(ctx.fs.list_dir(directory))
    skill = os.path.join(directory, "SKILL.md")
    if "SKILL.md" in names and ctx.fs.is_file(skill) and not ignore.ignores(_relative(skill, root)):
        found.append(skill)
        return
    for name in names:
        path = os.path.join(directory, name)
        if name.startswith(".") or name == "node_modules":
            continue
        relative = _relative(path, root)
        if root_files and directory == root and name.endswith(".md") and ctx.fs.is_file(path):
            if not ignore.ignores(relative):
                found.append(path)
            continue
        if ctx.fs.is_dir(path) and depth < MAX_DEPTH and not ignore.ignores(relative + "/"):
            _collect(ctx, path, root, root_files, ignore, found, depth + 1)


def _relative(path: str, root: str) -> str:
    return os.path.relpath(path, root).replace(os.sep, "/")


class PiDefinitions(Definitions):
    harness = "pi"
    title = TITLE
    evidence: ClassVar[dict[str, str]] = {
        "skills listing": "verified: after the project context in the system prompt, in discovery order (0.73.1)",
        "skill folders": "verified: .pi/skills, .agents/skills up to the git root, then the user's; first name wins",
        "skill headers": "verified: a YAML error or no description drops a skill; a name unlike its folder is kept",
        "prompt templates": "verified: not sent at the start of a session",
        "typed commands": "verified: `/name args` sends the template's body with `$N`, `${@:N}`, `$@` and "
        "`$ARGUMENTS` replaced, the project's template over the user's; `/skill:name args` the skill's body in a "
        "`<skill>` block, then the arguments (0.73.1)",
        "subagents": "source: pi has none",
    }

    def build(self, ctx: LaunchContext) -> Catalog:
        catalog = Catalog(self.harness, ctx.cwd)
        agent_dir = HARNESSES[self.harness].home_dir(ctx)
        user_agents = ctx.home_path(".agents", "skills")
        git_root = find_marker_root(ctx.fs, ctx.cwd, [".git"])
        roots = [(os.path.join(ctx.cwd, ".pi", "skills"), Scope.PROJECT, True)]
        roots += [
            (os.path.join(d, ".agents", "skills"), Scope.PROJECT, False)
            for d in ancestors(ctx.cwd, git_root)
            if os.path.normpath(os.path.join(d, ".agents", "skills")) != os.path.normpath(user_agents)
        ]
        roots += [(os.path.join(agent_dir, "skills"), Scope.USER, True), (user_agents, Scope.USER, False)]
        skills: list[Definition] = []
        seen: set[str] = set()
        for root, scope, root_files in roots:
            for path in skill_files(ctx, root, root_files=root_files):
                if ctx.fs.realpath(path) in seen:
                    continue  # the same file through a symlink: read once
                skill = self._skill(ctx, path, scope)
                if not skill.dropped and not any(s.name == skill.name and not s.dropped for s in skills):
                    seen.add(ctx.fs.realpath(path))
                skills.append(skill)
        mark_shadowed(skills, later_wins=False)
        prompt_dirs = [(os.path.join(ctx.cwd, ".pi", "prompts"), Scope.PROJECT), (os.path.join(agent_dir, "prompts"), Scope.USER)]
        prompts = [self._prompt(ctx, p, s) for d, s in prompt_dirs for p in self._prompt_files(ctx, d)]
        mark_shadowed(prompts, later_wins=False)
        catalog.definitions = skills + prompts
        return catalog

    def _skill(self, ctx: LaunchContext, path: str, scope: Scope) -> Definition:
        parsed = parse_definition(ctx.fs, path)
        folder = os.path.basename(os.path.dirname(path))
        declared = parsed.fields.get("name")
        name = str(declared) if declared not in (None, "", False, 0) else folder
        description = parsed.fields.get("description")
        skill = skill_definition(
            self.harness,
            name,
            path,
            scope,
            parsed,
            description=description if isinstance(description, str) else None,
            folder=folder,
        )
        issue = self._problem(parsed, description)
        if issue is not None:
            skill.drop(issue)
        elif parsed.fields.get("disable-model-invocation") is True:
            skill.delivery = Delivery.ON_USE  # only `/skill:name` runs it
        else:
            skill.delivery = Delivery.LISTED
        return skill

    @staticmethod
    def _problem(parsed: ParsedDefinition, description: object) -> Issue | None:
        if parsed.problem:
            return Issue("invalid-definition", f"{TITLE} cannot read this skill ({parsed.problem})")
        if parsed.bom and parsed.header:  # `extractFrontmatter`: the text, BOM kept, must start with `---`
            return Issue("invalid-definition", f"{TITLE} reads no header after a byte-order mark: the skill has no `description`")
        if parsed.yaml_error is not None:
            return Issue("invalid-definition", f"{TITLE} drops this skill: its header does not parse ({parsed.yaml_error})")
        if not isinstance(description, str) or not description.strip():
            return Issue("invalid-definition", f"{TITLE} drops a skill without a `description`", parsed.line_of("description"))
        return None

    def _prompt_files(self, ctx: LaunchContext, directory: str) -> list[str]:
        if not ctx.fs.is_dir(directory):
            return []
        names = sorted(ctx.fs.list_dir(directory))
        paths = (os.path.join(directory, n) for n in names if n.endswith(".md") and not n.startswith("."))
        return [p for p in paths if ctx.fs.is_file(p)]

    def _prompt(self, ctx: LaunchContext, path: str, scope: Scope) -> Definition:
        parsed = parse_definition(ctx.fs, path)
        body = pi_template_body(ctx.fs.read(path).text())
        description = parsed.fields.get("description")
        if not isinstance(description, str) or not description:
            first = next((line for line in body.split("\n") if line.strip()), "")
            description = first[:60] + ("..." if len(first) > 60 else "")
        prompt = Definition(
            self.harness, Kind.COMMAND, os.path.basename(path)[:-3], path, scope, description=description, body=body
        )
        issue = None
        if parsed.problem:
            issue = Issue("invalid-definition", f"{TITLE} cannot read this prompt template ({parsed.problem})")
        elif parsed.yaml_error is not None:
            issue = Issue(
                "invalid-definition", f"{TITLE} drops this prompt template: its header does not parse ({parsed.yaml_error})"
            )
        if issue is not None:
            prompt.drop(issue)
        return prompt

    def find_command(self, catalog: Catalog, name: str) -> Definition | None:
        if name.startswith("skill:"):  # `_expandSkillCommand`: any skill pi loaded
            return next((d for d in catalog.active(Kind.SKILL) if d.name == name[6:]), None)
        return super().find_command(catalog, name)

    def command_message(self, ctx: LaunchContext, command: Definition, arguments: str) -> str:
        if command.kind == Kind.SKILL:
            return pi_skill_message(command.name, command.path, ctx.fs.read(command.path).text(), arguments)
        return pi_message(arguments, command.body or "")

    def skills_listing(self, catalog: Catalog) -> str | None:
        listed = [d for d in catalog.active(Kind.SKILL) if d.delivery == Delivery.LISTED]
        if not listed:
            return None
        lines = [INTRO, "", "<available_skills>"]
        for skill in listed:
            lines += [
                "  <skill>",
                f"    <name>{xml_escape(skill.name)}</name>",
                f"    <description>{xml_escape(skill.description or '')}</description>",
                f"    <location>{xml_escape(skill.path)}</location>",
                "  </skill>",
            ]
        return "\n".join([*lines, "</available_skills>"])

    def start_layers(self, ctx: LaunchContext, catalog: Catalog, start: StartText, agent: Definition | None) -> list[Layer]:
        layers = [base_layer(TITLE, start, None), *instruction_layers(start)]
        listing = self.skills_listing(catalog)
        layers += [Layer("skills", "system", listing, "workspace")] if listing is not None else []
        return [*layers, Layer("environment", "system", start.environment, "harness")]
