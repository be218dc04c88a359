"""Seeded generator of oracle scenarios: layouts nobody wrote a conformance scenario for.

`python tests/conformance/generate.py --seed N --per-harness K --out DIR [--harness H ...]` writes
DIR/<scenario>/{ws,home,scenario.json}, one harness per scenario, ready for `oracle batch`. Each
scenario is drawn from its harness's vocabulary (the names, folders, header fields, home files and
environment variables its model and its documentation speak of) plus shapes every harness meets:
case variants, nesting, launch directories, git or none, symlinks, imports, BOM/CRLF/empty files.
The same seed gives the same bytes. Nothing here looks at what lsp-agents outputs: the CLIs are
the judges (differential.py).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path

from session_extract import TYPED

from lsp_agents.core.agents import cline, copilot_cli, droid, kilo, opencode_agents, opencode_layout
from lsp_agents.core.harnesses import crush, openhands, openhands_skills

# Directories a file may sit in, and launch directories below the root (a package, deep below it, beside it).
DIRS = ("", "packages", "packages/api", "packages/api/src", "docs", "other")
NESTED_CWDS = ("packages/api", "packages/api/src", "other")
# Files a run reads: nested below instruction files, or beside them.
READS = (
    "packages/api/src/index.ts",
    "packages/api/util.ts",
    "other/notes.md",
    "docs/guide.md",
)
# Rule header globs: every form a header field takes (one pattern, a list, a braces set, a folder).
GLOBS = (
    "**/*.ts",
    "packages/api/**",
    "src/**/*.ts",
    "*.md",
    "**/*.{ts,md}",
    "packages/api/src/*.ts",
    "other/**",
    "**",
)
# Ways a file's bytes vary.
ENCODINGS = ("plain",) * 6 + (
    "bom",
    "crlf",
    "empty",
    "blank",
    "no-newline",
    "trailing-blank",
)
V1 = "http://127.0.0.1:18080/v1"
# Qwen writes ~/.qwen/output-language.md on its first run and sends it: a scenario holds the file as Qwen
# leaves it, so that the model sees what the CLI sent (the oracle's snapshot is taken before the run).
QWEN_OUTPUT_LANGUAGE = (Path(__file__).parent / "scenarios/qwen-home-env/home/.qwen/output-language.md").read_bytes()
# Harnesses that refuse to read a file outside the launch directory (claude -p, gemini's workspace):
# their runs read below the launch directory only.
READS_BELOW_CWD = {"claude", "gemini"}
# Those that refuse it without git only: Kilo's read tool asks before it reads outside the launch
# directory and the worktree (`Tool.assertExternalDirectory`), no worktree without git (`/` does not
# count), and `kilo run` rejects what it would ask and exits 1: nothing to compare (FINDINGS GD-36).
READS_BELOW_CWD_WITHOUT_GIT = {"kilo"}


@dataclass(frozen=True)
class Vocabulary:
    """What one harness reads: project file names (case variants and legacy names included), rule
    folders and the header field that scopes their files, home files, and environment variables
    that move its folder (with the config the oracle would otherwise merge into the default one)."""

    names: tuple[str, ...]
    rule_folders: tuple[str, ...] = ()
    rule_field: str | None = None  # paths / applyTo / globs
    rule_suffix: str = ".md"
    home_files: tuple[str, ...] = ()
    # (variable, default folder below HOME, the folder it moves to, files to write there)
    home_env: tuple[tuple[str, str, str, dict[str, str]], ...] = ()
    flags: tuple[tuple[str, str], ...] = ()  # environment flags the model honours
    imports: bool = False
    extra: tuple[str, ...] = ()  # names of the other harnesses, to see that they are left alone


QWEN_SETTINGS = json.dumps(
    {
        "security": {
            "auth": {"selectedType": "openai"},
            "folderTrust": {"enabled": False},
        },
        "general": {"disableAutoUpdate": True},
        "telemetry": {"enabled": False},
    }
)
# What the oracle writes into `~/.gemini/settings.json`, for a `$GEMINI_CLI_HOME` that moves it (GD-91).
GEMINI_SETTINGS = {
    "security": {"folderTrust": {"enabled": False}, "auth": {"selectedType": "gemini-api-key"}},
    "general": {"disableAutoUpdate": True, "disableUpdateNag": True},
    "privacy": {"usageStatisticsEnabled": False},
    "telemetry": {"enabled": False},
}
# What a Copilot CLI folder list variable names (`{kind}`: instructions, skills), and the instruction files
# drawn in its folders.
COPILOT_DIR_VALUES = (
    "{{WS}}/extra-{kind}",
    "extra-{kind}",
    "{{HOME}}/team-{kind}",
    " {{WS}}/extra-{kind} ,{{HOME}}/team-{kind}",
    "{{WS}}/missing-{kind}",
)
COPILOT_DIR_FILES = (".github/copilot-instructions.md", "AGENTS.md", "CLAUDE.md", ".github/instructions/e.instructions.md")
GEMINI_HOME = "alt-gemini"
MOVED_SKILL = b"---\nname: moved-skill\ndescription: MOVED-SKILL-MARKER below the moved home\n---\nMoved.\n"
# droid's home moved by `$FACTORY_HOME_OVERRIDE`, and the settings the oracle writes into `~/.factory`.
DROID_HOME = "alt-factory"
DROID_SETTINGS = json.dumps(
    {
        "customModels": [
            {
                "model": "rec-model",
                "displayName": "Recorder",
                "baseUrl": "http://127.0.0.1:18080/v1",
                "apiKey": "sk-fake-recorder",
                "provider": "generic-chat-completion-api",
                "maxOutputTokens": 4096,
            }
        ]
    }
).encode()
PI_MODELS = json.dumps(
    {
        "providers": {
            "recorder": {
                "baseUrl": V1,
                "api": "openai-completions",
                "apiKey": "sk-fake-recorder",
                "models": [{"id": "rec-model"}],
            }
        }
    }
)
# OpenHands: its skill folders (`.agents/skills`, `.openhands/skills`, `.openhands/microagents`) and the
# models a run names (LLM_MODEL): one of each family the model-family filter tells apart, and none
# (the oracle's `openai/rec-model`). Not `openai/o3-mini` or `gemini/gemini-2.0-flash`: LiteLLM sends those
# the system prompt as a user message (FINDINGS OH-7).
OPENHANDS_FOLDERS = tuple("/".join(parts) for parts in openhands_skills.SKILL_FOLDERS)
OPENHANDS_MODELS = (
    "openai/gpt-4.1",
    "anthropic/claude-3-5-haiku-20241022",
    "gemini/gemini-2.5-pro",
    "openai/Qwen3-Coder",
)
CODEX_CONFIG = (
    f'model = "gpt-5-codex"\nmodel_provider = "recorder"\ncheck_for_update_on_startup = false\n\n'
    f'[model_providers.recorder]\nname = "Recorder"\nbase_url = "{V1}"\nenv_key = "RECORDER_API_KEY"\n'
    'wire_api = "responses"\n\n[analytics]\nenabled = false\n\n[feedback]\nenabled = false\n'
)

VOCABULARY = {
    "claude": Vocabulary(
        names=(
            "CLAUDE.md",
            "CLAUDE.local.md",
            "AGENTS.md",
            "claude.md",
            "CLAUDE.MD",
            ".claude/CLAUDE.md",
        ),
        rule_folders=(".claude/rules", ".claude/rules/sub"),
        rule_field="paths",
        home_files=(".claude/CLAUDE.md", ".claude/rules/home-rule.md"),
        home_env=(("CLAUDE_CONFIG_DIR", ".claude", "alt-claude", {}),),
        imports=True,
        extra=("GEMINI.md", ".cursorrules"),
    ),
    "codex": Vocabulary(
        names=(
            "AGENTS.md",
            "AGENTS.override.md",
            "agents.md",
            "AGENTS.MD",
            "TEAM.md",
            "CLAUDE.md",
        ),
        home_files=(".codex/AGENTS.md", ".codex/AGENTS.override.md"),
        home_env=(("CODEX_HOME", ".codex", "alt-codex", {"config.toml": CODEX_CONFIG}),),
        extra=("GEMINI.md",),
    ),
    "opencode": Vocabulary(
        names=("AGENTS.md", "CLAUDE.md", "CONTEXT.md", "agents.md", "AGENTS.MD"),
        home_files=(
            ".config/opencode/AGENTS.md",
            ".claude/CLAUDE.md",
            ".agents/AGENTS.md",
        ),
        flags=(
            ("OPENCODE_DISABLE_CLAUDE_CODE", "1"),
            ("OPENCODE_DISABLE_CLAUDE_CODE_PROMPT", "1"),
            ("OPENCODE_DISABLE_PROJECT_CONFIG", "1"),
        ),
        extra=("GEMINI.md",),
    ),
    "gemini": Vocabulary(
        names=("GEMINI.md", "gemini.md", "AGENTS.md", "GEMINI.MD", ".gemini/GEMINI.md"),
        home_files=(".gemini/GEMINI.md",),
        imports=True,
        extra=("CLAUDE.md",),
    ),
    "pi": Vocabulary(
        names=(
            "AGENTS.md",
            "AGENTS.MD",
            "CLAUDE.md",
            "CLAUDE.MD",
            "agents.md",
            "Agents.md",
        ),
        home_files=(".pi/agent/AGENTS.md", ".pi/agent/CLAUDE.md"),
        home_env=(("PI_CODING_AGENT_DIR", ".pi/agent", "alt-pi", {"models.json": PI_MODELS}),),
        extra=("GEMINI.md",),
    ),
    "copilot-cli": Vocabulary(
        names=(
            "AGENTS.md",
            "CLAUDE.md",
            "GEMINI.md",
            "agents.md",
            "Claude.md",
            ".github/copilot-instructions.md",
        ),
        rule_folders=(".github/instructions", ".github/instructions/sub"),
        rule_field="applyTo",
        rule_suffix=".instructions.md",
        home_files=(
            ".copilot/copilot-instructions.md",
            ".copilot/instructions/home.instructions.md",
            ".claude/CLAUDE.md",
        ),
        home_env=(("COPILOT_HOME", ".copilot", "alt-copilot", {}),),
        imports=True,
        extra=("QWEN.md",),
    ),
    "qwen": Vocabulary(
        names=(
            "QWEN.md",
            "AGENTS.md",
            "AGENTS.MD",
            "qwen.md",
            ".qwen/QWEN.local.md",
            "CLAUDE.md",
        ),
        rule_folders=(".qwen/rules", ".qwen/rules/sub"),
        rule_field="paths",
        home_files=(".qwen/QWEN.md", ".qwen/AGENTS.md", ".qwen/rules/home-rule.md"),
        home_env=(("QWEN_HOME", ".qwen", "alt-qwen", {"settings.json": QWEN_SETTINGS}),),
        imports=True,
        extra=("GEMINI.md",),
    ),
    "kilo": Vocabulary(
        names=("AGENTS.md", "CLAUDE.md", "CONTEXT.md", ".kilocoderules", "agents.md"),
        rule_folders=(".kilocode/rules", ".kilo/rules"),
        home_files=(
            ".config/kilo/AGENTS.md",
            ".claude/CLAUDE.md",
            ".config/kilo/rules/home-rule.md",
        ),
        flags=(
            ("KILO_DISABLE_CLAUDE_CODE", "1"),
            ("KILO_DISABLE_CLAUDE_CODE_PROMPT", "1"),
        ),
        extra=("GEMINI.md",),
    ),
    "droid": Vocabulary(
        names=("AGENTS.md", "CLAUDE.md", "agents.md", "AGENTS.MD", "CLAUDE.local.md"),
        home_files=(".factory/AGENTS.md", ".agents/AGENTS.md", ".factory/CLAUDE.md"),
        extra=("GEMINI.md",),
    ),
    "continue": Vocabulary(
        names=("AGENTS.md", "AGENT.md", "CLAUDE.md", "CODEX.md", "agents.md"),
        rule_folders=(".continue/rules", ".continue/rules/sub"),
        rule_field="globs",
        home_files=(".continue/rules/home-rule.md", ".continue/rules/home-two.md"),
        home_env=(("CONTINUE_GLOBAL_DIR", ".continue", "alt-continue", {}),),
        extra=("GEMINI.md",),
    ),
    "cline": Vocabulary(
        names=("AGENTS.md", ".clinerules", "agents.md", "CLAUDE.md"),
        rule_folders=(".clinerules", ".clinerules/sub", ".cline/rules"),
        rule_field="paths",
        home_files=(
            ".cline/rules/home-rule.md",
            ".agents/AGENTS.md",
            "Cline/Rules/doc-rule.md",
            "Documents/Cline/Rules/doc-rule.md",
        ),
        extra=("GEMINI.md",),
    ),
    "openhands": Vocabulary(
        # the names its loader matches in any case: as documented, as it lowers them, and swapped
        names=(
            *openhands.SPEC.instruction_names,
            *openhands_skills.THIRD_PARTY,
            *(name.swapcase() for name in openhands.SPEC.instruction_names),
            f"{OPENHANDS_FOLDERS[2]}/repo.md",
        ),
        rule_folders=(*OPENHANDS_FOLDERS, f"{OPENHANDS_FOLDERS[1]}/sub"),
        rule_field="triggers",  # a file with triggers is listed in <SKILLS>, not sent
        home_files=tuple(f"{folder}/home-note.md" for folder in OPENHANDS_FOLDERS),
        flags=(
            *(("LLM_MODEL", model) for model in OPENHANDS_MODELS),
            ("OPENHANDS_WORK_DIR", "{WS}/packages/api"),
        ),
        imports=True,
        extra=("QWEN.md", "CONTEXT.md"),
    ),
    "crush": Vocabulary(
        # its context paths in every spelling it lists (the folder's files are rules), and the user's files
        names=tuple(name for name in crush.CONTEXT_PATHS if not name.endswith("/")),
        rule_folders=(".cursor/rules", ".cursor/rules/sub"),
        home_files=(".config/crush/CRUSH.md", ".config/AGENTS.md", ".config/crush/crush.md"),
        extra=("QWEN.md", "CONTEXT.md", "claude.md"),
    ),
}


@dataclass(frozen=True)
class DefinitionVocabulary:
    """Where one harness's definitions model looks at the start of a session: folders holding
    `<name>/SKILL.md`, agent files and command files, below a project directory and below HOME
    (a HOME folder that an environment variable of `Vocabulary.home_env` moves follows it)."""

    skills: tuple[str, ...]
    home_skills: tuple[str, ...]
    agents: tuple[str, ...] = ()
    home_agents: tuple[str, ...] = ()
    agent_suffixes: tuple[str, ...] = (".md",)
    agent_name_field: bool = True  # the agent's name is a header field (else the file's name)
    modes: tuple[str, ...] = ()  # opencode's `mode` values
    commands: tuple[str, ...] = ()
    home_commands: tuple[str, ...] = ()


def _opencode_definitions(layout: opencode_layout.Layout, config_home: str) -> DefinitionVocabulary:
    """opencode's and Kilo's folders: the layout's config folders (`skill`/`skills`, `agent`/`agents`)
    in the project and the config home, and the `.claude`/`.agents` skills folders."""
    shared = (".claude/skills", ".agents/skills")
    return DefinitionVocabulary(
        skills=(*(f"{f}/{s}" for f in layout.config_folders for s in ("skill", "skills")), *shared),
        home_skills=(f"{config_home}/skills", *(f"{f}/skills" for f in layout.home_folders), *shared),
        agents=tuple(f"{f}/{a}" for f in layout.config_folders for a in ("agent", "agents")),
        home_agents=(f"{config_home}/agent", f"{config_home}/agents"),
        agent_name_field=False,
        modes=opencode_agents.MODES,
    )


DEFINITIONS = {
    "claude": DefinitionVocabulary(
        skills=(".claude/skills",),
        home_skills=(".claude/skills",),
        agents=(".claude/agents",),
        home_agents=(".claude/agents",),
        commands=(".claude/commands",),
        home_commands=(".claude/commands",),
    ),
    "codex": DefinitionVocabulary(skills=(".agents/skills",), home_skills=(".codex/skills", ".agents/skills")),
    "opencode": _opencode_definitions(opencode_layout.OPENCODE_LAYOUT, ".config/opencode"),
    "kilo": _opencode_definitions(kilo.KILO_LAYOUT, ".config/kilo"),
    "gemini": DefinitionVocabulary(skills=(".gemini/skills", ".agents/skills"), home_skills=(".gemini/skills", ".agents/skills")),
    "qwen": DefinitionVocabulary(
        skills=(".qwen/skills", ".agents/skills"),
        home_skills=(".qwen/skills", ".agents/skills"),
        agents=(".qwen/agents",),
        home_agents=(".qwen/agents",),
        commands=(".qwen/commands",),
        home_commands=(".qwen/commands",),
    ),
    "pi": DefinitionVocabulary(skills=(".pi/skills", ".agents/skills"), home_skills=(".pi/agent/skills", ".agents/skills")),
    "copilot-cli": DefinitionVocabulary(
        skills=tuple(f"{f}/skills" for f in copilot_cli.SKILL_FOLDERS),
        home_skills=(".copilot/skills", ".agents/skills"),
        agents=tuple(f"{f}/agents" for f in copilot_cli.AGENT_FOLDERS),
        home_agents=(".copilot/agents",),
        agent_suffixes=(".agent.md", ".md"),
        commands=(".claude/commands",),
    ),
    "droid": DefinitionVocabulary(
        skills=tuple(f"{f}/skills" for f in droid.SKILL_FOLDERS),
        home_skills=tuple(f"{f}/skills" for f in droid.SKILL_FOLDERS),
        agents=(".factory/droids",),
        home_agents=(".factory/droids",),
    ),
    "cline": DefinitionVocabulary(
        skills=tuple(f"{f}/skills" for f in cline.SKILL_FOLDERS), home_skills=(".cline/skills", ".agents/skills")
    ),
    "continue": DefinitionVocabulary(skills=(".continue/skills", ".claude/skills"), home_skills=(".continue/skills",)),
    "openhands": DefinitionVocabulary(
        skills=OPENHANDS_FOLDERS, home_skills=(*OPENHANDS_FOLDERS, f"{OPENHANDS_FOLDERS[1]}/installed")
    ),
}
# What an opencode or Kilo config's `instructions` names: a glob, a project file, a glob below a folder, a
# file in home by its absolute path.
INSTRUCTION_ENTRIES = ["docs/*.md", "TEAM.md", "packages/**/RULES.md", "{HOME}/notes.md"]


def _env_config_files(flavor: str) -> tuple[tuple[str, str, str], ...]:
    """Where the file `$<FLAVOR>_CONFIG` names is written (FINDINGS.md GD-50): in the project, the project's own
    config, relative (opened from the launch directory), in home, and a file that is not there."""
    extra = f"cfg/{flavor}-extra.json"
    return (
        (f"{{WS}}/{extra}", "ws", extra),
        (f"{{WS}}/{flavor}.json", "ws", f"{flavor}.json"),
        (extra, "ws", extra),
        (f"{{HOME}}/alt/{flavor}-extra.json", "home", f"alt/{flavor}-extra.json"),
        ("{WS}/cfg/missing.json", "", ""),
    )


KILO_CONFIG_FILES = _env_config_files("kilo")
OPENCODE_CONFIG_FILES = _env_config_files("opencode")
# The agent an `OPENCODE_CONFIG` file or `OPENCODE_CONFIG_CONTENT` at times defines.
ENV_CONFIG_AGENT = {"description": "ENV-AGENT-MARKER an agent of an environment config", "mode": "subagent"}
# Cline's header lines that the `yaml` package (YAML 1.2, unique keys) reads otherwise than PyYAML (FINDINGS.md
# GD-60, GD-61), and where `$CLINE_DIR` puts Cline's folder (GD-62): in home, the project's `.cline`, relative.
CLINE_HEADER_LINES = (
    "name: yes",
    "name: on",
    "name: 1e3",
    "name: 2024-01-01",
    "disabled: no",
    "enabled: off",
    "disabled: True",
    "description: 5",
    "description: 2024-01-01",
    "name: twice\nname: twice",
    "description: a\ndescription: b",
)
CLINE_DIRS = ("{HOME}/alt-cline", "{HOME}/alt-cline", "{WS}/.cline", "cfg")
CLINE_DIR_FILES = {
    "rules/moved-rule.md": "MOVED-RULE-MARKER in CLINE_DIR.\n",
    "skills/moved-skill/SKILL.md": "---\ndescription: a moved skill\n---\nMOVED-SKILL-MARKER body.\n",
    "workflows/moved-flow.md": "MOVED-WORKFLOW-MARKER body.\n",
    "agents/moved-agent.yml": "---\nname: moved-agent\ndescription: a moved agent\n---\nMOVED-AGENT-MARKER prompt.\n",
}
# Definition names: valid ones, and ones some harnesses refuse (capitals, underscore, colon, dot).
DEFINITION_NAMES = (
    "lint-fix",
    "review",
    "db-migrate",
    "release-notes",
    "deploy",
    "test-writer",
    "Docs_Writer",
    "ns:tool",
    "v1.2",
)
# What a definition's header looks like: mostly valid; a required field missing, YAML that does not
# parse, a header name unlike the folder's, a long or folded description, no header at all.
DEFINITION_SHAPES = ("valid",) * 5 + ("no-description", "no-name", "broken-yaml", "renamed", "long", "folded", "no-header")
# Where a project definition folder sits: the root, a package (the launch directory or its parent).
DEFINITION_BASES = ("", "", "packages", "packages/api")


@dataclass
class Scenario:
    """A workspace and home being drawn: {relative path: bytes} and {relative path: link target}."""

    ws: dict[str, bytes] = field(default_factory=dict)
    home: dict[str, bytes] = field(default_factory=dict)
    ws_links: dict[str, str] = field(default_factory=dict)
    home_links: dict[str, str] = field(default_factory=dict)

    def free(self, rel: str) -> bool:
        """No file or link at `rel`, none below it, and none where a folder of it should be."""
        taken = [*self.ws, *self.ws_links]
        return all(rel != t and not t.startswith(rel + "/") and not rel.startswith(t + "/") for t in taken)

    def write(self, dest: Path, config: dict) -> None:
        for root, files, links in (
            ("ws", self.ws, self.ws_links),
            ("home", self.home, self.home_links),
        ):
            (dest / root).mkdir(parents=True, exist_ok=True)
            for rel, data in sorted(files.items()):
                path = dest / root / rel
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(data)
            for rel, target in sorted(links.items()):
                path = dest / root / rel
                path.parent.mkdir(parents=True, exist_ok=True)
                os.symlink(target, path)
        (dest / "scenario.json").write_text(json.dumps(config, indent=1) + "\n")


def _encode(rng: random.Random, lines: list[str]) -> bytes:
    form = rng.choice(ENCODINGS)
    if form == "empty":
        return b""
    if form == "blank":
        return rng.choice([b"\n", b"  \n\t\n", b"\r\n \r\n"])
    text = "\n".join(lines) + "\n"
    if form == "no-newline":
        text = text.rstrip("\n")
    elif form == "trailing-blank":
        text += "\n  \n"
    elif form == "crlf":
        text = text.replace("\n", "\r\n")
    data = text.encode()
    return b"\xef\xbb\xbf" + data if form == "bom" else data


def _body(rng: random.Random, marker: str, imports: list[str]) -> list[str]:
    lines = [
        f"# {marker}",
        "",
        f"{marker} line: keep this instruction in mind when working here.",
    ]
    if rng.random() < 0.3:
        lines += ["", "```", f"@not-an-import-in-code-{marker}.md", "```"]
    if rng.random() < 0.2:
        lines += ["<!-- a comment that some harnesses strip -->"]
    return lines + imports


def _imports(rng: random.Random, sc: Scenario, owner: str) -> list[str]:
    """Import lines for a file at `owner`: nested, cyclic, with trailing punctuation, outside the project, missing."""
    base = os.path.dirname(owner)
    lines = []
    for _ in range(rng.randint(1, 3)):
        kind = rng.choice(("sibling", "nested", "cycle", "punct", "home", "missing", "abs", "dotdot"))
        if kind == "sibling":
            target = os.path.join(base, "notes/extra.md")
            lines.append(
                rng.choice(
                    (
                        "@notes/extra.md",
                        "@./notes/extra.md",
                        "See @notes/extra.md for more",
                    )
                )
            )
            sc.ws.setdefault(
                target,
                _encode(rng, [f"IMPORTED-{target}-MARKER is imported.", "@deeper.md"]),
            )
            sc.ws.setdefault(
                os.path.join(base, "notes/deeper.md"),
                f"DEEPER-{base}-MARKER nested import.\n".encode(),
            )
        elif kind == "nested":
            lines.append("@docs/guide-import.md")
            sc.ws.setdefault(
                "docs/guide-import.md",
                b"GUIDE-IMPORT-MARKER from docs.\n@../docs/third.md\n",
            )
            sc.ws.setdefault("docs/third.md", b"THIRD-IMPORT-MARKER, two levels down.\n")
        elif kind == "cycle":
            lines.append("@cycle-a.md")
            sc.ws.setdefault(
                os.path.join(base, "cycle-a.md"),
                f"CYCLE-A-MARKER in {base or 'root'}.\n@cycle-b.md\n".encode(),
            )
            sc.ws.setdefault(
                os.path.join(base, "cycle-b.md"),
                f"CYCLE-B-MARKER in {base or 'root'}.\n@cycle-a.md\n".encode(),
            )
        elif kind == "punct":
            name = rng.choice(("punct.md.", "punct.md,", "punct.md)", "punct.md:"))
            lines.append(f"Read @{name} first")
            sc.ws.setdefault(
                os.path.join(base, "punct.md"),
                b"PUNCT-IMPORT-MARKER with trailing punctuation.\n",
            )
        elif kind == "home":
            lines.append("@~/shared-notes.md")
            sc.home.setdefault("shared-notes.md", b"HOME-IMPORT-MARKER outside the project.\n")
        elif kind == "missing":
            lines.append(rng.choice(("@missing-file.md", "@gone/away.md")))
        elif kind == "abs":
            lines.append("@/tmp/oracle/ws/docs/absolute.md")
            sc.ws.setdefault("docs/absolute.md", b"ABSOLUTE-IMPORT-MARKER by absolute path.\n")
        else:
            lines.append("@../outside-the-project.md")
    return lines


def _frontmatter(rng: random.Random, field_name: str | None, harness: str) -> list[str]:
    """A rule header drawn from every field the harness's rules know, or none."""
    if rng.random() < 0.25:
        return []
    lines = ["---"]
    if rng.random() < 0.4:
        lines.append("description: a generated rule")
    if harness == "cline" and rng.random() < 0.3:
        lines.append(f"name: named-rule-{rng.randint(1, 3)}")
    if harness == "cline" and rng.random() < 0.15:
        lines.append(rng.choice(("disabled: true", "disabled: false", "enabled: false")))
    if harness == "continue":
        if rng.random() < 0.5:
            lines.append(f"alwaysApply: {rng.choice(('true', 'false'))}")
        if rng.random() < 0.3:
            lines.append(f"name: Rule {rng.randint(1, 3)}")
    if harness == "openhands":
        lines += _openhands_fields(rng)
    if field_name and rng.random() < 0.7:
        form = rng.choice(("one", "quoted", "list", "inline-list", "comma"))
        globs = rng.sample(GLOBS, 2)
        if form == "one":
            lines.append(f"{field_name}: {globs[0]}")
        elif form == "quoted":
            lines.append(f'{field_name}: "{globs[0]}"')
        elif form == "list":
            lines += [f"{field_name}:", *(f'  - "{g}"' for g in globs)]
        elif form == "inline-list":
            lines.append(f"{field_name}: [{', '.join(repr(g) for g in globs)}]")
        else:
            lines.append(f'{field_name}: "{",".join(globs)}"')
    if len(lines) == 1 and rng.random() < 0.5:
        return ["---", "---"]
    return [*lines, "---"]


