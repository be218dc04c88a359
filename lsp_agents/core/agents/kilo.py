"""Kilo Code CLI's agents, skills and commands (@kilocode/cli 7.7.7): opencode's model with
Kilo's names, folders and built-ins (Kilo is an opencode fork; its bundle keeps opencode's code).

Read from the 7.7.7 binary's bundle: `ConfigPaths.directories` gives the config folders
`~/.config/kilo`, the `.kilocode` and `.kilo` folders from cwd up to the worktree, nearest first (unless
`KILO_DISABLE_PROJECT_CONFIG`), then `~/.kilocode` and `~/.kilo`, then `$KILO_CONFIG_DIR`: their
`{agent,agents}/**/*.md`, `{mode,modes}/*.md`, `{command,commands}/**/*.md` and
`{skill,skills}/**/SKILL.md`; `.opencode` folders are not read. `Skill.discovery` first takes
`skills/**/SKILL.md` of `~/.claude` and `~/.agents`, then of every `.claude` and `.agents` from cwd
to the worktree, without git cwd's alone (`adj`: `L.up({targets:u,start:f,stop:_})`, `_=M==="/"?f:M`;
GD-52) (`KILO_DISABLE_EXTERNAL_SKILLS`, `KILO_DISABLE_CLAUDE_CODE_SKILLS`). The built-in
skill is `kilo-config` (location `builtin`); the built-in agents are `code` (opencode's `build`,
renamed), `plan`, `debug`, `orchestrator` and `ask` (primary) and `general` and `explore`
(subagents). Listings and their places are opencode's (see `OpencodeDefinitions`), but an agent's
prompt follows Kilo's own prompt, on the line after it, where opencode's replaces the provider prompt.
"""

from __future__ import annotations

from typing import ClassVar

from lsp_agents.core.agents.opencode import OpencodeDefinitions
from lsp_agents.core.agents.opencode_layout import Layout
from lsp_agents.core.harnesses.kilo import GLOBAL_CONFIG_NAMES, PROJECT_CONFIG_NAMES, RULE_FOLDERS

KILO_LAYOUT = Layout(
    "KILO",
    RULE_FOLDERS[::-1],  # `.kilocode` before `.kilo` in each directory
    GLOBAL_CONFIG_NAMES,
    PROJECT_CONFIG_NAMES,
    (
        ("code", "primary"),
        ("plan", "primary"),
        ("general", "subagent"),
        ("explore", "subagent"),
        ("debug", "primary"),
        ("orchestrator", "primary"),
        ("ask", "primary"),
    ),
    "kilo-config",
    "builtin",
    "code",
    home_folders=RULE_FOLDERS[::-1],
    agent_prompt_appended=True,
    external_skills_stop_at_cwd=True,
)


class KiloDefinitions(OpencodeDefinitions):
    harness = "kilo"
    title = "Kilo Code CLI"
    layout: ClassVar[Layout] = KILO_LAYOUT
    evidence: ClassVar[dict[str, str]] = {
        "skills listing": "verified: opencode's, with `.kilo`/`.kilocode` skill folders and `kilo-config` (7.7.7)",
        "agents listing": "verified: `.kilo`, `.kilocode`, `~/.config/kilo` and kilo.json subagents in the task tool",
        "agent prompt": "verified: appended to Kilo's own prompt (opencode replaces its provider prompt)",
        "typed commands": "verified: `run --command NAME` as opencode",
        "config folder order": "verified: ~/.config/kilo, cwd's .kilocode and .kilo up to the worktree, ~/.kilocode, ~/.kilo; the last wins",
    }
