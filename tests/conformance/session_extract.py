"""Extract what a captured session sends of agents, skills and commands (a developer tool).

The oracle's extracts hold the instruction files' text; this script reads the raw request
bodies of a batch (outside the repository: they hold vendor prompts) and writes, next to each
run's extract, `<run>.session.json` with what the workspace's own agents, skills and commands
add: the agent prompt that replaces the base prompt, the skills and agents listings, and which
session reminders appear where. Vendor text never leaves: built-in entries of a listing become
the placeholders lsp-agents prints, and reminders are recorded by name and placement only.

    python tests/conformance/session_extract.py BATCH_DIR/<scenario> OUT_DIR/<scenario>
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from session_extract_claude import found_claude
from session_extract_droid import builtin_view as droid_builtin_view
from session_extract_droid import mentions as droid_mentions

from lsp_agents.core.agents.claude_builtins import builtin_prompt
from lsp_agents.core.agents.claude_found import VARIANTS_ADVICE
from lsp_agents.core.agents.qwen_typed import ARGS_NOTE, IMPORTANT, bundled_skill
from lsp_agents.core.agents.typed_commands import DROID_SKILL_PREAMBLE

WS, HOME = "/tmp/oracle/ws", "/tmp/oracle/home"
DELEGATE_PROMPT = "DELEGATED-PROMPT-MARKER: reply with the single word hi"  # oracle_extra.py's
# The built-in agents of the pinned versions: their names only (their descriptions are vendor text).
BUILTIN_AGENTS = {
    "opencode": {"explore", "general"},
    "kilo": {"explore", "general"},
    "claude": {"claude", "Explore", "general-purpose", "Plan", "statusline-setup"},
}
PLACEHOLDERS = {
    "opencode-skill": "[opencode built-in skill]",
    "opencode-agent": "[opencode built-in agent]",
    "claude-skills": "[Claude Code built-in skills]",
    "claude-agent": "[Claude Code built-in agent]",
    "codex-skills": "[Codex system skills]",
    "gemini-skills": "  [Gemini CLI built-in skills]",
    "opencode-base": "[opencode base prompt]",
    "claude-base": "[Claude Code base prompt]",
    "kilo-skill": "[Kilo Code CLI built-in skill]",
    "kilo-agent": "[Kilo Code CLI built-in agent]",
    "kilo-base": "[Kilo Code CLI base prompt]",
    "qwen-skills": "[Qwen Code bundled skills]",
    "qwen-agents": "[Qwen Code built-in agents]",
    "copilot-cli-skills": "[Copilot CLI built-in skills]",
    "copilot-cli-agents": "[Copilot CLI built-in agents]",
    "copilot-cli-agent": "[Copilot CLI agent instructions preamble]",
    "droid-skills": "[droid built-in skills]",
    "droid-agents": "[droid built-in subagents]",
    "droid-subagent": "[droid subagent preamble]",
    "droid-contract": "[droid subagent contract]",
    "cline-skills": "[Cline skills tool]",
    "continue-skills": "[Continue Skills tool]",
}


def strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings(item)


def main_body(raw: Path) -> dict | None:
    """The request of the real turn: the last one that offers tools (not a title request, not
    Qwen Code's managed-memory request after the turn, not a token count: Claude Code's /context);
    None when the CLI sent none."""
    counts = {r["body_file"] for r in _requests(raw) if "/count_tokens" in r.get("path", "")}
    bodies = [json.loads(p.read_bytes()) for p in sorted((raw / "bodies").glob("*.json")) if f"bodies/{p.name}" not in counts]
    turns = [b for b in bodies if isinstance(b, dict) and b.get("tools") and not _side_request(b)]
    return turns[-1] if turns else None


def _requests(raw: Path) -> list[dict]:
    log = raw / "requests.jsonl"
    return [json.loads(line) for line in log.read_text().splitlines() if line.strip()] if log.exists() else []


def _side_request(body: dict) -> bool:
    system = (body.get("messages") or [{}])[0].get("content")
    return isinstance(system, str) and system.startswith("You are now acting as the managed memory extraction subagent")


def cut(text: str, start: str, end: str | None) -> str | None:
    i = text.find(start)
    if i < 0:
        return None
    j = len(text) if end is None else text.find(end, i)
    return text[i : j if j >= 0 else len(text)]


def first(body: dict, start: str, end: str | None) -> str | None:
    return next((found for s in strings(body) if (found := cut(s, start, end)) is not None), None)


def prompt_layer(text: str, files: dict, title: str) -> dict:
    """The agent's prompt when the user wrote it (it occurs in a file of the snapshot), else the
    placeholder of the harness's own prompt."""
    if any(text in content for content in files.values()):
        return {"name": "agent", "placement": "system", "text": text}
    return {"name": "base", "placement": "system", "text": PLACEHOLDERS[f"{title.split()[0].lower()}-base"]}


