"""`lsp-agents check`: discover, analyse, render, and turn the findings into an exit status.

PATHs: one directory is the checked root; otherwise (none, files from a pre-commit hook, or
several directories) the root is the workspace found from the current directory
(`project_settings.workspace_root`), and with PATHs only findings under them are shown.
Settings come from the root's lsp-agents.toml or `[tool.lsp-agents]`, less those only the user may
choose (`--home`, `--fetch-remote`); `--harness` replaces the configured or detected set. Progress
goes to stderr, and only when stderr is a terminal.
"""

from __future__ import annotations

import dataclasses
import json
import os
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TextIO

from lsp_agents.core.analysis.codes import CODES, OFF, ON
from lsp_agents.core.disk import Journal
from lsp_agents.core.fs import FileSystem
from lsp_agents.core.harness_ids import HarnessId
from lsp_agents.core.model import Finding
from lsp_agents.core.project_settings import load_project_settings, workspace_root
from lsp_agents.core.settings import Settings
from lsp_agents.core.workspace import WorkspaceIndex
from lsp_agents.report import Report, ordered
from lsp_agents.report.render import render_json, render_text
from lsp_agents.report.sarif import render_sarif
from lsp_agents.terminal import Style, wants_colour
from lsp_agents.workers import AnalysisWorker, FolderSpec, WorkerError, usable_cpus

FAIL_LEVELS = {"error": ("error",), "warning": ("error", "warning"), "never": ()}


class CheckError(Exception):
    """A usage or I/O problem: one line on stderr, exit status 2."""


@dataclass(frozen=True, slots=True)
class CheckOptions:
    paths: Sequence[str]
    harnesses: Sequence[HarnessId]
    home: str | None
    format: str
    fail_on: str
    fetch_remote: bool
    enable: Sequence[str] = ()  # codes reported at their own severity (`all`: every code), as `severity = "on"`
    color: str = "never"  # terminal.COLOR_CHOICES: colour of the text output


class Progress:
    """One self-overwriting status line on a terminal's stderr; silent anywhere else."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.active = stream.isatty()
        self.shown = False

    def __call__(self, what: str, done: int, total: int | None = None) -> None:
        if self.active:
            count = f"{done:,}" + (f"/{total:,}" if total else "")
            self.stream.write(f"\rlsp-agents: {what} {count}\x1b[K")
            self.stream.flush()
            self.shown = True

    def done(self) -> None:
        if self.shown:
            self.stream.write("\r\x1b[K")
            self.stream.flush()


def _root_and_filter(paths: Sequence[str], fs: FileSystem) -> tuple[str, list[str] | None]:
    for path in paths:
        exists = os.path.lexists(path)
        if fs.journal is not None:
            fs.journal.note("lexists", os.path.abspath(path), exists)
        if not exists:
            raise CheckError(f"no such file or directory: {path}")
    if len(paths) == 1 and fs.is_dir(os.path.abspath(paths[0])):
        return fs.realpath(os.path.abspath(paths[0])), None
    root = workspace_root(fs.realpath(os.getcwd()), fs)
    if not paths:
        return root, None
    # The parent's real path, so a symlinked file keeps its own name.
    keep = [os.path.join(fs.realpath(os.path.dirname(os.path.abspath(p))), os.path.basename(os.path.abspath(p))) for p in paths]
    outside = [p for p, k in zip(paths, keep, strict=True) if not (k == root or k.startswith(root.rstrip(os.sep) + os.sep))]
    if outside:
        raise CheckError(f"{outside[0]} is outside the workspace {root}; check its directory instead")
    return root, keep


def _not_evaluated(findings: Mapping[str, list[Finding]]) -> bool:
    """Whether a unit or file was stopped at a limit: a run with more time would say more."""
    return any(f.code == "not-evaluated" for found in findings.values() for f in found)


def _enabled_codes(enable: Sequence[str]) -> list[str]:
    """The codes `--enable` names (`all`: every code that has a severity of its own)."""
    unknown = [code for code in enable if code != "all" and code not in CODES]
    if unknown:
        raise CheckError(f"--enable: unknown code {unknown[0]!r}; choose from {', '.join(CODES)}, or all")
    return [c for c in CODES if CODES[c].severity != OFF] if "all" in enable else list(enable)


def command_line_settings(
    settings: Settings, harnesses: Sequence[HarnessId], enable: Sequence[str], fetch_remote: bool
) -> Settings:
    """A repository's settings with what the command line chooses: what only the user may choose
    (a repository's settings never set it), `--harness` replacing the configured set, and the
    codes `--enable` turns on (below the repository's own severities)."""
    return dataclasses.replace(
        settings,
        fetch_remote_instructions=fetch_remote,
        harnesses=list(dict.fromkeys(harnesses)) if harnesses else settings.harnesses,
        severity={**{code: ON for code in _enabled_codes(enable)}, **settings.severity} if enable else settings.severity,
    )


def home_directory(home: str | None, fs: FileSystem | None = None) -> str:
    """`--home`, else $HOME; a usage error when it is no directory."""
    home = home or os.path.expanduser("~")
    if not (fs or FileSystem()).is_dir(os.path.abspath(home)):
        raise CheckError(f"--home {home!r} is not a directory")
    return home


def run_check(
    options: CheckOptions,
    out: TextIO = sys.stdout,
    err: TextIO = sys.stderr,
    *,
    journal: Journal | None = None,
    progress_to: TextIO | None = None,
) -> int:
    """The check; `journal` (for a result cache) gets every disk call the run made, or is marked
    incomplete when the run cannot vouch for its result from them alone. Progress goes to
    `progress_to` (default: `err`)."""
    fs = FileSystem(journal=journal)
    root, keep = _root_and_filter(options.paths, fs)
    settings, messages = load_project_settings(root, fs)
    settings = command_line_settings(settings, options.harnesses, options.enable, options.fetch_remote)
    home = home_directory(options.home, fs)
    progress = Progress(progress_to or err)
    index = WorkspaceIndex(root, fs, exclude=settings.exclude)
    index.scan(lambda seen: progress("indexed", seen))
    worker = AnalysisWorker(may_fork=True)
    try:
        spec = FolderSpec(index.snapshot(), settings, os.path.abspath(home), dict(os.environ))
        opened = worker.open(spec, journal=journal is not None)
        outcome = worker.analyse_all(root, None, workers=usable_cpus(), progress=progress)
    except WorkerError as exc:
        raise CheckError(f"the analysis failed: {exc}") from None
    finally:
        worker.stop()
    progress.done()
    if journal is not None:
        journal.add(outcome.journal, complete=not settings.fetch_remote_instructions and not _not_evaluated(outcome.findings))
    for message in dict.fromkeys([*messages, *index.warnings, *outcome.warnings]):
        print(message, file=err)
    report = Report(root, opened.harnesses, ordered(outcome.findings, keep))
    if options.format == "json":
        out.write(json.dumps(render_json(report), indent=2, ensure_ascii=False) + "\n")
    elif options.format == "sarif":
        out.write(json.dumps(render_sarif(report), indent=2, ensure_ascii=False) + "\n")
    else:
        out.write(render_text(report, Style(wants_colour(options.color, out))) + "\n")
    failing = FAIL_LEVELS[options.fail_on]
    return 1 if any(f.severity in failing for f in report.findings) else 0
