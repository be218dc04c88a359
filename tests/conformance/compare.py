"""What `lsp-agents` says for one oracle run, set beside the oracle's extract.

Shared by the conformance test (the goldens in this folder) and the differential runner (scenarios
generated and captured on the fly): both rebuild a scenario tree, run `lsp-agents prompt` and
`lsp-agents reminders` for the run's launch directory and reads (the CLI's entry, in one process
kept for all of them: cli_runner.py), and compare the texts exactly after putting the {WS} and
{HOME} placeholders back.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import shutil
import subprocess
import sys
from pathlib import Path

from lsp_agents.core.agents.claude_builtins import BUILTIN_PROMPT
from lsp_agents.core.agents.claude_mentions import MENTION_SPOT
from lsp_agents.core.agents.cline_at import SPOTS as CLINE_SPOTS
from lsp_agents.core.agents.droid_at import SPOTS as DROID_TAG_SPOTS
from lsp_agents.core.agents.droid_builtins import PROMPT_SPOT as DROID_PROMPT
from lsp_agents.core.agents.gemini_at import AT_SPOT
from lsp_agents.core.agents.injections import OUTSIDE_CONTENT
from lsp_agents.core.agents.qwen_typed import SKILL_SPOTS
from lsp_agents.core.agents.typed_commands import SHELL_OUTPUT

# Oracle harness name -> lsp-agents harness id (the same for the CLIs added after the first four).
HARNESS_IDS = {
    "claude": "claude-code",
    "codex": "codex",
    "opencode": "opencode",
    "gemini": "gemini",
    "pi": "pi",
    "copilot-cli": "copilot-cli",
    "qwen": "qwen",
    "kilo": "kilo",
    "droid": "droid",
    "continue": "continue",
    "cline": "cline",
    "openhands": "openhands",
    "crush": "crush",
}
# Known spots of a typed command's message (FINDINGS.md §11f), each a placeholder of the model that
# stands for any text at its place; the rest of the message is compared byte for byte. Where Gemini CLI
# or Qwen Code put the output of a `!{…}` shell command (run with `--yolo`), lsp-agents, which never
# runs a command, says so; where Qwen Code inlines a file outside the workspace (`@{../x}`, a symlink
# out), lsp-agents, which never reads there, says so; so where Claude Code reads a file an `@path`
# mention names outside the workspace, and where it lists a mentioned folder (in readdir order); so
# where a skill Qwen Code runs when typed says where it wrote the arguments (its session id, vendor text),
# and where a bundled skill's folder and body are (FINDINGS.md §11i); where Gemini CLI, reading a typed
# line's `@path` references (§11h), names a built-in agent (vendor text), or reads what depends on file
# times or the order its glob walks folders in; where Claude Code sends a built-in command's own prompt
# (vendor text, §11g), lsp-agents shows a placeholder; so where Cline CLI attaches a file an explicit
# `@/…`, `@~/…`, `@../…` mention names outside the workspace (the mention replaced or kept, the file's block
# or nothing) and where it attaches an image (§11l); where droid sends a built-in command's prompt (vendor text,
# §11m) and what it sends for a tagged path lsp-agents does not read (§11m).
KNOWN_SPOTS = re.compile(
    f"{SHELL_OUTPUT.pattern}|{OUTSIDE_CONTENT.pattern}|{MENTION_SPOT.pattern}|{SKILL_SPOTS.pattern}|{AT_SPOT.pattern}"
    f"|{BUILTIN_PROMPT.pattern}|{CLINE_SPOTS.pattern}|{DROID_PROMPT.pattern}|{DROID_TAG_SPOTS.pattern}"
)

# Arguments that leave the instruction text as it is (test_sessions covers what they change). Claude
# Code run as an agent (`--agent`) ends its instruction block with a newline, which is not modelled.
SESSION_ARGS = {"opencode": {"--agent", "--command"}, "claude": {"--permission-mode"}}
CONFIG_NAMES = {
    ".claude.json",
    "settings.json",
    "config.toml",
    "opencode.json",
    "opencode.jsonc",
    "kilo.json",
    "kilo.jsonc",
    "config.yaml",
    "models.json",
}
ORACLE_WS, ORACLE_HOME = "/tmp/oracle/ws", "/tmp/oracle/home"
# The oracle's Copilot CLI extractor (capture.py `eager_copilot`) keeps the runs, joined by "\n\n", of
# the elements it recognises: `<custom_instruction>` blocks, the two tables, and the raw text of a
# snapshot `*.instructions.md` file that is at least MIN_LINE characters long once trimmed. A shorter
# file the CLI inlines (a blank one, "hi") is invisible to it: the extract leaves it out and cuts the
# run in two where it sits. The model's text is passed through the same lens (`copilot_extractor_view`).
COPILOT_OPEN, COPILOT_CLOSE = "<custom_instruction>\n", "\n</custom_instruction>"
COPILOT_TABLES = ("Here is a list of instruction files that contain rules", "Here is a list of nested AGENTS.md files")
COPILOT_JOIN = "\n\n"
ORACLE_MIN_LINE = 12
# The message of every run; opencode wraps it in double quotes.
PROMPT = '"USER-PROMPT-MARKER: reply with the single word hi"'
# Listings whose order the CLI does not fix: Continue lists skills as their files finish reading; droid
# and Cline follow the directory listing order (readdir) of the capture's tree. Their entries (lines,
# or names separated by ", ") are compared as multisets.
UNORDERED_LISTINGS = {"continue": {"skills"}, "droid": {"skills", "agents"}, "cline": {"skills"}}
# What the oracle's read extractors keep: droid's (`reads_droid`) the messages after a read that hold
# "<coding_guidelines>", so a reminder announcing only skills found on the read (GD-15) is not
# extracted; Claude Code's (`reads_claude`) a system-role message only when it opens with the
# agents-md hook's text, so one announcing only skills found on the read (GD-8) is not either.
EXTRACTED_READS = {
    "droid": lambda text: "<coding_guidelines>" in text,
    "claude": lambda text: not text.startswith("New skills discovered in "),
}
# Claude Code names the skills a read discovers in the order the OS lists their folder (readdir),
# which a copy of the capture's tree does not keep: those names are compared as a set.
DISCOVERED = re.compile(r"^(New skills discovered in [^\n]*\n)((?:- [^\n]*(?:\n|$))+)", re.M)


def unmodelled_args(run: dict) -> list[str]:
    """The run's extra CLI arguments that change what the CLI sends in ways lsp-agents does not model."""
    return [a for a in run.get("args", []) if a.startswith("--") and a not in SESSION_ARGS.get(run["harness"], ())]


