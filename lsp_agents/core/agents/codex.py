"""Codex CLI's skills and custom agents (@openai/codex 0.171.0; verified at 0.169.0 and again at 0.171.0).

Skills: every `SKILL.md` (6 directory levels deep, dot entries skipped) under `$CODEX_HOME/skills`
and `~/.agents/skills` (user), Codex's own `$CODEX_HOME/skills/.system`, and the `.agents/skills`
of every directory from the project root down to the launch directory (repo). A skill needs a
`---` header on its first line (a byte-order mark before it leaves the file without one: Rust's
`str::trim` keeps U+FEFF), a `description`, and a name (the header's, else the folder's) of at most 64
characters; otherwise Codex logs "failed to load skill" and leaves it out. The listing, in a
developer message, names each root once (`r0`, `r1`…) and lists system skills, repo skills and
user skills, each sorted by name, a description over 1,024 characters cut to 1,021 and `...`
(`truncate_skill_description`, MAX_MODEL_VISIBLE_SKILL_DESCRIPTION_CHARS); it may take 2 % of the
model's context window (5,440 tokens, about 21,760 bytes, with the fallback model metadata),
beyond which descriptions are shortened.

Custom agents (`.codex/agents/*.toml`, `$CODEX_HOME/agents/*.toml`) are sent only when spawned.
"""

from __future__ import annotations

import os
from typing import ClassVar

from lsp_agents.core.agents.base import Definitions, StartText, base_layer, instruction_layers, mark_shadowed, skill_definition
from lsp_agents.core.agents.discovery import find_files, parse_definition, skill_file
from lsp_agents.core.agents.model import Catalog, Definition, Delivery, Issue, Kind, Layer, Scope
from lsp_agents.core.harnesses import harness_model
from lsp_agents.core.harnesses.base import LaunchContext
from lsp_agents.core.harnesses.codex import Codex
from lsp_agents.core.model import Cascade
from lsp_agents.core.toml_text import InvalidToml, parse_toml
from lsp_agents.core.walk import ancestors
from lsp_agents.core.yaml_text import InvalidYaml, parse_yaml

MAX_NAME_CHARS = 64
MAX_SCAN_DEPTH = 6
MAX_METADATA_BYTES = 64 * 1024  # agents/openai.yaml: far above a real one, bounds the YAML parser
BUDGET_TOKENS = 272_000 * 2 // 100  # 2 % of the context window of Codex's fallback model metadata
BYTES_PER_TOKEN = 4
MAX_VISIBLE_DESCRIPTION = 1024  # MAX_MODEL_VISIBLE_SKILL_DESCRIPTION_CHARS
INTRO = (
    "A skill is a set of local instructions to follow that is stored in a `SKILL.md` file. Below is the list of "
    "skills that can be used. Each entry includes a name, description, and a short path that can be expanded "
    "into an absolute path using the skill roots table."
)


def _implicit_allowed(ctx: LaunchContext, skill_dir: str) -> bool:
    """False when the skill's `agents/openai.yaml` sets `policy.allow_implicit_invocation: false`:
    Codex then leaves it out of the listing (the user can still name it). A file that does not
    parse is ignored, as Codex does."""
    data = ctx.fs.read(os.path.join(skill_dir, "agents", "openai.yaml"))
    if data.data is None or len(data.data) > MAX_METADATA_BYTES:
        return True
    try:
        values = parse_yaml(data.text())
    except InvalidYaml:
        return True
    policy = values.get("policy") if isinstance(values, dict) else None
    return not (isinstance(policy, dict) and policy.get("allow_implicit_invocation") is False)


