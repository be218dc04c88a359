"""`lsp-agents verify`: set the model's prediction beside what the user's own installed CLI says.

Opt-in and never automatic: this is the one command that runs a harness's CLI, the one the user
names (`--cli`) or the harness's executable on PATH, never one a repository chooses. It runs in
the launch directory with the user's environment, without a shell, with no input, for at most
CLI_SECONDS. Only a harness whose spec has a `self_report` (a command that shows the
instructions without a model call, and how to read its output) can be asked.

The answer: whether the two texts are equal, and where they differ (a unified diff).
"""

from __future__ import annotations

import difflib
import os
import shutil
import subprocess
from dataclasses import dataclass

from lsp_agents.core.harnesses import HARNESSES
from lsp_agents.core.harnesses.spec import SelfReport

CLI_SECONDS = 60


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


def askable() -> list[str]:
    """The harnesses whose CLI can be asked, in the registry's order."""
    return [harness.id for harness in HARNESSES.values() if harness.spec.self_report is not None]


def self_report(harness: str) -> SelfReport:
    report = HARNESSES[harness].spec.self_report
    if report is None:
        raise VerifyError(
            f"{harness}'s CLI cannot show its instructions without a model call; verify asks {', '.join(askable())}"
        )
    return report


def executable(report: SelfReport, cli: str | None) -> str:
    """The CLI to ask: `cli` as given, else the harness's executable on PATH."""
    found = shutil.which(cli or report.executable)
    if found is None:
        raise VerifyError(
            f"{cli or report.executable!r} was not found{'' if cli else ' on PATH'}; name the executable with --cli"
        )
    return found


def ask(report: SelfReport, cli: str, cwd: str) -> str:
    """The instruction text the installed CLI would send when launched in `cwd`."""
    try:
        completed = subprocess.run(
            [cli, *report.arguments],
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
        command = " ".join([os.path.basename(cli), *report.arguments[:2]])
        raise VerifyError(f"{command} exited with status {completed.returncode}: {last[0]}")
    try:
        return report.instructions(completed.stdout)
    except ValueError as exc:
        raise VerifyError(f"the CLI's answer cannot be read: {exc}") from None
