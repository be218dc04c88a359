"""Factory droid 0.225.2's built-in slash commands as `droid exec "/NAME ARGS"` runs them.

The command registry's built-in source (`Qt`, its names below) wins over a custom command and a
skill of the same name (`getRegisteredCommand`, names lower-cased by `z0`). `droid exec` resolves a
line through `YD` → `resolveDeferredPrompt`: a built-in without one sends the line as typed; five
have one (the prompt is vendor text: a placeholder here, around what the CLI takes from the line and
the workspace, which is modelled exactly):

- `/statusline` (`WR`): `<system-reminder>\\n` + its prompt, which names the settings file
  (`~/.factory/settings.json`, below `$FACTORY_HOME_OVERRIDE` when set: GD-93) +
  `\\n</system-reminder>\\n\\n` + a closing paragraph; with arguments (trimmed, tags escaped by `xe`)
  the paragraph quotes them.
- `/readiness-report` (`bM`, `PS`) and `/readiness-fix` (`AF`, `IF`): `hS` runs `git rev-parse
  --is-inside-work-tree` and `git remote get-url origin`; outside a repository, without an `origin`
  remote or with an empty URL it prints why and sends nothing. Else the prompt names the URL (`kd`:
  trimmed, an http(s) URL's user and password dropped); `/readiness-report` ends with the arguments
  (trimmed, escaped) when there are any, `/readiness-fix` quotes them (it asks Factory's service for the
  last report first: offline there is none).
- `/agent-effectiveness-report` (`GR`) asks Factory's service for the organization's entitlement
  first: without an account (as here) it prints "Authentication failed" and sends nothing.
- `/loop` (`KR`, `U`, `M`) has a prompt only for a request without an interval (`Ok`: a first word
  like `5m`, `Gk`: a trailing `every 2 hours`, both by `Gb`) whose first word is not `stop`, `status`
  or `list`; it needs the session's id first (`S`), which `droid exec` has none of when it resolves
  the line: it prints "No active session." and sends nothing. Any other `/loop` line is sent as typed.

Not modelled: an `origin` URL set outside the repository's own `.git/config` or rewritten by
`insteadOf`, a `.git` file; what a previous readiness report adds; `@` tags in the vendor text.
Captures: tests/conformance FINDINGS.md §11m, DT-4 (scenarios `droid-typed-builtins`, `droid-typed-readiness`).
"""

from __future__ import annotations

import os
import re
from urllib.parse import urlsplit, urlunsplit

from lsp_agents.core.agents.typed_commands import JS_WHITESPACE, droid_escape
from lsp_agents.core.harnesses.base import LaunchContext
from lsp_agents.core.harnesses.droid import factory_home
from lsp_agents.core.walk import find_marker_root

TITLE = "Factory droid"
# The built-in slash commands the command registry holds (`Qt`, less `settings-debug`, gated off in
# production, and `connectors`, registered apart): their names win over a custom command's and a skill's.
BUILTIN_COMMANDS = frozenset(
    "account agent-effectiveness-report archive automations billing btw bug cd clear copy cost cwd diagnostics "
    "droids fast skills create-skill help ide install-slack-app setup-incident-response review hooks language "
    "limits link-work login logout loop plugins mcp missions model compress context new favorite pin fork rename "
    "quit exit readiness-report readiness-fix rewind-conversation sessions share settings stats status statusline "
    "terminal-setup themes tree commands".split()
)
PROMPT_SPOT = re.compile(r"\[droid's built-in /[a-z-]+ prompt: not shown\]")
_BLANKS = f"[{re.escape(JS_WHITESPACE)}]"
_INTERVAL = re.compile(
    r"([0-9]+(?:\.[0-9]{1,2})?)" + _BLANKS + r"*(s|sec|secs|second|seconds|m|min|mins|minute|minutes|h|hr|hrs|hour"
    r"|hours|d|day|days)",
    re.IGNORECASE,
)
_EVERY = re.compile(_BLANKS + r"+every" + _BLANKS + r"+([^\n\r\u2028\u2029]+)\Z", re.IGNORECASE)
_LOOP_COMMANDS = ("stop", "status", "list")
# What droid's prompt has right before and after the arguments where it holds them (`/readiness-fix` quotes
# them three times): a tag in them ends where the CLI's does.
_AROUND_ARGUMENTS = {"statusline": (" ", "\n"), "readiness-report": ("\n", "\n"), "readiness-fix": ('"', '"')}


def prompt(name: str) -> str:
    """Where droid's own text stands (vendor text, never shown)."""
    return f"[droid's built-in /{name} prompt: not shown]"


