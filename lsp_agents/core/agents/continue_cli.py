"""Continue CLI's skills (@continuedev/cli 1.5.47; the package ships its TypeScript source).

Skills (src/util/loadMarkdownSkills.ts `loadMarkdownSkills`): the directories directly in
`cwd/.continue/skills`, `cwd/.claude/skills` and `$CONTINUE_GLOBAL_DIR/skills` (default
`~/.continue/skills`) that hold a `SKILL.md` (`readdir` entries that are directories: a symlink is
not followed), each needing a `name` and a `description` (`skillFrontmatterSchema`; a header
YAML rejects drops it, and a byte-order mark before the `---` leaves the file without a header,
`readFile` keeping it). Nothing above
cwd; two skills of one name are both kept. Only the Skills tool's description names them
(src/tools/skills.ts `skillsTool`): `\\nname: N\\ndescription: D\\n` per skill, joined by `,` (a
JavaScript array in a template string). The skills are pushed as their files finish reading
(`Promise.all`), so with more than a few the order is not fixed; lsp-agents gives directory order.

Prompts are the config's `prompts` (config.yaml) and invokable rules: sent when typed, not
modelled; `.continue/prompts` files are not read by the CLI.
"""

from __future__ import annotations

import os
from typing import ClassVar

from lsp_agents.core.agents.base import Definitions, StartText, base_layer, instruction_layers, skill_definition, unreadable_issue
from lsp_agents.core.agents.discovery import parse_definition
from lsp_agents.core.agents.model import Catalog, Definition, Delivery, Issue, Layer, Scope
from lsp_agents.core.harnesses import harness_model
from lsp_agents.core.harnesses.base import LaunchContext
from lsp_agents.core.harnesses.continue_cli import ContinueCli

TITLE = "Continue CLI"
SKILLS_TOOL = "[Continue Skills tool]"


class ContinueDefinitions(Definitions):
    harness = "continue"
    title = TITLE
    evidence: ClassVar[dict[str, str]] = {
        "skills listing": "verified: `.continue/skills`, `.claude/skills` of cwd and `~/.continue/skills` in the Skills "
        "tool's description (1.5.47); source: their order is the order their files finish reading",
        "skill loading": "verified: no `name` or no `description`: left out; a symlinked skill folder and skills two "
        "levels down: not read; two of one name: both listed",
        "prompts": "verified: `.continue/prompts` and invokable rules are not sent at the start",
        "typed commands": "verified: `cn -p` sends `/name args` as typed (a `.continue/prompts` file, an invokable "
        "rule); source: only the interactive UI runs `handleSlashCommands` (1.5.47)",
    }
    expands_typed_commands = False

    def build(self, ctx: LaunchContext) -> Catalog:
        catalog = Catalog(self.harness, ctx.cwd)
        home = harness_model(self.harness, ContinueCli).home_dir(ctx)
        folders = [
            (os.path.join(ctx.cwd, ".continue", "skills"), Scope.PROJECT),
            (os.path.join(ctx.cwd, ".claude", "skills"), Scope.PROJECT),
            (os.path.join(home, "skills"), Scope.USER),
        ]
        catalog.definitions = [
            self._skill(ctx, os.path.join(folder, entry, "SKILL.md"), scope)
            for folder, scope in folders
            for entry in ctx.fs.list_dir(folder)
            if self._real_directory(ctx, os.path.join(folder, entry)) and ctx.fs.is_file(os.path.join(folder, entry, "SKILL.md"))
        ]
        return catalog

    @staticmethod
    def _real_directory(ctx: LaunchContext, path: str) -> bool:
        return ctx.fs.is_dir(path) and ctx.fs.realpath(path) == os.path.join(
            ctx.fs.realpath(os.path.dirname(path)), os.path.basename(path)
        )

    def _skill(self, ctx: LaunchContext, path: str, scope: Scope) -> Definition:
        parsed = parse_definition(ctx.fs, path)
        name, description = parsed.text_field("name"), parsed.text_field("description")
        skill = skill_definition(
            self.harness,
            name or os.path.basename(os.path.dirname(path)),
            path,
            scope,
            parsed,
            description=description,
            body=parsed.body,
        )
        issue = unreadable_issue(TITLE, parsed, "skill")
        if issue is None and parsed.yaml_error is not None:  # `parseMarkdownRule` throws: the skill is skipped
            issue = Issue("invalid-definition", f"{TITLE} drops this skill: its header does not parse ({parsed.yaml_error})")
        if issue is None and parsed.bom and parsed.header:  # `parseMarkdownRule`: the text, BOM kept, must start with `---`
            issue = Issue("invalid-definition", f"{TITLE} reads no header after a byte-order mark: the skill has no `name`")
        if issue is None and (not name or not description):
            missing = [key for key, value in (("name", name), ("description", description)) if not value]
            issue = Issue("invalid-definition", f"{TITLE} drops a skill without " + " and ".join(f"`{k}`" for k in missing))
        if issue is not None:
            skill.drop(issue)
        else:
            skill.delivery = Delivery.LISTED
        return skill

    def skills_listing(self, catalog: Catalog) -> str:
        listed = [s for s in catalog.definitions if s.delivery == Delivery.LISTED]
        return SKILLS_TOOL + "\n" + ",".join(f"\nname: {s.name}\ndescription: {s.description}\n" for s in listed)

    def start_layers(self, ctx: LaunchContext, catalog: Catalog, start: StartText, agent: Definition | None) -> list[Layer]:
        return [
            base_layer(TITLE, start, None),
            *instruction_layers(start),
            Layer("environment", "system", start.environment, "harness"),
            Layer("skills", "tool", self.skills_listing(catalog), "mixed"),
        ]