def _openhands_fields(rng: random.Random) -> list[str]:
    """The other fields of an OpenHands skill header: a `name` (one a root file or another skill holds,
    one YAML reads as a number or a boolean, one the model-family filter knows), `inputs` (a task),
    a `description` that is not a string (the whole folder is dropped)."""
    lines = []
    if rng.random() < 0.35:
        lines.append(f"name: {rng.choice(('agents', 'shared-name', 'Claude', 'gemini', '123', 'yes', 'sub/nested'))}")
    if rng.random() < 0.15:
        lines += rng.choice((["inputs:", "  - name: target", "    description: what to act on"], ["inputs: []"]))
    if rng.random() < 0.05:
        lines.append("description: 5")
    return lines


def _place(rng: random.Random, name: str) -> str:
    directory = rng.choice(DIRS)
    if name.startswith((".github/", ".qwen/")) or name == ".clinerules":
        directory = rng.choice(("", "", "packages/api"))
    return os.path.join(directory, name)


def draw(rng: random.Random, harness: str, definitions: random.Random) -> tuple[Scenario, dict]:
    """A scenario of `harness`: instruction files drawn with `rng`, definitions with `definitions` (a
    stream of its own, so that a seed's instruction files stay those it drew before definitions existed)."""
    vocab = VOCABULARY[harness]
    sc = Scenario()
    for read in READS:
        sc.ws[read] = f"// {read}\nexport const path = {read!r};\n".encode()  # no line shared with another file
    sc.ws["README.md"] = b"# project readme, not an instruction file\n"
    # Project instruction files: the harness's names, in random directories, some twice.
    names = [*vocab.names, *vocab.extra]
    for index in range(rng.randint(2, 6)):
        rel = _place(rng, rng.choice(names))
        if not sc.free(rel):
            continue
        imports = _imports(rng, sc, rel) if vocab.imports and rng.random() < 0.5 else []
        sc.ws[rel] = _encode(rng, _body(rng, f"P{index}-{rel.replace('/', '_')}-MARKER", imports))
    # Rule folders, with every header field form.
    for folder in vocab.rule_folders:
        for index in range(rng.choice((0, 0, 1, 2, 3))):
            base = rng.choice(("", "", "packages/api"))
            stem = rng.choice(("style", "testing", "Zeta", "alpha", "b-rule"))
            rel = os.path.join(base, folder, f"{stem}{index}{vocab.rule_suffix}")
            if not sc.free(rel):
                continue
            lines = [
                *_frontmatter(rng, vocab.rule_field, harness),
                f"RULE-{rel.replace('/', '_')}-MARKER applies.",
            ]
            sc.ws[rel] = _encode(rng, lines)
    if vocab.rule_folders and rng.random() < 0.15 and sc.free(os.path.join(vocab.rule_folders[0], "notes.txt")):
        sc.ws[os.path.join(vocab.rule_folders[0], "notes.txt")] = b"TXT-RULE-MARKER in a non-markdown file.\n"
    # Home files, sometimes moved by the environment variable the model honours.
    env: dict[str, str] = {}
    for index, rel in enumerate(vocab.home_files):
        if rng.random() < 0.6:
            if vocab.rule_field and ("rules/" in rel or "instructions/" in rel):
                lines = [
                    *_frontmatter(rng, vocab.rule_field, harness),
                    f"HOME{index}-RULE-MARKER global rule.",
                ]
            else:
                lines = _body(rng, f"HOME{index}-{rel.replace('/', '_')}-MARKER", [])
            sc.home[rel] = _encode(rng, lines)
    if vocab.home_env and rng.random() < 0.35:
        variable, default, folder, files = rng.choice(vocab.home_env)
        env[variable] = f"{{HOME}}/{folder}"
        for rel, text in files.items():
            sc.home[f"{folder}/{rel}"] = text.encode()
        for rel in vocab.home_files:
            moved = folder + rel.removeprefix(default)
            if rel.startswith(default + "/") and rng.random() < 0.7:
                sc.home[moved] = _encode(rng, _body(rng, f"MOVED-{moved.replace('/', '_')}-MARKER", []))
    for variable, value in vocab.flags:
        if rng.random() < 0.2:
            env[variable] = value
    _configs(rng, harness, sc, env)
    _symlinks(rng, sc, vocab)
    _definitions(definitions, harness, sc, env)
    if harness == "qwen":
        folder = env.get("QWEN_HOME", "{HOME}/.qwen").removeprefix("{HOME}/")
        sc.home[f"{folder}/output-language.md"] = QWEN_OUTPUT_LANGUAGE
    git = rng.random() < 0.8
    if harness == "openhands" and not git and rng.random() < 0.5:
        # a `.git` file (a worktree's or a submodule's) marks a git root too
        folder = rng.choice(("", "packages", "packages/api"))
        sc.ws[os.path.join(folder, ".git")] = f"gitdir: /nonexistent/{folder or 'root'}\n".encode()
    runs = _runs(rng, harness, sc, env, git) + _typed_runs(definitions, harness, sc, env)
    # The environment variables drawn last: the other CLIs' draws stay as they were.
    last_env = {
        "kilo": _kilo_config_env,
        "copilot-cli": _copilot_dirs_env,
        "droid": _droid_home_env,
        "gemini": _gemini_home_env,
        "opencode": _opencode_config_env,
    }.get(harness)
    if last_env is not None and (extra := last_env(rng, sc)):
        runs = [{**run, "env": {**run.get("env", {}), **extra}} for run in runs]
    if harness == "cline":  # drawn last: the other CLIs' draws stay as they were
        extra, typed = _cline_extras(rng, sc)
        runs = [{**run, "env": {**run.get("env", {}), **extra}} if extra else run for run in runs]
        runs += [{"id": "cline-t1", "harness": harness, "cwd": ".", "env": {**extra, "ORACLE_TYPED": typed}}] if typed else []
    return sc, {"git": git, "runs": runs}


