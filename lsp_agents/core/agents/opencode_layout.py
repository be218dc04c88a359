"""The layout of opencode's agents, skills and commands (`OPENCODE_LAYOUT`); a fork has its own."""

from __future__ import annotations

from dataclasses import dataclass

from lsp_agents.core.harnesses.opencode import GLOBAL_CONFIG_NAMES, PROJECT_CONFIG_NAMES


@dataclass(frozen=True, slots=True)
class Layout:
    """What tells opencode's definitions and a fork's apart: names, folders and built-ins."""

    env: str  # prefix of the environment flags (`<env>_DISABLE_PROJECT_CONFIG`, …)
    config_folders: tuple[str, ...]  # the project's config folders in each directory of the chain
    global_config_names: tuple[str, ...]
    project_config_names: tuple[str, ...]
    builtin_agents: tuple[tuple[str, str], ...]  # (name, mode)
    builtin_skill: str
    builtin_skill_location: str
    default_agent: str
    home_folders: tuple[str, ...] = ()  # config folders of the home directory, after the project's
    agent_prompt_appended: bool = False  # the agent's prompt follows the provider prompt instead of replacing it
    # Without git, the `.claude` and `.agents` skills of the launch directory only, not its parents' (Kilo, GD-52).
    external_skills_stop_at_cwd: bool = False


OPENCODE_LAYOUT = Layout(
    "OPENCODE",
    (".opencode",),
    GLOBAL_CONFIG_NAMES,
    PROJECT_CONFIG_NAMES,
    (("build", "primary"), ("plan", "primary"), ("general", "subagent"), ("explore", "subagent")),
    "customize-opencode",
    "<built-in>",
    "build",
)
