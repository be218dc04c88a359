"""Gemini CLI's skills (@google/gemini-cli 0.61.0).

Skills: `SKILL.md` directly in, or one folder below, `~/.gemini/skills`, `~/.agents/skills`, then
(in a trusted folder) the launch directory's `.gemini/skills` and `.agents/skills`. A skill needs
a `name` and a `description` (read as YAML, else line by line); `:\\/<>*?"|` in a name become `-`.
A later location wins a name but keeps the first one's place in the listing, which goes into the
system instruction after the built-in skills; the body is sent when `activate_skill` loads it.
Within a folder the skills come in reverse name order, as the captures show.

Subagents (`.gemini/agents/*.md`) and commands (`.gemini/commands/*.toml`) are not sent at the
start of a session.
"""

from __future__ import annotations

import os
import re
from typing import ClassVar

from lsp_agents.core.agents.base import Definitions, StartText, base_layer, instruction_layers, skill_definition, unreadable_issue
from lsp_agents.core.agents.discovery import parse_definition
from lsp_agents.core.agents.model import Catalog, Definition, Delivery, Issue, Layer, Scope
from lsp_agents.core.harnesses import harness_model
from lsp_agents.core.harnesses.base import LaunchContext
from lsp_agents.core.harnesses.gemini import Gemini
from lsp_agents.core.model import Cascade

HEADER = (
    "# Available Agent Skills\n\nYou have access to the following specialized skills. To activate a skill and "
    "receive its detailed instructions, call the `activate_skill` tool with the skill's name."
)
_UNSAFE = re.compile(r'[:\\/<>*?"|]')


class GeminiDefinitions(Definitions):
    harness = "gemini"
    title = "Gemini CLI"
    evidence: ClassVar[dict[str, str]] = {
        "skills listing": "verified: built-in, user, then workspace skills, in the system instruction (0.61.0)",
        "precedence": "verified: `.agents/skills` over `.gemini/skills`, keeping the first one's place",
        "subagents": "verified: not sent at the start of a session",
    }

    def build(self, ctx: LaunchContext) -> Catalog:
        catalog = Catalog(self.harness, ctx.cwd)
        dirs = [(ctx.home_path(".gemini", "skills"), Scope.USER), (ctx.home_path(".agents", "skills"), Scope.USER)]
        if harness_model("gemini", Gemini).settings(ctx, Cascade(self.harness, ctx.cwd)).trusted:
            dirs += [
                (os.path.join(ctx.cwd, ".gemini", "skills"), Scope.PROJECT),
                (os.path.join(ctx.cwd, ".agents", "skills"), Scope.PROJECT),
            ]
        winners: dict[str, Definition] = {}
        for directory, scope in dirs:
            for path in self._skill_files(ctx, directory):
                skill = self._skill(ctx, path, scope)
                catalog.definitions.append(skill)
                if skill.dropped:
                    continue
                earlier = winners.get(skill.name)
                if earlier is not None and ctx.fs.realpath(earlier.path) != ctx.fs.realpath(path):
                    earlier.shadowed_by, earlier.delivery = path, Delivery.NOT_SENT
                winners[skill.name] = skill
        return catalog

    def _skill_files(self, ctx: LaunchContext, directory: str) -> list[str]:
        if not ctx.fs.is_dir(directory):
            return []
        candidates = [os.path.join(directory, "SKILL.md")]
        candidates += [os.path.join(directory, e, "SKILL.md") for e in sorted(ctx.fs.list_dir(directory), reverse=True)]
        return [p for p in candidates if ctx.fs.is_file(p)]

    def _skill(self, ctx: LaunchContext, path: str, scope: Scope) -> Definition:
        parsed = parse_definition(ctx.fs, path)
        name, description = parsed.text_field("name"), parsed.text_field("description")
        safe = _UNSAFE.sub("-", name or "")
        skill = skill_definition(
            self.harness,
            safe,
            path,
            scope,
            parsed,
            description=description,
            declared_name=name if name and name != safe else None,
        )
        issue = unreadable_issue(self.title, parsed, "skill")
        if issue is None and parsed.header and parsed.bom:  # `FRONTMATTER_REGEX` must match at the start, BOM kept (GD-20)
            issue = Issue("invalid-definition", "Gemini CLI does not load a skill whose header follows a byte-order mark")
        if issue is None and (not parsed.header or name is None or description is None):
            missing = [key for key, value in (("name", name), ("description", description)) if value is None]
            issue = Issue(
                "invalid-definition",
                "Gemini CLI does not load a skill without a `---` header"
                if not parsed.header
                else "Gemini CLI does not load a skill without " + " and ".join(f"`{key}`" for key in missing),
            )
        if issue is not None:
            skill.drop(issue)
        else:
            skill.delivery = Delivery.LISTED
        return skill

    def skills_listing(self, catalog: Catalog) -> str:
        lines = [HEADER, "", "<available_skills>", "  [Gemini CLI built-in skills]"]
        winners = {s.name: s for s in catalog.definitions if s.delivery == Delivery.LISTED}
        # A later location wins a name in the place where the name first appeared.
        for skill in (winners[n] for n in dict.fromkeys(s.name for s in catalog.definitions if s.name in winners)):
            lines += [
                "  <skill>",
                f"    <name>{skill.name}</name>",
                f"    <description>{skill.description}</description>",
                f"    <location>{skill.path}</location>",
                "  </skill>",
            ]
        return "\n".join([*lines, "</available_skills>"])

    def start_layers(self, ctx: LaunchContext, catalog: Catalog, start: StartText, agent: Definition | None) -> list[Layer]:
        layers = [base_layer("Gemini CLI", start, None), Layer("skills", "system", self.skills_listing(catalog), "mixed")]
        return layers + instruction_layers(start) + [Layer("environment", "user", start.environment, "harness")]