def _configs(rng: random.Random, harness: str, sc: Scenario, env: dict[str, str]) -> None:
    """The settings each model reads that change which files are loaded (fallback names, byte budget,
    context file names, instruction globs, Claude's approval of imports outside the launch directory)."""
    if harness == "codex" and rng.random() < 0.4:
        lines = ['project_doc_fallback_filenames = ["TEAM.md", "CLAUDE.md"]'] if rng.random() < 0.7 else []
        if rng.random() < 0.4:
            lines.append(f"project_doc_max_bytes = {rng.choice((0, 40, 120, 300))}")
        moved = env.get("CODEX_HOME")
        rel = "alt-codex/config.toml" if moved else ".codex/config.toml"
        sc.home[rel] = ("\n".join(lines) + "\n" + (CODEX_CONFIG if moved else "")).encode()
    elif harness in ("gemini", "qwen") and rng.random() < 0.35:
        names = rng.choice(
            (
                ["AGENTS.md", "GEMINI.md"],
                "AGENTS.md",
                ["CONTEXT.md", "QWEN.md"],
                ["TEAM.md"],
            )
        )
        settings = {"context": {"fileName": names}}
        if harness == "qwen":
            settings = {**json.loads(QWEN_SETTINGS), **settings}
            folder = "alt-qwen" if "QWEN_HOME" in env else ".qwen"
        else:
            folder = ".gemini"
        sc.home[f"{folder}/settings.json"] = json.dumps(settings).encode()
        sc.ws.setdefault("TEAM.md", b"TEAM-MARKER a custom context file name.\n")
    elif harness in ("opencode", "kilo") and rng.random() < 0.35:
        sc.home[f".config/{harness}/{harness}.json"] = _instructions_config(rng, sc)
    elif harness == "claude" and rng.random() < 0.3:
        approval = {
            "hasClaudeMdExternalIncludesApproved": True,
            "hasClaudeMdExternalIncludesWarningShown": True,
        }
        sc.home[".claude.json"] = json.dumps({"projects": {"{WS}": approval}}).encode()