def _copy_tree(source: Path, dest: Path, ws: Path, home: Path) -> None:
    """Copy keeping symlinks as links; a link target naming {WS} or {HOME} is re-pointed, as the oracle does."""
    dest.mkdir(parents=True, exist_ok=True)
    if not source.is_dir():
        return
    for entry in sorted(source.iterdir()):
        target = dest / entry.name
        if entry.is_symlink():
            link = os.readlink(entry).replace("{WS}", str(ws)).replace("{HOME}", str(home))
            os.symlink(link, target)
        elif entry.is_dir():
            _copy_tree(entry, target, ws, home)
        else:
            shutil.copyfile(entry, target)


def _relocate(home: Path, ws: Path) -> None:
    """Point the tree at its new place, as the oracle's fixed paths pointed at the captured one.

    A file may spell the oracle's fixed paths out (an absolute import, an absolute glob); the
    oracle also replaces {WS}/{HOME} in the harness config files of the home template.
    """
    for root in (home, ws):
        for path in root.rglob("*"):
            if not path.is_file() or path.is_symlink():
                continue
            data = path.read_bytes()
            updated = data.replace(ORACLE_WS.encode(), bytes(ws)).replace(ORACLE_HOME.encode(), bytes(home))
            if path.name in CONFIG_NAMES:
                updated = updated.replace(b"{WS}", bytes(ws)).replace(b"{HOME}", bytes(home))
            if updated != data:
                path.write_bytes(updated)


def oracle_length_folder() -> Path:
    """A new folder as long as /tmp/oracle: /tmp/oh and four hexadecimal digits. OpenHands cuts a skill
    description over 1,024 characters around a notice naming the skill's file, so its text depends on
    the length of the workspace's path."""
    while True:
        folder = Path("/tmp") / f"oh{secrets.token_hex(2)}"
        try:
            folder.mkdir()
        except FileExistsError:
            continue
        return folder


def placeholders(text: str, ws: Path, home: Path) -> str:
    return text.replace(str(ws), "{WS}").replace(str(home), "{HOME}")