def opencode(body: dict, args: list[str], files: dict, flavor: str = "opencode") -> dict:
    """opencode's layout; `flavor` "kilo" for Kilo's names (its built-in skill's location is `builtin`)."""
    system = body["messages"][0]["content"]
    layers = []
    if "--agent" in args:
        head = system.split("\nYou are powered by the model named ", 1)[0]
        if flavor == "kilo":  # Kilo appends the agent's prompt to its own: the user's text is its last lines
            prompt = next(t for t in map(str.strip, agent_prompts(files)) if t and head.endswith("\n" + t))
            layers += [{"name": "base", "placement": "system", "text": PLACEHOLDERS["kilo-base"]}]
            layers += [{"name": "agent", "placement": "system", "text": prompt}]
        else:
            layers.append(prompt_layer(head, files, "opencode"))
    skills = cut(system, "Skills provide specialized instructions", "</available_skills>") + "</available_skills>"
    location = {"opencode": "&lt;built-in&gt;", "kilo": "builtin"}[flavor]
    skills = re.sub(
        rf"(<description>)[^<]*(</description>\n    <location>{location}</location>)",
        lambda m: m.group(1) + PLACEHOLDERS[f"{flavor}-skill"] + m.group(2),
        skills,
    )
    layers.append({"name": "skills", "placement": "system", "text": skills})
    agents = first(body["tools"], "Available agent types and the tools they have access to:", None)
    lines = [
        f"- {m.group(1)}: {PLACEHOLDERS[f'{flavor}-agent']}"
        if (m := re.match(r"- ([^:]+): ", line)) and m.group(1) in BUILTIN_AGENTS[flavor]
        else line
        for line in agents.split("\n")
    ]
    layers.append({"name": "agents", "placement": "tool", "text": "\n".join(lines)})
    reminders = []
    user = body["messages"][1]["content"]
    if isinstance(user, list) and any(p.get("text", "").startswith("<system-reminder>\n# Plan Mode") for p in user[1:]):
        reminders.append({"name": "plan-mode", "placement": "user"})
    if "--command" in args:
        message = body["messages"][1]["content"]
        reminders.append(
            {"name": "command", "placement": "user", "text": message if isinstance(message, str) else message[0]["text"]}
        )
    last = body["messages"][-1]
    if last["role"] == "assistant" and str(last["content"]).startswith("CRITICAL - MAXIMUM STEPS REACHED"):
        reminders.append({"name": "max-steps", "placement": "assistant"})
    return {"layers": layers, "reminders": reminders}