def _instructions_config(rng: random.Random, sc: Scenario) -> bytes:
    """An opencode or Kilo config with two `instructions` entries (a glob, a file of the project, a glob
    below a folder, an absolute path in home); the files they name are added to the scenario."""
    config = {"instructions": rng.sample(INSTRUCTION_ENTRIES, 2)}
    sc.ws.setdefault("TEAM.md", b"TEAM-MARKER named by the instructions setting.\n")
    sc.ws.setdefault("packages/api/RULES.md", b"RULES-GLOB-MARKER matched by a glob.\n")
    sc.home.setdefault("notes.md", b"HOME-NOTES-MARKER named by an absolute path.\n")
    return json.dumps(config).encode()


def _kilo_config_env(rng: random.Random, sc: Scenario) -> dict[str, str]:
    """Kilo's config variables (FINDINGS.md GD-50), each at times: `KILO_CONFIG` naming a file in the
    project, in home, relative to the launch directory (so missing from a subfolder) or missing;
    `KILO_CONFIG_CONTENT`, a config itself. Both are trusted like the user's config."""
    env = {}
    if rng.random() < 0.3:
        env["KILO_CONFIG"], root, rel = rng.choice(KILO_CONFIG_FILES)
        if root == "home":
            sc.home[rel] = _instructions_config(rng, sc)
        elif root == "ws" and sc.free(rel):  # the oracle fills in {HOME} in home's files only
            sc.ws[rel] = _instructions_config(rng, sc).replace(b"{HOME}/", b"~/")
    if rng.random() < 0.15:
        env["KILO_CONFIG_CONTENT"] = _instructions_config(rng, sc).decode()
    return env