class _Runner:
    """One `cli_runner.py` process, started on first use and kept for every later command line."""

    def __init__(self) -> None:
        self._process: subprocess.Popen[str] | None = None

    def run(self, args: list[str], env: dict[str, str]) -> dict:
        if self._process is None or self._process.poll() is not None:
            self._process = subprocess.Popen(
                [sys.executable, str(Path(__file__).with_name("cli_runner.py"))],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
                encoding="utf-8",
            )
        assert self._process.stdin is not None and self._process.stdout is not None
        self._process.stdin.write(json.dumps({"args": args, "env": env}) + "\n")
        self._process.stdin.flush()
        answer = self._process.stdout.readline()
        assert answer, f"the CLI runner ended (status {self._process.wait()}) on {args}"
        return json.loads(answer)


_RUNNER = _Runner()


def run_lsp_agents(args: list[str], env: dict[str, str]) -> dict:
    """`lsp-agents ARGS --format json` with the environment `env` (in the CLI runner's process)."""
    completed = _RUNNER.run([*args, "--format", "json"], env)
    assert completed["code"] == 0, completed["stderr"]
    return json.loads(completed["stdout"])


def build_scenario(tmp_path: Path, scenario: Path, config: dict, run: dict) -> tuple[Path, Path, dict[str, str]]:
    """The scenario's workspace and home under `tmp_path`, as the oracle laid them out, and the
    environment of the run."""
    ws, home = tmp_path / "ws", tmp_path / "home"
    _copy_tree(scenario / "ws", ws, ws, home)
    _copy_tree(scenario / "home", home, ws, home)
    _relocate(home, ws)
    if run.get("git", config.get("git", True)) and not (ws / ".git").exists():
        (ws / ".git").mkdir()
        if "git_config" in config:  # the repository's `.git/config` as the capture had it (an `origin` remote)
            (ws / ".git" / "config").write_text(config["git_config"], encoding="utf-8")
    for repo in config.get("git_dirs", []):  # nested repositories (the capture ran `git init` there)
        (ws / repo / ".git").mkdir()
    for folder, text in config.get("git_files", {}).items():  # `.git` files (a worktree's), which git cannot hold
        (ws / folder / ".git").write_text(text, encoding="utf-8")
    env = {
        "PATH": os.environ.get("PATH", ""),
        "HOME": str(home),
        "LANG": "C.UTF-8",
        **run.get("env", {}),
    }
    return (
        ws,
        home,
        {k: v.replace("{WS}", str(ws)).replace("{HOME}", str(home)) for k, v in env.items()},
    )


def model_eager(ws: Path, home: Path, env: dict[str, str], run: dict) -> list[dict]:
    """`lsp-agents prompt` for the run: the blocks sent at start, in the extract's form (for the
    Copilot CLI, as its extractor would see them)."""
    prompt = run_lsp_agents(["prompt", *_common(ws, home, run)], env)
    blocks = [{"placement": b["placement"], "text": placeholders(b["text"], ws, home)} for b in prompt["eager"]]
    return copilot_extractor_view(blocks, ws, home) if run["harness"] == "copilot-cli" else blocks


def copilot_extractor_view(blocks: list[dict], ws: Path, home: Path) -> list[dict]:
    """The element runs the oracle's Copilot CLI extractor finds in each block (see COPILOT_OPEN)."""
    inlined = _visible_instructions_texts(ws, home)
    return [
        {"placement": b["placement"], "text": b["text"][start:end]}
        for b in blocks
        for start, end in _copilot_runs(b["text"], inlined)
    ]


def _visible_instructions_texts(ws: Path, home: Path) -> list[str]:
    """The texts of the tree's `*.instructions.md` files the extractor recognises: as its snapshot
    holds them (no .git, no binary file, nothing under a linked folder), a BOM kept or dropped."""
    texts: list[str] = []
    for root in (ws, home):
        for folder, dirs, files in os.walk(root):
            dirs[:] = [d for d in dirs if d != ".git" and not os.path.islink(os.path.join(folder, d))]
            for name in files:
                path = Path(folder, name)
                if not name.endswith(".instructions.md") or not path.is_file():
                    continue
                data = path.read_bytes()
                if b"\0" in data:
                    continue
                text = placeholders(data.decode("utf-8", errors="replace"), ws, home)
                texts += [t for t in dict.fromkeys([text, text.removeprefix("\ufeff")]) if len(t.strip()) >= ORACLE_MIN_LINE]
    return texts