def claude(body: dict, args: list[str], files: dict) -> dict:
    user_agents, user_entries = user_names(files)
    layers = []
    if "--agent" in args:
        layers.append(prompt_layer(body["system"][-1]["text"], files, "Claude Code"))
    listing = first(body["messages"], "Available agent types for the Agent tool:", "\n\nWhen you launch")
    if listing is not None:  # an agent run as the main thread lists none
        lines = [
            f"- {m.group(1)}: {PLACEHOLDERS['claude-agent']}"
            if (m := re.match(r"- ([^:]+): ", line)) and m.group(1) not in user_agents
            else line
            for line in listing.split("\n")
        ]
        layers.append({"name": "agents", "placement": "system-message", "text": "\n".join(lines)})
    skills = first(body["messages"], "The following skills are available for use with the Skill tool:", "\n\n")
    if skills is not None:  # an agent without the Skill tool lists none
        rest = first(body["messages"], skills, None)[len(skills) :]
        rest = re.split(r"\n\n(?:Plan mode is active|Today's date)", rest, maxsplit=1)[0]
        kept = [line for line in rest.split("\n") if line]
        for index, line in enumerate(kept):
            name = re.match(r"- (\S+?)(?: \([^)]*\))?: ", line)
            if not name or name.group(1) not in user_entries:
                kept = [*kept[:index], PLACEHOLDERS["claude-skills"]]
                break
        layers.append({"name": "skills", "placement": "system-message", "text": skills + "\n\n" + "\n".join(kept)})
    plan = first(body["messages"], "Plan mode is active.", None)
    reminders = [{"name": "plan-mode", "placement": "system-message"}] if plan else []
    return {"layers": layers, "reminders": reminders}


def codex(body: dict, args: list[str], files: dict) -> dict:
    listing = first(body["input"], "<skills_instructions>", "### How to use skills")
    system_root = next(
        m.group(1) for m in re.finditer(r"- `(r\d+)` = `([^`]*)`", listing) if m.group(2).endswith("/skills/.system")
    )
    out, collapsed = [], False
    for line in listing.rstrip("\n").split("\n"):
        if f"(file: {system_root}/" in line:
            if not collapsed:
                out.append(PLACEHOLDERS["codex-skills"])
                collapsed = True
            continue
        out.append(line)
    return {"layers": [{"name": "skills", "placement": "developer", "text": "\n".join(out)}], "reminders": []}


def gemini(body: dict, args: list[str], files: dict) -> dict:
    listing = first(body, "# Available Agent Skills", "</available_skills>") + "</available_skills>"
    builtin = re.compile(
        r"  <skill>\n    <name>[^<]*</name>\n    <description>[^<]*</description>\n    <location>(?!/tmp/oracle/(?:ws|home)/)[^<]*</location>\n  </skill>\n"
    )
    blocks = builtin.findall(listing)
    text = builtin.sub("", listing, count=len(blocks))
    text = (
        text.replace("<available_skills>\n", "<available_skills>\n" + PLACEHOLDERS["gemini-skills"] + "\n", 1) if blocks else text
    )
    return {"layers": [{"name": "skills", "placement": "system", "text": text}], "reminders": []}


def agent_prompts(files: dict):
    """Each snapshot file's text after its `---` header, if any (a candidate agent prompt)."""
    for text in files.values():
        yield text.split("\n---\n", 1)[1] if text.startswith("---\n") and "\n---\n" in text else text


def pi(body: dict, args: list[str], files: dict) -> dict:
    """The skills listing at the end of the system prompt (pi has no built-in skills)."""
    listing = cut(body["messages"][0]["content"], "The following skills provide specialized instructions", "</available_skills>")
    layers = [{"name": "skills", "placement": "system", "text": listing + "</available_skills>"}] if listing else []
    return {"layers": layers, "reminders": []}


def kilo(body: dict, args: list[str], files: dict) -> dict:
    return opencode(body, args, files, "kilo")


def qwen(body: dict, args: list[str], files: dict) -> dict:
    """The skills and commands reminders of the first user message (bundled skills collapsed
    into one placeholder line) and the agents listing of the Agent tool (built-in agents, which
    come last, likewise)."""
    parts = [p["text"] for p in body["messages"][1]["content"]]
    layers = []
    skills = next(p for p in parts if p.startswith("<system-reminder>\nThe following skills are available"))
    bundled = re.compile(
        r"<skill>\n<name>\n[^<]*\n</name>\n<description>\n[^<]*\n</description>\n<location>\nbundled\n</location>\n</skill>\n?"
    )
    head, rest = skills.split("<available_skills>\n", 1)
    rest = bundled.sub("", rest).replace("\n\n</available_skills>", "\n</available_skills>")
    layers.append(
        {"name": "skills", "placement": "user", "text": f"{head}<available_skills>\n{PLACEHOLDERS['qwen-skills']}\n{rest}"}
    )
    commands = next((p for p in parts if p.startswith("<system-reminder>\nThe following skills/commands became")), None)
    if commands is not None:
        layers.append({"name": "commands", "placement": "user", "text": commands})
    listing = first(body["tools"], "Available agent types and the tools they have access to:", "\n\nWhen using the Agent tool")
    user_agents = {
        m.group(1).strip()
        for path, text in files.items()
        if re.search(r"/agents/[^/]+\.md$", path)  # `.qwen/agents` or `$QWEN_HOME/agents`
        for m in [re.search(r"^name:\s*(.+)$", text, re.M)]
        if m
    }
    lines = listing.split("\n")
    cut = next(i for i, line in enumerate(lines) if (m := re.match(r"- \*\*(.+?)\*\*: ", line)) and m.group(1) not in user_agents)
    layers.append({"name": "agents", "placement": "tool", "text": "\n".join([*lines[:cut], PLACEHOLDERS["qwen-agents"]])})
    return {"layers": layers, "reminders": []}