def _copilot_dirs_env(rng: random.Random, sc: Scenario) -> dict[str, str]:
    """Copilot CLI's folder lists, each at times: `$COPILOT_CUSTOM_INSTRUCTIONS_DIRS` (instruction files in
    the folders it names) and `$COPILOT_SKILLS_DIRS` (FINDINGS.md GD-92: skills, one at times named like a
    drawn one); absolute, relative (from the launch directory), two of them, a missing one."""
    env = {}
    if rng.random() < 0.3:
        env["COPILOT_CUSTOM_INSTRUCTIONS_DIRS"] = value = rng.choice(COPILOT_DIR_VALUES).format(kind="instructions")
        for base in _drawn_folders(value):
            for rel in rng.sample(COPILOT_DIR_FILES, rng.randint(1, 3)):
                header = '---\napplyTo: "**"\n---\n' if rel.endswith(".instructions.md") else ""
                marker = re.sub(r"[{}/]", "_", f"DIRS-{base}-{rel}-MARKER")
                _put(sc, f"{base}/{rel}", f"{header}{marker}\n".encode())
    if rng.random() < 0.3:
        env["COPILOT_SKILLS_DIRS"] = value = rng.choice(COPILOT_DIR_VALUES).format(kind="skills")
        vocab = DEFINITIONS["copilot-cli"]
        drawn = sorted({os.path.basename(os.path.dirname(r)) for r in [*sc.ws, *sc.home] if r.endswith("/SKILL.md")})
        for base in _drawn_folders(value):
            for index, name in enumerate(rng.sample(["env-skill", "env-other", *drawn[:1]], 2)):
                _put(sc, f"{base}/{name}/SKILL.md", _definition(rng, vocab, "skill", name, f"ENV{index}-SKILL-{name}"))
    return env