def _copilot_runs(text: str, inlined: list[str]) -> list[tuple[int, int]]:
    """Every maximal run of recognised elements joined by COPILOT_JOIN: [(start, end)]."""
    runs, pos = [], 0
    while True:
        starts = [i for i in (text.find(x, pos) for x in (COPILOT_OPEN, *COPILOT_TABLES, *inlined)) if i >= 0]
        if not starts:
            return runs
        start = min(starts)
        end = _copilot_element_end(text, start, inlined)
        if end is None:
            pos = start + 1
            continue
        while text.startswith(COPILOT_JOIN, end):
            following = _copilot_element_end(text, end + len(COPILOT_JOIN), inlined)
            if following is None:
                break
            end = following
        runs.append((start, end))
        pos = end


def _copilot_element_end(text: str, start: int, inlined: list[str]) -> int | None:
    if text.startswith(COPILOT_OPEN, start):
        close = text.find(COPILOT_CLOSE, start + len(COPILOT_OPEN) - 1)
        return None if close < 0 else close + len(COPILOT_CLOSE)
    if text.startswith(COPILOT_TABLES, start):
        return _table_end(text, start)
    ends = [start + len(t) for t in inlined if text.startswith(t, start)]
    return max(ends) if ends else None


def _table_end(text: str, start: int) -> int | None:
    """The end of a paragraph of intro lines followed by a markdown table ("|" lines), or None."""
    pos, end = start, None
    while pos < len(text):
        newline = text.find("\n", pos)
        newline = len(text) if newline < 0 else newline
        line = text[pos:newline]
        if line.startswith("|"):
            end = newline
        elif end is not None or not line:
            break
        pos = newline + 1
    return end


def model_reads(ws: Path, home: Path, env: dict[str, str], run: dict):
    """`lsp-agents reminders` for each read of the run, in order: yields (read, blocks in the extract's form),
    each read knowing the files the earlier ones loaded."""
    loaded: list[str] = []
    reads = run.get("read", [])
    for index, read in enumerate(reads):
        reminders = run_lsp_agents(
            [
                "reminders",
                str(ws / read),
                *_common(ws, home, run),
                *[a for p in loaded for a in ("--loaded", p)],
                *[a for p in reads[:index] for a in ("--read-before", str(ws / p))],
            ],
            env,
        )
        loaded += [f["path"] for f in reminders["files"] if f["loaded"]]
        extracted = EXTRACTED_READS.get(run["harness"], lambda _text: True)
        yield (
            read,
            [
                {"placement": r["placement"], "text": _unordered_discoveries(placeholders(r["text"], ws, home))}
                for r in reminders["reminders"]
                if extracted(r["text"])
            ],
        )


def _common(ws: Path, home: Path, run: dict) -> list[str]:
    return [
        "--harness",
        HARNESS_IDS[run["harness"]],
        "--cwd",
        str(ws / run.get("cwd", ".")),
        "--home",
        str(home),
    ]


# Where a block splits into its files: before opencode's `Instructions from: `; around Crush's
# `<file path="…">…</file>` elements.
ELEMENT_BOUNDS = {"opencode": re.compile(r"\nInstructions from: "), "crush": re.compile(r'(?=\n<file path=")|(?<=</file>\n)')}


def elements(blocks: list[dict], harness: str) -> list[tuple[str, list[str]]]:
    """The per-file elements of each block, sorted: the same files and texts in any order."""
    return [(b["placement"], sorted(ELEMENT_BOUNDS[harness].split("\n" + b["text"]))) for b in blocks]


# CLIs whose files come in an order that changes from run to run (Crush: a Go map, FINDINGS.md CR-3).
MAP_ORDER_HARNESSES = {"crush"}


def same_blocks(harness: str, expected: list[dict], actual: list[dict]) -> bool:
    """The same blocks; for a CLI of MAP_ORDER_HARNESSES, the same files in any order."""
    if harness in MAP_ORDER_HARNESSES:
        return elements(expected, harness) == elements(actual, harness)
    return expected == actual


def expected_read_blocks(golden: dict, read: str) -> list[dict]:
    return [
        {"placement": e["placement"], "text": _unordered_discoveries(e["text"])} for e in golden["reads"] if e["path"] == read
    ]