class CodexDefinitions(Definitions):
    harness = "codex"
    title = "Codex CLI"
    evidence: ClassVar[dict[str, str]] = {
        "skills listing": "verified: roots table, system, repo and user skills by name, in a developer message (0.169.0, 0.171.0)",
        "skill loading": "verified: no header, no description or a name over 64 characters: the skill is left out",
        "skills budget": "verified: 5,440 tokens with the fallback model metadata; descriptions are shortened beyond",
        "custom agents": "verified: not sent at the start; documentation: sent when spawned",
        "implicit invocation": "verified: `agents/openai.yaml` `policy.allow_implicit_invocation: false` keeps a skill "
        "unlisted; `disable-model-invocation` (Claude Code's key) is ignored",
        "typed commands": "verified: `codex exec` sends `/prompts:name args` and `/name args` as typed: custom prompts "
        "(`$CODEX_HOME/prompts/*.md`) run in the interactive UI only (0.171.0)",
    }
    expands_typed_commands = False

    def _roots(self, ctx: LaunchContext) -> list[tuple[str, Scope]]:
        harness = harness_model("codex", Codex)
        codex_home = harness.home_dir(ctx)
        markers = harness.config(ctx, Cascade(self.harness, ctx.cwd)).root_markers
        top = harness.project_root(ctx, markers) or ctx.cwd
        repo = [os.path.join(d, ".agents", "skills") for d in reversed(ancestors(ctx.cwd, top))]
        roots = [
            (os.path.join(codex_home, "skills"), Scope.USER),
            (ctx.home_path(".agents", "skills"), Scope.USER),
            (os.path.join(codex_home, "skills", ".system"), Scope.BUILTIN),
        ] + [(r, Scope.PROJECT) for r in repo]
        # Codex names roots and skills by their canonical paths.
        return list(dict.fromkeys((ctx.fs.realpath(root), scope) for root, scope in roots))

    def build(self, ctx: LaunchContext) -> Catalog:
        catalog = Catalog(self.harness, ctx.cwd)
        skills, seen = [], set()
        for root, scope in self._roots(ctx):
            if scope == Scope.BUILTIN or not ctx.fs.is_dir(root):
                continue
            walk = find_files(ctx.fs, root, skill_file, max_depth=MAX_SCAN_DEPTH, skip_dot=True)
            for path in map(ctx.fs.realpath, walk.files):
                if path not in seen:
                    seen.add(path)
                    skills.append(self._skill(ctx, root, path, scope))
        catalog.definitions = skills + self._agents(ctx)
        return catalog

    def _skill(self, ctx: LaunchContext, root: str, path: str, scope: Scope) -> Definition:
        parsed = parse_definition(ctx.fs, path)
        folder = os.path.basename(os.path.dirname(path))
        declared = parsed.text_field("name")
        name = " ".join((declared or "").split()) or folder
        description = " ".join((parsed.text_field("description") or "").split())
        skill = skill_definition(
            self.harness,
            name,
            path,
            scope,
            parsed,
            description=description or None,
            folder=os.path.relpath(path, root).replace(os.sep, "/"),
            declared_name=declared if declared and declared != folder else None,
        )
        problem = None
        if parsed.problem:
            problem = f"failed to read file ({parsed.problem})"
        elif not parsed.header or parsed.bom:  # `extract_frontmatter`: the first line, trimmed, must be `---`
            problem = "missing YAML frontmatter delimited by ---"
        elif parsed.unreadable_header:
            problem = f"invalid YAML ({parsed.yaml_error})"
        elif len(name) > MAX_NAME_CHARS:
            problem = f"invalid name: exceeds maximum length of {MAX_NAME_CHARS} characters"
        elif not description:
            problem = "missing field `description`"
        if problem:
            line = skill.line if "name" in problem else skill.description_line if "description" in problem else 0
            skill.drop(Issue("invalid-definition", f"Codex CLI does not load this skill: {problem}", line))
        else:
            skill.delivery = Delivery.LISTED if _implicit_allowed(ctx, os.path.dirname(path)) else Delivery.ON_USE
        return skill

    def _agents(self, ctx: LaunchContext) -> list[Definition]:
        harness = harness_model("codex", Codex)
        markers = harness.config(ctx, Cascade(self.harness, ctx.cwd)).root_markers
        top = harness.project_root(ctx, markers) or ctx.cwd
        dirs = [(os.path.join(d, ".codex", "agents"), Scope.PROJECT) for d in ancestors(ctx.cwd, top)]
        dirs.append((os.path.join(harness.home_dir(ctx), "agents"), Scope.USER))
        agents = []
        for directory, scope in dirs:
            for entry in sorted(ctx.fs.list_dir(directory)):
                path = os.path.join(directory, entry)
                if entry.endswith(".toml") and ctx.fs.is_file(path):
                    agents.append(self._agent(ctx, path, scope))
        mark_shadowed(agents, later_wins=False)
        return agents

    def _agent(self, ctx: LaunchContext, path: str, scope: Scope) -> Definition:
        data = ctx.fs.read(path)
        agent = Definition(self.harness, Kind.AGENT, os.path.basename(path)[:-5], path, scope)
        try:
            values = parse_toml(data.text()) if data.data is not None else None
        except InvalidToml as exc:
            agent.drop(Issue("invalid-definition", f"Codex CLI cannot parse this agent file: {exc}"))
            return agent
        if values is None:
            agent.drop(Issue("invalid-definition", f"Codex CLI cannot read this agent file ({data.problem})"))
            return agent
        if isinstance(values.get("name"), str):
            agent.name = values["name"]
        agent.description = values.get("description") if isinstance(values.get("description"), str) else None
        instructions = values.get("developer_instructions")
        agent.body = instructions.strip() if isinstance(instructions, str) else None
        return agent

    # -- what is sent -------------------------------------------------------------------------
    def skills_listing(self, ctx: LaunchContext, catalog: Catalog) -> str:
        listed = [s for s in catalog.active(Kind.SKILL) if s.delivery == Delivery.LISTED]
        roots = self._roots(ctx)
        used = [
            root
            for root, scope in roots
            if scope == Scope.BUILTIN or any(s.path.startswith(root.rstrip(os.sep) + os.sep) for s in listed)
        ]
        alias = {root: f"r{number}" for number, root in enumerate(used)}
        owner = {
            s.path: max((r for r in used if s.path.startswith(r.rstrip(os.sep) + os.sep)), key=len, default=None) for s in listed
        }
        lines = ["<skills_instructions>", "## Skills", INTRO, "### Skill roots"]
        lines += [f"- `{alias[root]}` = `{root}`" for root in used]
        lines += ["### Available skills", "[Codex system skills]"]
        order = {Scope.PROJECT: 0, Scope.USER: 1}
        for skill in sorted(listed, key=lambda s: (order[s.scope], s.name, s.path)):
            root = owner[skill.path]
            where = skill.path if root is None else f"{alias[root]}/{os.path.relpath(skill.path, root).replace(os.sep, '/')}"
            lines.append(f"- {skill.name}: {_visible_description(skill.description or '')} (file: {where})")
        return "\n".join([*lines, "</skills_instructions>"])

    def listing_tokens(self, ctx: LaunchContext, catalog: Catalog) -> int:
        """What the listing of the workspace's and the user's skills costs against Codex's budget:
        its skill lines as sent (short paths) in Codex's tokens, bytes / 4 rounded up (the system
        skills come on top)."""
        listing = self.skills_listing(ctx, catalog).split("\n")
        lines = listing[listing.index("[Codex system skills]") + 1 : -1]
        return -(-sum(len(line.encode("utf-8")) + 1 for line in lines) // BYTES_PER_TOKEN)

    def start_layers(self, ctx: LaunchContext, catalog: Catalog, start: StartText, agent: Definition | None) -> list[Layer]:
        layers = [
            base_layer("Codex CLI", start, None, "developer"),
            Layer("skills", "developer", self.skills_listing(ctx, catalog), "mixed"),
        ]
        layers += instruction_layers(start)
        layers.append(Layer("environment", "user", start.environment, "harness"))
        return layers


def _visible_description(description: str) -> str:
    """`truncate_skill_description`: over 1,024 characters, the first 1,021 and `...`."""
    if len(description) <= MAX_VISIBLE_DESCRIPTION:
        return description
    return description[: MAX_VISIBLE_DESCRIPTION - 3] + "..."