def _drawn_folders(value: str) -> list[str]:
    """The folders of a drawn comma-separated list that are to exist, as `{WS}/…` or `{HOME}/…`."""
    parts = [p.strip() for p in value.split(",")]
    return [p if p.startswith("{") else f"{{WS}}/{p}" for p in parts if p and "missing" not in p]


def _put(sc: Scenario, where: str, data: bytes) -> None:
    """A file at `{WS}/rel` or `{HOME}/rel`, unless the project already has one there."""
    if where.startswith("{HOME}/"):
        sc.home[where.removeprefix("{HOME}/")] = data
    elif sc.free(where.removeprefix("{WS}/")):
        sc.ws[where.removeprefix("{WS}/")] = data


def _gemini_home_env(rng: random.Random, sc: Scenario) -> dict[str, str]:
    """At times `$GEMINI_CLI_HOME` (FINDINGS.md GD-91), with Gemini CLI's `.gemini` and `.agents` below it:
    the settings the oracle would have written (at times with the drawn ones' `context`), a context file and
    a skill of its own, and copies of some of home's skills and commands (the originals stay)."""
    if rng.random() >= 0.4:
        return {}
    settings = dict(GEMINI_SETTINGS)
    drawn = sc.home.get(".gemini/settings.json")
    if drawn is not None and rng.random() < 0.6:
        settings.update({k: v for k, v in json.loads(drawn).items() if k == "context"})
    sc.home[f"{GEMINI_HOME}/.gemini/settings.json"] = json.dumps(settings).encode()
    for name in rng.sample(("GEMINI.md", "AGENTS.md", "TEAM.md"), rng.randint(0, 2)):
        sc.home[f"{GEMINI_HOME}/.gemini/{name}"] = _encode(rng, _body(rng, f"MOVED-{name}-MARKER", []))
    _moved_definitions(rng, sc, GEMINI_HOME, (".gemini", ".agents"), (".gemini/skills/", ".gemini/commands/", ".agents/skills/"))
    return {"GEMINI_CLI_HOME": f"{{HOME}}/{GEMINI_HOME}"}


def _droid_home_env(rng: random.Random, sc: Scenario) -> dict[str, str]:
    """At times `$FACTORY_HOME_OVERRIDE` (FINDINGS.md GD-93), with droid's `.factory` and `.agents` below it:
    the settings the oracle would have written, instruction files and a skill of its own, and copies of some
    of home's skills, commands and droids (the originals stay)."""
    if rng.random() >= 0.35:
        return {}
    sc.home[f"{DROID_HOME}/.factory/settings.json"] = DROID_SETTINGS
    for rel in rng.sample((".factory/AGENTS.md", ".factory/CLAUDE.md", ".agents/AGENTS.md"), rng.randint(0, 3)):
        sc.home[f"{DROID_HOME}/{rel}"] = _encode(rng, _body(rng, f"MOVED-{rel.replace('/', '_')}-MARKER", []))
    folders = (".factory/skills/", ".factory/commands/", ".factory/droids/", ".agents/skills/", ".agent/skills/")
    _moved_definitions(rng, sc, DROID_HOME, (".factory", ".agents"), folders)
    return {"FACTORY_HOME_OVERRIDE": f"{{HOME}}/{DROID_HOME}"}


def _moved_definitions(
    rng: random.Random, sc: Scenario, moved: str, skill_homes: tuple[str, ...], folders: tuple[str, ...]
) -> None:
    """At times a skill of the moved home's own (below one of `skill_homes`), and copies in `moved` of some
    of home's files in `folders`."""
    if rng.random() < 0.5:
        sc.home[f"{moved}/{rng.choice(skill_homes)}/skills/moved-skill/SKILL.md"] = MOVED_SKILL
    for rel in [r for r in sorted(sc.home) if r.startswith(folders)]:
        if rng.random() < 0.6:
            sc.home[f"{moved}/{rel}"] = sc.home[rel]


def _opencode_config_env(rng: random.Random, sc: Scenario) -> dict[str, str]:
    """opencode's config variables (FINDINGS.md GD-50), each at times, at the places of `_kilo_config_env`:
    `OPENCODE_CONFIG` naming a file, `OPENCODE_CONFIG_CONTENT`, a config itself; each config with an agent
    of its own at times."""
    env = {}
    if rng.random() < 0.35:
        env["OPENCODE_CONFIG"], root, rel = rng.choice(OPENCODE_CONFIG_FILES)
        config = _with_agent(rng, "env-file-agent", _instructions_config(rng, sc))
        if root == "home":
            sc.home[rel] = config
        elif root == "ws" and sc.free(rel):  # the oracle fills in {HOME} in home's files only
            sc.ws[rel] = config.replace(b"{HOME}/", b"~/")
    if rng.random() < 0.25:
        config = _with_agent(rng, "env-content-agent", _instructions_config(rng, sc))
        env["OPENCODE_CONFIG_CONTENT"] = config.decode().replace("{HOME}/", "~/")
    return env


def _with_agent(rng: random.Random, name: str, config: bytes) -> bytes:
    """`config` with, at times, an `agent` entry of `name` (listed to the model as a subagent)."""
    if rng.random() < 0.5:
        return config
    return json.dumps({**json.loads(config), "agent": {name: ENV_CONFIG_AGENT}}).encode()


def _cline_extras(rng: random.Random, sc: Scenario) -> tuple[dict[str, str], str | None]:
    """At times `$CLINE_DIR` (with files in the folder it names) and rules, skills, workflows and agents
    whose header has one of CLINE_HEADER_LINES; the environment, and a typed line naming a drawn workflow."""
    env = {}
    if rng.random() < 0.3:
        env["CLINE_DIR"] = folder = rng.choice(CLINE_DIRS)
        env["CLINE_DATA_DIR"] = "{HOME}/.cline/data"  # where the oracle writes the provider's settings
        base = folder.removeprefix("{HOME}/").removeprefix("{WS}/")
        for rel in rng.sample(sorted(CLINE_DIR_FILES), 2):
            if folder.startswith("{HOME}"):
                sc.home[f"{base}/{rel}"] = CLINE_DIR_FILES[rel].encode()
            elif sc.free(f"{base}/{rel}"):
                sc.ws[f"{base}/{rel}"] = CLINE_DIR_FILES[rel].encode()
    typed = None
    if rng.random() < 0.4:
        for index in range(rng.randint(1, 3)):
            kind = rng.choice(("rule", "skill", "workflow", "agent"))
            header = rng.choice(CLINE_HEADER_LINES)
            typed = _cline_header_file(rng, sc, kind, f"y{index}-{kind}", header) or typed
    return env, typed


