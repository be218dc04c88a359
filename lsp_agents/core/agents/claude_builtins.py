"""Claude Code's built-in slash commands, as `claude -p "/NAME ARGS"` runs them (2.1.332).

The bundle's list of built-in commands (`Qdl`) holds objects of three types: `prompt` (a prompt
the CLI sends: `N0s` /init, `LXs` /insights, `nBs` /team-onboarding), `local` (runs in the CLI and
prints its result: `f5r` /compact, `sFt` /usage with the aliases `cost` and `stats`, `oOt` /config
with `settings`) and `local-jsx` (an interactive panel: `sHs` /release-notes, `d0s` /help). The
bundled skills are registered with `Jc({name, aliases, userInvocable, ...})` (`Jc({name:lx,
aliases:["review"]` is /code-review). `Wdn` keeps `local-jsx` commands out of a non-interactive
session: typed there, the CLI prints `/NAME isn't available in this environment.`
(`cmd_unavailable_headless`) and sends nothing. Every name below was typed in a capture
(tests/conformance/FINDINGS.md §11g); names the bundle holds but that were disabled there
(/version, /install, /pr-comments, ...) are sent as typed, like any unknown name.

A project or user command or skill of the same name wins over a built-in (captured for each
kind); names are matched as typed (`/INIT` is no command).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

from lsp_agents.core.agents.typed_commands import claude_command_lines


class BuiltinKind(StrEnum):
    PROMPT = "prompt"  # the `<command-message>` lines, then the built-in's prompt
    FORKED = "forked"  # runs as a subagent: its request's user message is the built-in's prompt
    LOCAL = "local"  # runs in the CLI, prints its result: nothing is sent to the model
    INTERACTIVE = "interactive"  # the interactive UI only: nothing is sent
    MODEL_ONLY = "model-only"  # a skill only the model may load: the CLI refuses it, nothing is sent


_KINDS: dict[BuiltinKind, tuple[str, ...]] = {
    BuiltinKind.PROMPT: (
        # `type:"prompt"` commands
        "init",
        "insights",
        "security-review",  # its `!` git commands need an `origin` remote: without one it prints why, sends nothing
        "team-onboarding",
        # bundled skills (`Jc`)
        "batch",
        "claude-api",
        "dataviz",
        "debug",
        "deep-research",
        "doctor",
        "fewer-permission-prompts",
        "loop",
        "plugin-authoring",
        "run",
        "run-skill-generator",
        "simplify",
        "update-config",
        "verify",
        "workflow-authoring",
    ),
    BuiltinKind.FORKED: ("code-review",),
    BuiltinKind.LOCAL: (
        "__remote-workflow",
        "agents",
        "auto-mode-setup",
        "autocompact",
        "clear",
        "color",
        "compact",
        "config",
        "context",
        "effort",
        "fast",
        "focus",
        "goal",
        "heapdump",
        "list-agents",
        "mcp",
        "model",
        "output-style",
        "recap",
        "reload-plugins",
        "reload-skills",
        "rename",
        "usage",
        "workflow-launch-exec",
    ),
    BuiltinKind.INTERACTIVE: (
        *("access", "add-dir", "advisor", "artifacts", "autofix-pr", "background", "branch", "brief", "btw", "bug"),
        *("cd", "cloud-plugins", "copy", "design-consent", "design-login", "design-revoke", "desktop", "diff"),
        *("exit", "export", "extra-usage", "feedback", "fork", "help", "hooks", "ide", "import"),
        *("install-github-app", "install-slack-app", "login", "logout", "memory", "mobile", "passes", "pause-memory"),
        *("permissions", "plan", "plugin", "powerup", "privacy-settings", "pro-trial-expired", "project", "quit"),
        *("radio", "rate-limit-options", "release-notes", "remote", "remote-control", "remote-env", "restart"),
        *("resume", "scroll-speed", "session", "setup-bedrock", "setup-vertex", "skills", "status", "statusline"),
        *("stickers", "stop", "subtask", "tasks", "teleport", "terminal-setup", "theme", "tui", "ultraplan"),
        *("ultrareview", "upgrade", "usage-credits", "use-case", "vim", "voice", "web-setup", "wellbeing", "workflows"),
    ),
    BuiltinKind.MODEL_ONLY: ("keybindings-help",),  # `Jc({name:"keybindings-help",...,userInvocable:!1`
}
# Built-ins whose prompt holds the arguments typed (trimmed), and what stands right before and after them
# there: Claude Code looks for `@path` mentions in the prompt and reads their files before the message, as
# for a command's (scenario `claude-typed-builtin-mentions`: every bundled skill captured but
# /workflow-authoring, and /code-review; not /init or /team-onboarding). Most put them at a line's start;
# after a backtick or a quote, `@` opens no mention.
_ARGUMENTS_IN_PROMPT: dict[str, tuple[str, str]] = {
    **dict.fromkeys(("batch", "claude-api", "dataviz", "debug", "doctor", "fewer-permission-prompts"), ("", "")),
    **dict.fromkeys(("loop", "plugin-authoring", "run", "run-skill-generator", "update-config", "verify"), ("", "")),
    "code-review": ("`", "`"),
    "simplify": ("`", "`"),
    "deep-research": ('"', '"'),
}
# Other names of a built-in: `Jc({name:lx,aliases:["review"]`, `sFt` `aliases:["cost","stats"]`, `oOt` `aliases:["settings"]`.
_ALIASES = {"review": "code-review", "cost": "usage", "stats": "usage", "settings": "config"}
_UNAVAILABLE = "/{} isn't available in this environment."  # `cmd_unavailable_headless`
_BY_NAME = {name: kind for kind, names in _KINDS.items() for name in names}
# What `builtin_prompt` shows (the conformance tests match it to any text).
BUILTIN_PROMPT = re.compile(r"\[Claude Code's built-in /[^\s\]]+ prompt: not shown\]")


@dataclass(frozen=True)
class Builtin:
    name: str  # as typed
    command: str  # the built-in it runs (an alias's target)
    kind: BuiltinKind

    @property
    def sends_prompt(self) -> bool:
        return self.kind in (BuiltinKind.PROMPT, BuiltinKind.FORKED)

    def mention_text(self, arguments: str) -> str:
        """The arguments as its prompt holds them, where Claude Code looks for `@path` mentions ("" when it does not hold them)."""
        around = _ARGUMENTS_IN_PROMPT.get(self.command)
        return f"{around[0]}{arguments.strip()}{around[1]}" if around else ""

    def message(self, arguments: str) -> str:
        """What the CLI sends (a prompt kind): the built-in's prompt, never shown; a `prompt`
        command's after the lines `claude_message` writes for any command."""
        prompt = builtin_prompt(self.command)
        if self.kind == BuiltinKind.FORKED:
            return prompt
        return claude_command_lines(self.name, arguments.strip()) + prompt

    def note(self) -> str:
        """What typing it does, said in a sentence."""
        what = f"/{self.name}" + (f" (/{self.command})" if self.command != self.name else "")
        return {
            BuiltinKind.PROMPT: f"Claude Code's built-in {what} sends its own prompt (not shown)",
            BuiltinKind.FORKED: f"Claude Code's built-in {what} runs as a subagent whose request's user message is its own prompt (not shown)",
            BuiltinKind.LOCAL: f"Claude Code runs its built-in {what} itself and prints the result: nothing is sent to the model",
            BuiltinKind.INTERACTIVE: f"Claude Code's built-in {what} runs in the interactive UI only: `claude -p` prints "
            f"{_UNAVAILABLE.format(self.name)!r} and sends nothing to the model",
            BuiltinKind.MODEL_ONLY: f"Claude Code's built-in {what} is a skill only the model may load: the CLI refuses it "
            "and sends nothing to the model",
        }[self.kind]


def builtin_prompt(name: str) -> str:
    return f"[Claude Code's built-in /{name} prompt: not shown]"


def find_builtin(name: str) -> Builtin | None:
    """The built-in command typing `/<name>` runs when no command or skill of that name is defined."""
    command = _ALIASES.get(name, name)
    kind = _BY_NAME.get(command)
    return Builtin(name, command, kind) if kind is not None else None


def builtin_names(kind: BuiltinKind) -> tuple[str, ...]:
    return _KINDS[kind]


def every_name() -> set[str]:
    """The names and aliases of every built-in, whatever its kind: a skill a read finds under one of them is
    offered as `<folder>:<name>` (`zXs` counts the enabled commands' names and aliases as taken; FINDINGS.md GD-41)."""
    return {*_BY_NAME, *_ALIASES}