def copilot_cli(body: dict, args: list[str], files: dict) -> dict:
    """The skills listing (system message; built-in skills, `<location>builtin</location>`, become one
    placeholder), the selected agent's block (its vendor preamble a placeholder) and the custom agents
    of the task tool's description (the built-in agents before them a placeholder)."""
    system = body["messages"][0]["content"]
    listing = cut(system, "<available_skills>", "</available_skills>") + "</available_skills>"
    builtin = re.compile(
        r"<skill>\n  <name>[^<]*</name>\n  <description>[^<]*</description>\n  <location>builtin</location>\n</skill>\n"
    )
    blocks = builtin.findall(listing)
    if blocks:
        first = listing.index(blocks[0])
        listing = listing[:first] + PLACEHOLDERS["copilot-cli-skills"] + "\n" + builtin.sub("", listing[first:])
    layers = [{"name": "skills", "placement": "system", "text": listing}]
    if "--agent" in args:
        block = cut(system, "<agent_instructions>\n", "</agent_instructions>") + "</agent_instructions>"
        preamble = block.split("\n")[1]
        layers.append(
            {"name": "agent", "placement": "system", "text": block.replace(preamble, PLACEHOLDERS["copilot-cli-agent"], 1)}
        )
    task = next((t["function"]["description"] for t in body["tools"] if t["function"]["name"] == "task"), None)
    if task is not None:  # an agent whose tools leave out the task tool lists none
        custom = task[task.index("\n\nUser-provided custom agents:") :] if "User-provided custom agents:" in task else ""
        layers.append({"name": "agents", "placement": "tool", "text": PLACEHOLDERS["copilot-cli-agents"] + custom})
    return {"layers": layers, "reminders": []}


def droid(body: dict, args: list[str], files: dict) -> dict:
    """The skills listing and the custom droids, two `<system-reminder>` parts of the first user
    message; the built-in skills (after the user's, named in no SKILL.md of the snapshot) and the
    built-in subagents become placeholders."""
    parts = [p["text"] for p in body["messages"][1]["content"]]
    skills = next(p for p in parts if p.startswith("<system-reminder>\nAvailable skills"))
    names = {
        m.group(1)
        for path, text in files.items()
        if path.endswith("/SKILL.md")
        if (m := re.search(r"^name:\s*(\S+)", text, re.M))
    }
    lines = skills.split("\n")
    first = next((i for i, line in enumerate(lines[2:], 2) if line.split(":", 1)[0] not in names), len(lines) - 1)
    text = "\n".join([*lines[:first], PLACEHOLDERS["droid-skills"], "</system-reminder>"])
    layers = [{"name": "skills", "placement": "user", "text": text}]
    subagents = next((p for p in parts if "Available subagents for the Task tool" in p), None)
    if subagents is not None:  # a droid delegated to has no Task tool, hence no listing
        custom = cut(subagents, "Custom droids available (from", "\n\nOnly invoke subagents")
        agents = PLACEHOLDERS["droid-agents"] + ("\n\n" + custom if custom else "")
        layers.append({"name": "agents", "placement": "user", "text": agents})
    return {"layers": layers, "reminders": []}