def _cline_header_file(rng: random.Random, sc: Scenario, kind: str, stem: str, header: str) -> str | None:
    """A Cline rule, skill, workflow or agent with `header`; for a workflow, a line that types it by its
    file's name or by the header's."""
    lines = header.split("\n")
    if kind == "agent":
        lines += [] if "name:" in header else [f"name: {stem}"]
        lines += [] if "description:" in header else [f"description: {stem} agent"]
    path = {
        "rule": f".clinerules/{stem}.md",
        "skill": f".clinerules/skills/{stem}/SKILL.md",
        "workflow": f".clinerules/workflows/{stem}.md",
        "agent": f".cline/agents/{stem}.yml",
    }[kind]
    if not sc.free(path):
        return None
    sc.ws[path] = "\n".join(["---", *lines, "---", f"YAML-{stem.upper()}-MARKER ({header.splitlines()[0]})."]).encode()
    if kind != "workflow" or rng.random() < 0.4:
        return None
    name = rng.choice((stem, header.split("\n")[0].removeprefix("name: ")))
    return f"/{name} go USER-PROMPT-MARKER: reply with the single word hi"


def _symlinks(rng: random.Random, sc: Scenario, vocab: Vocabulary) -> None:
    """Links to files and folders: an instruction file under a second name, a linked package, a dangling link."""
    kinds = rng.sample(("file", "folder", "dangling", "home", "none", "none"), 2)
    instruction_files = sorted(p for p in sc.ws if os.path.basename(p) in vocab.names)
    for kind in kinds:
        if kind == "file" and instruction_files:
            source = rng.choice(instruction_files)
            rel = os.path.join(rng.choice(("other", "packages/api/src")), os.path.basename(source))
            if sc.free(rel):
                sc.ws_links[rel] = os.path.relpath(source, os.path.dirname(rel))
        elif kind == "folder":
            sc.ws_links["linked"] = "packages/api"
        elif kind == "dangling" and sc.free(os.path.join("packages", vocab.names[0])):
            sc.ws_links[os.path.join("packages", vocab.names[0])] = "../nowhere.md"
        elif kind == "home" and vocab.home_files:
            sc.home.setdefault(
                "dotfiles/shared.md",
                b"DOTFILES-SHARED-MARKER linked from home and project.\n",
            )
            sc.home.pop(vocab.home_files[0], None)
            sc.home_links[vocab.home_files[0]] = "{HOME}/dotfiles/shared.md"
            if rng.random() < 0.5 and sc.free(vocab.names[0]):
                sc.ws_links[vocab.names[0]] = "{HOME}/dotfiles/shared.md"


def _definitions(rng: random.Random, harness: str, sc: Scenario, env: dict[str, str]) -> None:
    """0-4 skills, agents and commands (none in about half of the scenarios) where the harness's model
    looks, in every header shape, some sharing a name across folders (shadowing)."""
    vocab = DEFINITIONS.get(harness)
    if vocab is None or rng.random() < 0.5:
        return
    kinds = [
        (kind, project, home)
        for kind, project, home in (
            ("skill", vocab.skills, vocab.home_skills),
            ("skill", vocab.skills, vocab.home_skills),
            ("agent", vocab.agents, vocab.home_agents),
            ("command", vocab.commands, vocab.home_commands),
        )
        if project or home
    ]
    names: list[str] = []
    for index in range(rng.randint(1, 4)):
        kind, project, home = rng.choice(kinds)
        in_home = not project or (bool(home) and rng.random() < 0.35)
        folder = (
            _home_folder(rng, rng.choice(home), harness, env)
            if in_home
            else os.path.join(rng.choice(DEFINITION_BASES), rng.choice(project))
        )
        name = rng.choice(names) if names and rng.random() < 0.3 else rng.choice(DEFINITION_NAMES)
        names.append(name)
        path = (
            f"{folder}/{name}/SKILL.md"
            if kind == "skill"
            else f"{folder}/{name}{rng.choice(vocab.agent_suffixes) if kind == 'agent' else '.md'}"
        )
        files = sc.home if in_home else sc.ws
        if path in files or not (in_home or sc.free(path)):
            continue
        files[path] = _definition(rng, vocab, kind, name, f"D{index}-{kind.upper()}-{name}")


def _home_folder(rng: random.Random, folder: str, harness: str, env: dict[str, str]) -> str:
    """`folder` below HOME, mostly where the scenario's environment variable moved it."""
    for variable, default, moved, _files in VOCABULARY[harness].home_env:
        if variable in env and folder.startswith(default + "/") and rng.random() < 0.8:
            return moved + folder.removeprefix(default)
    return folder


def _definition(rng: random.Random, vocab: DefinitionVocabulary, kind: str, name: str, marker: str) -> bytes:
    """A definition file: a header of one of DEFINITION_SHAPES, then a body that says whose it is."""
    shape = rng.choice(DEFINITION_SHAPES)
    description = f"{marker} helps when the task needs {name}."
    fields = []
    if shape != "no-name" and (kind == "skill" or (kind == "agent" and vocab.agent_name_field)):
        fields.append(f"name: {name}-alt" if shape == "renamed" else f"name: {name}")
    if shape == "long":
        fields.append("description: " + " ".join([description] * rng.randint(5, 40)))
    elif shape == "folded":
        fields += ["description: >", f"  {description}", "  A second line of the description."]
    elif shape == "broken-yaml":
        fields.append(rng.choice((f'description: Use when: "{marker}" fails', f"description: [{marker} unclosed")))
    elif shape != "no-description":
        fields.append(f"description: {description}")
    if kind == "agent" and vocab.modes and rng.random() < 0.7:
        fields.append(f"mode: {rng.choice(vocab.modes)}")
    body = [f"# {name}", "", f"{marker} body: follow these steps with care."] + (
        ["Arguments: $ARGUMENTS"] if kind == "command" else []
    )
    text = "\n".join(body if shape == "no-header" else ["---", *fields, "---", "", *body]) + "\n"
    form = rng.choice(("plain",) * 8 + ("crlf", "bom"))
    data = (text.replace("\n", "\r\n") if form == "crlf" else text).encode()
    return b"\xef\xbb\xbf" + data if form == "bom" else data


def _runs(rng: random.Random, harness: str, sc: Scenario, env: dict[str, str], git: bool) -> list[dict]:
    """Launch directories, with and without reads (a read through the linked folder when there is one);
    a read from a subfolder stays below it for a CLI that would refuse another."""
    reads = list(READS) + (["linked/src/index.ts"] if "linked" in sc.ws_links else [])
    cwds = rng.sample(NESTED_CWDS, 2)
    runs = [
        {"cwd": "."},
        {"cwd": cwds[0]},
        {"cwd": ".", "read": rng.sample(reads, rng.choice((1, 1, 2)))},
    ]
    refuses_outside = harness in READS_BELOW_CWD or (harness in READS_BELOW_CWD_WITHOUT_GIT and not git)
    below = [r for r in READS if r.startswith(cwds[1] + "/")] if refuses_outside else READS
    if rng.random() < 0.5 and below:
        runs.append({"cwd": cwds[1], "read": [rng.choice(below)]})
    out = []
    for index, run in enumerate(runs):
        run = {"id": f"{harness}-r{index}", "harness": harness, **run}
        if env:
            run["env"] = env
        out.append(run)
    return out