def _unordered_discoveries(text: str) -> str:
    """`text` with the names of each "New skills discovered" paragraph sorted (see DISCOVERED)."""

    def sort(match: re.Match[str]) -> str:
        names = match.group(2)
        end = "\n" if names.endswith("\n") else ""
        return match.group(1) + "\n".join(sorted(names.removesuffix("\n").split("\n"))) + end

    return DISCOVERED.sub(sort, text)


def session_options(golden: dict) -> tuple[str | None, bool, list[str]]:
    """The agent (`--agent NAME`), plan mode (`--permission-mode plan`) and command of a captured
    run: `--command NAME` with the run's message as its arguments, or the command line typed
    (`typed`, see oracle_extra.py)."""
    args = golden["args"]
    # A delegated agent's request (`delegate`, see session_extract.py) is what `prompt --agent NAME` shows for it.
    agent = args[args.index("--agent") + 1] if "--agent" in args else golden.get("delegate")
    plan = "--permission-mode" in args and args[args.index("--permission-mode") + 1] == "plan"
    command = ["--command", args[args.index("--command") + 1], "--arguments", PROMPT] if "--command" in args else []
    if "typed" in golden:
        name, _, arguments = golden["typed"].removeprefix("/").partition(" ")
        command = [f"--command={name}", f"--arguments={arguments}"]  # either may start with `-`
    return agent, plan, command


def session_difference(ws: Path, home: Path, env: dict[str, str], run: dict, golden: dict) -> str | None:
    """None when `lsp-agents prompt --layers all` and `lsp-agents reminders --session` give what the
    session extract `golden` (session_extract.py) holds, else the first difference."""
    common = ["--harness", HARNESS_IDS[run["harness"]], "--cwd", str(ws / run.get("cwd", ".")), "--home", str(home)]
    agent, plan, command = session_options(golden)
    command = [arg.replace("{WS}", str(ws)).replace("{HOME}", str(home)) for arg in command]  # a typed path
    # The plan agent is opencode's plan mode; lsp-agents runs it as that agent.
    agent_args = ["--agent", agent] if agent else []
    if golden.get("nothing_sent"):
        return _nothing_sent_difference(env, [*common, *command])
    # A typed line the CLI sends as a plain prompt goes without some layers (`left_out`, see `_typed_event`).
    left_out = set(_typed_event(env, [*common, *agent_args, *command]).get("left_out", [])) if command else set()
    if sent := left_out & {layer["name"] for layer in golden["layers"]}:
        return f"the model leaves out {sorted(sent)}, which the CLI sent"
    prompt = run_lsp_agents(["prompt", *common, "--layers", "all", *agent_args], env)
    layers = {layer["name"]: {**layer, "text": placeholders(layer["text"], ws, home)} for layer in prompt["layers"]}
    for expected in golden["layers"]:
        if expected["name"] not in layers:
            return f"no {expected['name']} layer"
        difference = _layer_difference(run["harness"], expected, layers[expected["name"]])
        if difference:
            return f"{expected['name']}: {difference}"
    expected_order = [layer["name"] for layer in golden["layers"]]
    if [n for n in layers if n in expected_order] != expected_order:
        return f"layers in the order {[n for n in layers if n in expected_order]}, the CLI's {expected_order}"
    # A listing the capture does not show (an agent without the Skill tool) is not shown either.
    # A built-in command run as a subagent (`forked`): the one request is the subagent's, which lists no agents.
    unlisted = {"skills", "agents"} - set(expected_order) - ({"agents"} if golden.get("forked") else set()) - left_out
    if extra := unlisted & set(layers):
        return f"only the model has {sorted(extra)}"
    return _reminders_difference(ws, home, env, golden, [*common, *agent_args, *(["--plan"] if plan else []), *command])


def _typed_event(env: dict[str, str], args: list[str]) -> dict:
    """The model's event for the line typed; empty when the model names no command of that name."""
    completed = _RUNNER.run(["reminders", "--session", *args, "--format", "json"], env)
    return json.loads(completed["stdout"])["timeline"][-1] if completed["code"] == 0 else {}


def _nothing_sent_difference(env: dict[str, str], args: list[str]) -> str | None:
    """The CLI ran the line itself (a built-in command) and sent no request: the model must say so."""
    typed = run_lsp_agents(["reminders", "--session", *args], env)["timeline"][-1]
    if typed["trigger"] == "command" and not typed["reminders"] and typed.get("note"):
        return None
    return f"the CLI sent nothing, the model: {[r['text'][:80] for r in typed['reminders']]}"