def droid_delegated(raw: Path, name: str, files: dict) -> tuple[dict, dict]:
    """The request of the droid `name` that droid ran for the stub's `Task` call (ORACLE_DELEGATE): its
    system prompt (droid's subagent preamble and contract as placeholders around the droid's body), the
    skills listing and the instructions, cut as the oracle cuts them."""
    sub = _delegated_request(raw)
    system = sub["messages"][0]["content"]
    body = system[system.index("\n\n") + 2 : system.rindex("\n\nSubagent contract:")]
    agent = f"{PLACEHOLDERS['droid-subagent']}\n\n{body}\n\n{PLACEHOLDERS['droid-contract']}"
    found = droid(sub, [], files)
    part = next(p["text"] for p in sub["messages"][1]["content"] if "# Codebase and user instructions" in p["text"])
    instructions = cut(part, "# Codebase and user instructions", None)
    instructions = instructions[: instructions.rindex("</coding_guidelines>") + len("</coding_guidelines>")]
    found["layers"][:0] = [{"name": "agent", "placement": "system", "text": agent}]
    found["layers"].append({"name": "instructions", "placement": "user", "text": instructions})
    return sub, {"delegate": name, **found}


def _delegated_request(raw: Path) -> dict:
    """The sub-agent's first request: a user message holds DELEGATE_PROMPT, and no tool result yet."""
    bodies = [json.loads(p.read_bytes()) for p in sorted((raw / "bodies").glob("*.json"))]
    return next(
        b
        for b in bodies
        if isinstance(b, dict)
        and any(m.get("role") == "user" and DELEGATE_PROMPT in str(m.get("content")) for m in b.get("messages", []))
        and not any(m.get("role") == "tool" for m in b.get("messages", []))
    )


def cline(body: dict, args: list[str], files: dict) -> dict:
    """The skills' names at the end of the skills tool's description (the rest a placeholder), and the
    custom agents' tools (`subagent_NAME`): each tool's name and description, a blank line between."""
    layers = []
    tool = next((t["function"]["description"] for t in body["tools"] if t["function"]["name"] == "skills"), None)
    if tool is not None:  # no skill: no skills tool
        at = tool.find(" Available skills: ")
        text = PLACEHOLDERS["cline-skills"] + (tool[at:] if at >= 0 else "")
        layers.append({"name": "skills", "placement": "tool", "text": text})
    agents = [t["function"] for t in body["tools"] if t["function"]["name"].startswith("subagent_")]
    if agents:
        text = "\n\n".join(f"{a['name']}\n{a['description']}" for a in agents)
        layers.append({"name": "agents", "placement": "tool", "text": text})
    return {"layers": layers, "reminders": []}


def cline_delegated(raw: Path, agent_tool: str) -> tuple[dict, dict]:
    """The request of the sub-agent Cline ran for the stub's call of `agent_tool` (ORACLE_DELEGATE, see
    oracle_extra.py), and its layers: the system prompt split into the agent's body and the instructions
    the main request ends with, then the tools' listings."""
    bodies = [json.loads(p.read_bytes()) for p in sorted((raw / "bodies").glob("*.json"))]
    main = next(b for b in bodies if isinstance(b, dict) and b.get("messages"))
    sub = _delegated_request(raw)
    name = next(t["function"]["description"] for t in main["tools"] if t["function"]["name"] == agent_tool).split('"')[1]
    system, main_system = sub["messages"][0]["content"], main["messages"][0]["content"]
    at = next(
        (i for i in range(len(system)) if system.startswith("\n\n", i) and main_system.endswith(system[i + 2 :])), len(system)
    )
    layers = [{"name": "agent", "placement": "system", "text": system[:at]}]
    if at < len(system):
        layers.append({"name": "instructions", "placement": "system", "text": system[at + 2 :]})
    found = cline(sub, [], {})
    found["layers"][:0] = layers
    return sub, {"delegate": name, **found}


def continue_cli(body: dict, args: list[str], files: dict) -> dict:
    """The skills named in the Skills tool's description (its fixed text a placeholder)."""
    tool = next(t["function"]["description"] for t in body["tools"] if t["function"]["name"] == "Skills")
    text = PLACEHOLDERS["continue-skills"] + "\n" + tool.split("listed below:\n", 1)[1]
    return {"layers": [{"name": "skills", "placement": "tool", "text": text}], "reminders": []}