# What a typed line gives its command: nothing, words, `@path` mentions of files that exist (one with
# a line range), a missing one, and a folder (Claude Code reads what they name, FINDINGS.md IJ-4).
TYPED_ARGUMENTS = (
    "",
    "fix the build",
    "@README.md",
    f"@{READS[0]}#L1 then @missing.txt",
    'compare @"README.md" and @packages',
)

# Claude Code's built-in commands of each kind (claude_builtins): prompt, run as a subagent (and its
# alias), local, interactive only; a scenario's command or skill of the name wins over it.
CLAUDE_BUILTINS = ("init", "debug", "review", "code-review", "compact", "cost", "release-notes", "help")
# What Claude Code's parser takes as no command name (a plain prompt: FINDINGS.md SV-2): a dot, a leading `-`,
# a `/`, nothing, a path on the machine; and a namespaced command typed with a blank for its colon.
CLAUDE_ODD_NAMES = ("v2.0", "-x", "x/y", "", "tmp", "ns tool")
# Names its parser takes that no scenario defines: the line is sent as typed, after its mentions' reads (§11o).
CLAUDE_UNKNOWN_NAMES = ("nosuch", "x:y", "Deploy")
# droid's built-in commands with a prompt of their own (FINDINGS.md §11m): a scenario's command or skill of the
# name never wins over them; `/loop` sends its prompt only for a request without an interval.
DROID_BUILTINS = ("readiness-report", "readiness-fix", "agent-effectiveness-report", "statusline", "loop")
DROID_LOOP_ARGUMENTS = ("check the build", "5m check the build", "check the build every 2 hours", "stop")
# How a droid line spells a tag (§11m): `@path`, quoted, with `./`, a folder's trailing `/`, closed by a
# comma, after a letter (no tag), or a name that is not there.
DROID_TAG_FORMS = ("@{}", '@"{}"', "@./{}", "@{}/", "(@{}),", "x@{}", "@{}.missing")


def _typed_runs(rng: random.Random, harness: str, sc: Scenario, env: dict[str, str]) -> list[dict]:
    """For a CLI whose typed line the oracle can send (`session_extract.TYPED`): typing one of the
    scenario's commands or skills, or a name it does not hold (for Claude Code, at times one of its
    built-in commands), at the root, with drawn arguments."""
    vocab = DEFINITIONS.get(harness)
    if harness not in TYPED or vocab is None or rng.random() < 0.3:
        return []
    folders = [*vocab.commands, *vocab.home_commands, *vocab.skills, *vocab.home_skills]
    names = sorted(
        {
            (os.path.basename(os.path.dirname(rel)) if rel.endswith("/SKILL.md") else os.path.splitext(os.path.basename(rel))[0])
            for rel in [*sc.ws, *sc.home]
            if any(f"{folder}/" in f"/{rel}" for folder in folders)
        }
    )
    name = rng.choice(names) if names and rng.random() < 0.85 else rng.choice(DEFINITION_NAMES)
    if harness == "claude" and rng.random() < 0.3:  # drawn last: the other CLIs' draws stay as they were
        name = rng.choice(CLAUDE_BUILTINS)
    if harness == "claude" and rng.random() < 0.15:
        name = rng.choice(CLAUDE_ODD_NAMES)
    arguments = rng.choice(TYPED_ARGUMENTS)
    if harness == "claude":  # drawn last: the other CLIs' draws stay as they were
        name, arguments = _claude_mention(rng, sc, name, arguments)
    if harness == "droid":  # drawn last: the other CLIs' draws stay as they were
        name, arguments = _droid_line(rng, sc, name, arguments)
    line = f"/{name} {arguments}".rstrip()
    return [{"id": f"{harness}-t0", "harness": harness, "cwd": ".", "env": {**env, "ORACLE_TYPED": line}}]


def _claude_mention(rng: random.Random, sc: Scenario, name: str, arguments: str) -> tuple[str, str]:
    """A Claude Code line: at times a mention of a file below a folder with skills of its own after the
    arguments (the skills its read finds: FINDINGS.md GD-39), at times under a name no command takes (the
    CLI reads its mentions too: §11o)."""
    if rng.random() < 0.4:
        if not _below_skills(sc):  # few scenarios have such a folder: give this one a skill there
            skill = rng.choice(DEFINITION_NAMES)
            path = f"{rng.choice(('packages', 'packages/api'))}/.claude/skills/{skill}/SKILL.md"
            if sc.free(path):
                sc.ws[path] = _definition(rng, DEFINITIONS["claude"], "skill", skill, f"NESTED-SKILL-{skill}")
        if below := _below_skills(sc):
            arguments = " ".join([arguments, f"@{rng.choice(below)}"]).strip()
    if rng.random() < 0.15:
        name = rng.choice(CLAUDE_UNKNOWN_NAMES)
    return name, arguments


def _below_skills(sc: Scenario) -> list[str]:
    """The workspace's files (outside `.claude` folders) below a folder, not the root, with a `.claude/skills`."""
    folders = {rel.split("/.claude/skills/", 1)[0] for rel in sc.ws if "/.claude/skills/" in rel}
    return sorted(rel for rel in sc.ws if "/.claude/" not in f"/{rel}" and any(rel.startswith(f + "/") for f in folders))


def _droid_line(rng: random.Random, sc: Scenario, name: str, arguments: str) -> tuple[str, str]:
    """A droid line: at times one of its built-in commands with a prompt, at times tags of the
    scenario's files and folders (or of what it does not hold) after the arguments."""
    if rng.random() < 0.25:
        name = rng.choice(DROID_BUILTINS)
        arguments = rng.choice(DROID_LOOP_ARGUMENTS) if name == "loop" else arguments
    if rng.random() < 0.5:
        files = sorted(sc.ws)
        folders = sorted({os.path.dirname(rel) for rel in files} - {""})
        paths = rng.sample([*files, *folders], min(len(files) + len(folders), rng.randint(1, 3)))
        tags = [rng.choice(DROID_TAG_FORMS).format(path) for path in paths]
        arguments = " ".join([arguments, *tags]).strip()
    return name, arguments


def generate(seed: int, per_harness: int, out: Path, harnesses: list[str]) -> list[Path]:
    """Write the scenarios for `seed`; returns their directories, by harness then number."""
    written = []
    for harness in harnesses:
        for number in range(per_harness):
            rng = random.Random(f"{seed}/{harness}/{number}")
            name = f"gen-{harness}-{seed}-{number:02d}"
            sc, config = draw(rng, harness, random.Random(f"{seed}/{harness}/{number}/definitions"))
            dest = out / name
            if dest.exists():
                shutil.rmtree(dest)
            sc.write(dest, config)
            written.append(dest)
    return written


def scenario_options(description: str) -> argparse.ArgumentParser:
    """The options that say which scenarios to generate (this script's and differential.py's)."""
    parser = argparse.ArgumentParser(description=description.split("\n\n")[0])
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--per-harness", type=int, default=40)
    parser.add_argument("--harness", action="append", choices=sorted(VOCABULARY), help="default: every harness")
    return parser


def main() -> None:
    parser = scenario_options(__doc__)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    written = generate(args.seed, args.per_harness, args.out, args.harness or list(VOCABULARY))
    print(f"{len(written)} scenarios in {args.out}")


if __name__ == "__main__":
    main()