def _layer_difference(harness: str, expected: dict, actual: dict) -> str | None:
    if actual["placement"] != expected["placement"]:
        return f"placement: CLI {expected['placement']} vs model {actual['placement']}"
    if actual["text"] == expected["text"]:
        return None
    if expected["name"] in UNORDERED_LISTINGS.get(harness, ()) and _entries(actual["text"]) == _entries(expected["text"]):
        return None
    return first_line_difference(expected["text"], actual["text"])


def _entries(listing: str) -> list[str]:
    return sorted(entry for line in listing.split("\n") for entry in line.split(", "))


def first_line_difference(expected: str, actual: str) -> str:
    """The first line where two texts part, both lines shortened."""
    want, got = expected.split("\n"), actual.split("\n")
    for number, (a, b) in enumerate(zip(want, got, strict=False)):
        if a != b:
            column = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
            start = max(0, column - 40)
            return f"line {number + 1} column {column + 1}: CLI {a[start : start + 100]!r} vs model {b[start : start + 100]!r}"
    shorter = min(len(want), len(got))
    who, rest = ("CLI", want) if len(want) > shorter else ("model", got)
    return f"line {shorter + 1}: only the {who} has {rest[shorter][:100]!r}"


def _reminders_difference(ws: Path, home: Path, env: dict[str, str], golden: dict, args: list[str]) -> str | None:
    if "typed" in golden and not any(r["name"] == "command" for r in golden["reminders"]):
        # The CLI found no command of that name and sent the line as typed: none here either, or the
        # model sends the line as a plain prompt (a note), with what the CLI sends for the paths it names.
        completed = _RUNNER.run(["reminders", "--session", *args, "--format", "json"], env)
        if completed["code"] == 2 and "has no command" in completed["stderr"]:
            return _texts_difference(ws, home, golden, [])
        plain = completed["code"] == 0 and "left_out" in (event := json.loads(completed["stdout"])["timeline"][-1])
        return _texts_difference(ws, home, golden, event["reminders"]) if plain else "the model has that command"
    session = run_lsp_agents(["reminders", "--session", *args], env)
    first_request = [
        e for e in session["timeline"] if e["trigger"] in ("start", "command") or (e["trigger"] == "step" and e["step"] == 1)
    ]
    return _texts_difference(ws, home, golden, [r for event in first_request for r in event["reminders"]])


def _texts_difference(ws: Path, home: Path, golden: dict, reminders: list[dict]) -> str | None:
    """None when the model's reminders (its instruction blocks aside) are the extract's, by name, place and text."""
    sent = [(r["name"], r["placement"]) for r in reminders if r["name"] != "instructions"]
    if sent != [(r["name"], r["placement"]) for r in golden["reminders"]]:
        return f"reminders: CLI {[(r['name'], r['placement']) for r in golden['reminders']]} vs model {sent}"
    texts = {r["name"]: r["text"] for r in reminders}
    for expected in golden["reminders"]:
        model = placeholders(texts.get(expected["name"], ""), ws, home)
        if expected["name"] == "skills-found":  # the paragraphs of different files' reads come in any order
            expected, model = {**expected, "text": _found_in_order(expected["text"])}, _found_in_order(model)
        if "text" in expected and not same_message(expected["text"], model):  # a command's template
            return f"reminder {expected['name']}: " + first_line_difference(expected["text"], model)
    return None


def _found_in_order(text: str) -> str:
    """A `skills-found` reminder with its "New skills discovered" paragraphs sorted: Claude Code runs the
    reads of a message's mentions at once and names each file's skills folders as its read finishes
    (FINDINGS.md GD-39: one line typed gave both orders), so only the paragraphs and the entries are compared."""
    *paragraphs, entries = text.split("\n\n")
    return "\n\n".join([*sorted(paragraphs), entries])


def same_message(cli: str, model: str) -> bool:
    """Whether the model's message is the CLI's, byte for byte outside KNOWN_SPOTS."""
    pieces = KNOWN_SPOTS.split(model)
    if len(pieces) == 1:
        return cli == model
    return re.fullmatch(r"[\s\S]*?".join(map(re.escape, pieces)), cli) is not None