def refusal(ctx: LaunchContext, name: str, arguments: str) -> str | None:
    """Why the built-in `name` sends nothing here (None: it sends its prompt, or the line goes as typed)."""
    command = name.lower()
    if command == "loop" and loop_prompts(arguments.strip(JS_WHITESPACE)):
        return f"{TITLE}'s built-in /loop needs a session for this request: `droid exec` prints 'No active session.' and sends nothing"
    if command == "agent-effectiveness-report":
        return (
            f"{TITLE}'s built-in /{command} asks Factory's service first: without an account it prints "
            "'Authentication failed' and sends nothing"
        )
    if command not in ("readiness-report", "readiness-fix"):
        return None
    url = origin_url(ctx)
    why = {None: "there is no git repository or `origin` remote", "": "the `origin` remote's URL is empty"}.get(url)
    return f"{TITLE}'s built-in /{command} prints why and sends nothing: {why}" if why else None


def message(ctx: LaunchContext, name: str, arguments: str) -> str | None:
    """What the built-in `name` sends for `arguments` (None: no built-in prompt takes the line)."""
    command, typed = name.lower(), arguments.strip(JS_WHITESPACE)
    if command == "statusline":
        settings = os.path.join(factory_home(ctx), ".factory", "settings.json")
        closing = f"{prompt(command)}{droid_escape(typed)}{prompt(command)}" if typed else prompt(command)
        return f"<system-reminder>\n{prompt(command)}{settings}{prompt(command)}\n</system-reminder>\n\n{closing}"
    if command in ("readiness-report", "readiness-fix") and (url := origin_url(ctx)):
        head = f"{prompt(command)}{sanitized_url(url)}{prompt(command)}"
        if not typed:
            return head
        return head + droid_escape(typed) + ("\n</system-reminder>" if command == "readiness-report" else prompt(command))
    return None


def tagged_text(name: str, arguments: str) -> str:
    """The part of a built-in's message `droid_at` looks for tags in: the arguments as its prompt holds them
    (the vendor text around them is not modelled)."""
    before, after = _AROUND_ARGUMENTS.get(name.lower(), ("", ""))
    typed = droid_escape(arguments.strip(JS_WHITESPACE))
    return f"{before}{typed}{after}" if typed and before else ""


def loop_prompts(request: str) -> bool:
    """`M`: `/loop` has a prompt for a request with no interval whose first word is no subcommand."""
    words = re.split(_BLANKS + "+", request)
    if not request or words[0].lower() in _LOOP_COMMANDS:
        return False
    every = _EVERY.search(request)
    return not _INTERVAL.fullmatch(words[0]) and not (every and _INTERVAL.fullmatch(every[1].strip(JS_WHITESPACE)))


def origin_url(ctx: LaunchContext) -> str | None:
    """`git remote get-url origin` from the launch directory: the first `url` of `[remote "origin"]` in the
    repository's `.git/config` (None: no repository, or no such remote)."""
    root = find_marker_root(ctx.fs, ctx.cwd, (".git",))
    if root is None or not ctx.fs.is_dir(os.path.join(root, ".git")):
        return None
    config = ctx.fs.read(os.path.join(root, ".git", "config")).text()
    section = None
    for line in config.splitlines():
        header = re.match(r'\s*\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\]', line)
        if header:
            section = (header[1].lower(), header[2])
            continue
        entry = re.match(r"\s*([A-Za-z][A-Za-z0-9-]*)\s*(?:=\s*(.*))?$", line)
        if section in (("remote", "origin"), ("remote.origin", None)) and entry and entry[1].lower() == "url":
            return _config_value(entry[2] or "")
    return None


def _config_value(raw: str) -> str:
    """A git config value: quotes dropped, `\\"`, `\\\\`, `\\n`, `\\t` read, a comment (`#`, `;`) outside quotes cut."""
    value, quoted, escapes = [], False, {'"': '"', "\\": "\\", "n": "\n", "t": "\t"}
    characters = iter(raw.strip())
    for character in characters:
        if character == "\\":
            value.append(escapes.get(next(characters, ""), ""))
        elif character == '"':
            quoted = not quoted
        elif character in "#;" and not quoted:
            break
        else:
            value.append(character)
    return "".join(value).strip()


def sanitized_url(url: str) -> str:
    """`kd`: an http(s) URL without its user and password; anything else as it is, trimmed."""
    url = url.strip(JS_WHITESPACE)
    parts = urlsplit(url)
    if parts.scheme.lower() not in ("http", "https") or "@" not in parts.netloc:
        return url
    host = parts.netloc.rsplit("@", 1)[1].lower()
    return urlunsplit((parts.scheme.lower(), host, parts.path or "/", parts.query, parts.fragment))