def user_names(files: dict) -> tuple[set[str], set[str]]:
    """Names of the Claude agents, and of the skill folders and commands, defined in the snapshot
    (in `.claude` or in a config folder `CLAUDE_CONFIG_DIR` moved)."""
    agents, entries = set(), set()
    for path, text in files.items():
        if re.search(r"/agents/[^/]+\.md$", path):
            if m := re.search(r"^name:\s*(.+)$", text, re.M):
                agents.add(m.group(1).strip())
        elif "/skills/" in path and path.endswith("/SKILL.md"):
            entries.add(path.rsplit("/", 2)[-2])
        elif "/commands/" in path and path.endswith(".md"):
            entries.add(path.split("/commands/", 1)[1][:-3].replace("/", ":"))
    return agents, entries


def typed_claude(body: dict) -> str:
    """Claude Code's typed command: the parts of its user message from `<command-message>` on, up to the
    reminder on directory-scoped variants (an `@path` in the body makes the CLI read the file first, in
    user messages of their own before it); a line no command took, as sent: the last text part of the
    last user message."""
    parts = _command_parts(body)
    if parts is None:
        last = [m for m in body["messages"] if m["role"] == "user"][-1]["content"]
        return last if isinstance(last, str) else [p["text"] for p in last if p.get("type") == "text"][-1]
    end = next((i for i, text in enumerate(parts) if text.startswith(VARIANTS_PART)), len(parts))
    # Before a reminder of its own the message's last part ends in the newline of the API's merge.
    return "".join(parts[:end]).removesuffix("\n" if end < len(parts) else "")


def _command_parts(body: dict) -> list[str] | None:
    """The text parts of the user message holding the typed command, from `<command-message>` on; None
    when no message holds one."""
    typed = [m for m in body["messages"] if isinstance(m["content"], list) and "<command-message>" in str(m["content"])]
    if not typed:
        return None
    parts = [p["text"] for p in typed[0]["content"] if p.get("type") == "text"]
    start = next((i for i, text in enumerate(parts) if text.startswith("<command-message>")), len(parts))
    return parts[start:]


VARIANTS_PART = "<system-reminder>\nDirectory-scoped variants of the "


def variants_claude(body: dict) -> str | None:
    """The reminder Claude Code adds after a typed command's message naming its directory-scoped variants
    (FINDINGS.md SV-1), its closing paragraph of advice (Claude Code's text) as lsp-agents' placeholder."""
    found = [text for text in _command_parts(body) or [] if text.startswith(VARIANTS_PART)]
    if not found:
        return None
    lines = found[0].split("\n")
    return "\n".join([*lines[:-2], VARIANTS_ADVICE, lines[-1]])


def claude_builtin(message: str, typed: str, files: dict) -> tuple[str, bool] | None:
    """Where Claude Code ran one of its built-in commands (no file defines the name typed): the message
    with the built-in's prompt (vendor text) as lsp-agents' placeholder, after the `<command-…>` lines,
    and whether it ran as a subagent (its request's message is the prompt alone); else None."""
    # The command the line ran (`/ns tool` runs `ns:tool`), else, for one run as a subagent, the name typed.
    ran = re.search(r"^<command-name>/(.*)</command-name>$", message, re.M)
    name = ran[1] if ran else re.split(r"\s", typed.removeprefix("/"), maxsplit=1)[0]
    if name in user_names(files)[1]:
        return None
    lines = re.match(r"<command-message>.*\n<command-name>.*\n(?:<command-args>[\s\S]*?</command-args>\n)?", message)
    return (lines[0] if lines else "") + builtin_prompt(name), lines is None


MENTION_PARTS = (
    "<system-reminder>\nCalled the ",
    "<system-reminder>\nResult of calling the ",
    "<system-reminder>\nNote: ",
    "<system-reminder>\nprompt.mention hook additional context: ",
    "<system-reminder>\nContents of ",
)


