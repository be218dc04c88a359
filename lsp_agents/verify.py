"""`lsp-agents verify`: set the model's prediction beside what the user's own installed CLI says.

Opt-in and never automatic: this is the one command that runs another program, the CLI the
user names (`--cli`, else the harness's executable on PATH), never one a repository chooses. It
runs in the launch directory with the user's environment, without a shell, with no input, for
at most CLI_SECONDS, and only a CLI that can show its prompt without a model call is asked:

* Codex: `codex debug prompt-input` renders the model-visible input list as JSON without calling
  a model; the project instructions are the user message that starts "# AGENTS.md instructions".
  MCP servers are switched off for the run (`-c mcp_servers={}`): the command would otherwise
  start the servers a configuration names to list their tools.

The answer: whether the two texts are equal, and where they differ (a unified diff).
"""

from __future__ import annotations

import difflib
import json
import os
import shutil
import subprocess
from dataclasses import dataclass

CLI_SECONDS = 60
INSTRUCTIONS_HEADER = "# AGENTS.md instructions"
ASKED = {"codex": ("codex", ("debug", "prompt-input", "-c", "mcp_servers={}"))}  # harness -> executable, arguments


class VerifyError(Exception):
    """The CLI could not be asked, or its answer could not be read: one line for the user."""


@dataclass(frozen=True)
class Verdict:
    harness: str
    cwd: str
    cli: str
    cli_text: str
    model_text: str

    @property
    def agree(self) -> bool:
        return self.cli_text == self.model_text

    def diff(self) -> str:
        """A unified diff, each line ending in a newline (the texts end without one)."""
        lines = difflib.unified_diff(
            self.cli_text.splitlines(),
            self.model_text.splitlines(),
            fromfile=f"{self.harness} (the installed CLI)",
            tofile=f"{self.harness} (lsp-agents)",
            lineterm="",
        )
        return "".join(line + "\n" for line in lines)


def executable(harness: str, cli: str | None) -> str:
    """The CLI to ask: `cli` as given, else the harness's executable on PATH."""
    if harness not in ASKED:
        raise VerifyError(f"{harness} has no command that shows its prompt without a model call; verify asks {', '.join(ASKED)}")
    found = shutil.which(cli or ASKED[harness][0])
    if found is None:
        raise VerifyError(
            f"{cli or ASKED[harness][0]!r} was not found{'' if cli else ' on PATH'}; name the executable with --cli"
        )
    return found


def ask(harness: str, cli: str, cwd: str) -> str:
    """The instruction text the installed CLI would send when launched in `cwd`."""
    try:
        completed = subprocess.run(
            [cli, *ASKED[harness][1]],
            cwd=cwd,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            timeout=CLI_SECONDS,
            check=False,
        )
    except subprocess.TimeoutExpired:
        raise VerifyError(f"{cli} did not answer within {CLI_SECONDS} s") from None
    except OSError as exc:
        raise VerifyError(f"cannot run {cli}: {exc.strerror or exc}") from None
    if completed.returncode != 0:
        last = completed.stderr.decode("utf-8", "replace").strip().splitlines()[-1:] or ["no message"]
        raise VerifyError(
            f"{os.path.basename(cli)} {' '.join(ASKED[harness][1][:2])} exited with status {completed.returncode}: {last[0]}"
        )
    return codex_instructions(completed.stdout)


def codex_instructions(output: bytes) -> str:
    """The project instructions in `codex debug prompt-input`'s JSON: the user message's text that
    starts with the AGENTS.md header ("" when Codex sends none)."""
    try:
        items = json.loads(output)
    except ValueError as exc:
        raise VerifyError(f"the CLI's answer is not JSON: {exc}") from None
    if not isinstance(items, list):
        raise VerifyError("the CLI's answer is not a list of prompt items")
    for item in items:
        if not isinstance(item, dict) or item.get("type") != "message" or item.get("role") != "user":
            continue
        for part in item.get("content") or ():
            text = part.get("text") if isinstance(part, dict) else None
            if isinstance(text, str) and text.startswith(INSTRUCTIONS_HEADER):
                return text
    return ""