def mentions_claude(body: dict) -> str | None:
    """The Read (or `ls`) calls and results Claude Code sends before a typed command's message for its
    `@path` mentions, and the agents-md hook's text and the nested files the reads add (FINDINGS.md §11s):
    the parts of the user messages before it that are tool calls, results, notes, hook texts or nested
    files, each one's final newline (added where the API merges user messages) dropped, joined by newlines."""
    parts = []
    for message in body["messages"]:
        content = message["content"]
        texts = [content] if isinstance(content, str) else [p["text"] for p in content if p.get("type") == "text"]
        parts += [text.removesuffix("\n") for text in texts if text.startswith(MENTION_PARTS)]
        if "<command-message>" in str(content):
            break
    return "\n".join(parts) if parts else None


def typed_gemini(body: dict) -> str:
    """Gemini CLI's typed command: the parts of the last user turn after its `<session_context>`
    part (the turn that sent it merges into it), joined: an `@{…}` injection makes several."""
    parts = [p["text"] for p in [c for c in body["contents"] if c["role"] == "user"][-1]["parts"]]
    return "".join(parts[1:] if parts[0].startswith("<session_context>") else parts)


def typed_qwen(body: dict) -> str:
    """Qwen Code's typed command: the text parts of the first user message after its reminders, joined,
    its vendor text (`qwen_vendor_text`) replaced by lsp-agents' placeholders."""
    content = body["messages"][1]["content"]
    if isinstance(content, str):
        return qwen_vendor_text(content)
    texts = [p["text"] for p in content if p.get("type") == "text"]
    start = next((i for i, text in enumerate(texts) if not text.startswith("<system-reminder>")), len(texts) - 1)
    return qwen_vendor_text("".join(texts[start:]))


QWEN_SKILL_HEAD = re.compile(rf"Base directory for this skill: (?!{WS}|{HOME})\S*/bundled/([^/\n]+)\n{re.escape(IMPORTANT)}\n\n")


def qwen_vendor_text(message: str) -> str:
    """A typed skill's message (FINDINGS.md §11i) with the paragraph about the arguments file and the
    body of each bundled skill (up to the next skill's wrapper, the line typed or the message's end, less
    the wrapper's last newline) as lsp-agents shows them; the bundled skills' folder is left as sent."""
    message = re.sub(r"(?<=\n\n)[^\n]*(?=\n<skill-args-file>)", ARGS_NOTE, message)  # the paragraph before the tag
    out, position = "", 0
    for head in QWEN_SKILL_HEAD.finditer(message):
        ends = [message.find(mark, head.end()) for mark in ("\nBase directory for this skill: ", "\n\n\n/")]
        end = min([e for e in ends if e != -1] or [len(message.removesuffix("\n"))])
        out += message[position : head.end()] + bundled_skill(head[1]).body
        position = end
    return out + message[position:]


def typed_pi(body: dict) -> str:
    """pi's typed command: the text of the first user message."""
    content = next(m for m in body["messages"] if m["role"] == "user")["content"]
    return content if isinstance(content, str) else "".join(p["text"] for p in content if p.get("type") == "text")


def typed_droid(body: dict) -> str:
    """droid's typed command: the last message, a user message of its own after the reminders; for a
    skill, droid's sentence before its `<skill>` block (vendor text) replaced by lsp-agents' placeholder."""
    message = body["messages"][-1]["content"]
    return re.sub(r'(?<=\A<system-notification>\n)[^\n]*(?=\n<skill filePath=")', DROID_SKILL_PREAMBLE, message)


def typed_last_user(body: dict) -> str:
    """The text of the last user message (Cline, Continue: the message typed)."""
    content = [m for m in body["messages"] if m["role"] == "user"][-1]["content"]
    return content if isinstance(content, str) else "".join(p["text"] for p in content if p.get("type") == "text")


def typed_copilot_cli(body: dict) -> str:
    """Copilot CLI's user message, without the `<current_datetime>` paragraph it opens with."""
    return re.sub(r"\A<current_datetime>[^<]*</current_datetime>\n\n", "", typed_last_user(body))


def typed_codex(body: dict) -> str:
    """Codex's last user message of the Responses input."""
    message = [m for m in body["input"] if m.get("type") == "message" and m.get("role") == "user"][-1]
    return "".join(p["text"] for p in message["content"] if p.get("type") == "input_text")


# What a typed command (`ORACLE_TYPED`, see oracle_extra.py) sends, per CLI.
TYPED = {
    "claude": typed_claude,
    "gemini": typed_gemini,
    "qwen": typed_qwen,
    "pi": typed_pi,
    "droid": typed_droid,
    "cline": typed_last_user,
    "continue": typed_last_user,
    "copilot-cli": typed_copilot_cli,
    "codex": typed_codex,
}


def placeholders(value):
    if isinstance(value, str):
        return value.replace(WS, "{WS}").replace(HOME, "{HOME}")
    if isinstance(value, list):
        return [placeholders(v) for v in value]
    if isinstance(value, dict):
        return {k: placeholders(v) for k, v in value.items()}
    return value


def extract(raw: Path) -> dict:
    job = json.loads((raw / "job.json").read_text())
    body = main_body(raw)
    harness, args = job["harness"], job.get("args", [])
    typed = job.get("env", {}).get("ORACLE_TYPED")
    if body is None:
        if typed is None:
            raise ValueError("no request of a turn was captured")
        # The line ran a command in the CLI alone (Claude Code's local built-ins): nothing reached the model.
        return {"harness": harness, "args": args, "typed": typed, "nothing_sent": True, "layers": [], "reminders": []}
    files = json.loads((raw / "files.json").read_text())
    delegate = job.get("env", {}).get("ORACLE_DELEGATE")
    if delegate is not None:
        body, found = (
            cline_delegated(raw, f"subagent_{delegate}") if harness == "cline" else droid_delegated(raw, delegate, files)
        )
        return placeholders({"harness": harness, "args": args, **_verified(body, found)})
    extractors = {
        "claude": claude,
        "opencode": opencode,
        "codex": codex,
        "gemini": gemini,
        "qwen": qwen,
        "kilo": kilo,
        "pi": pi,
        "copilot-cli": copilot_cli,
        "droid": droid,
        "cline": cline,
        "continue": continue_cli,
    }
    found = extractors[harness](body, args, files)
    if typed is not None:  # the message, unless no command took the line (then it is sent as typed)
        found["typed"] = typed
        if harness == "droid" and (tagged := droid_mentions(body)) is not None:
            found["reminders"].append({"name": "mentions", "placement": "user", "text": tagged})
        # Claude Code reads the mentions of a line no command takes as well (FINDINGS.md §11o).
        if harness == "claude" and (read := mentions_claude(body)) is not None:
            found["reminders"].append({"name": "mentions", "placement": "user", "text": read})
        if harness == "claude" and (skills := found_claude(body)) is not None:
            found["reminders"].append({"name": "skills-found", "placement": "system-message", "text": skills})
        if (message := TYPED[harness](body)) != typed:
            message = droid_builtin_view(message, typed) if harness == "droid" else message
            if harness == "claude" and (builtin := claude_builtin(message, typed, files)) is not None:
                message, forked = builtin
                found.update({"forked": True} if forked else {})
            found["reminders"].append({"name": "command", "placement": "user", "text": message})
            if harness == "claude" and (variants := variants_claude(body)) is not None:
                found["reminders"].append({"name": "skill-variants", "placement": "user", "text": variants})
    return placeholders({"harness": harness, "args": args, **_verified(body, found)})


def _verified(body: dict, found: dict) -> dict:
    """`found`, once every line of its layers but the placeholders is known to be in `body`."""
    sent = "\n".join(strings(body))
    for layer in found["layers"]:
        for line in layer["text"].split("\n"):
            if not any(p.strip() in line for p in PLACEHOLDERS.values()):
                assert line in sent, f"not sent verbatim: {line!r}"
    return found


def main(batch: str, out: str) -> None:
    for raw in sorted((Path(batch) / "raw").iterdir()):
        result = extract(raw)
        target = Path(out) / f"{raw.name}.session.json"
        target.write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        print(target)


if __name__ == "__main__":
    main(*sys.argv[1:])
