"""The `lsp-agents` command line's parser: its commands, options, help texts and the functions
that run `check`, `diff` and `serve`.

The commands live elsewhere and are imported only when they run (`cli_commands` for prompt,
reminders, agents, cascade and harnesses; `report.check`; `server`), so `--help` loads no harness
model, no pydantic and no server.
"""

from __future__ import annotations

import argparse
import os
import sys
import textwrap
from collections.abc import Callable
from typing import NoReturn

from lsp_agents.cli import VERSION, UsageError
from lsp_agents.core.harness_ids import DEFAULT_HARNESS, HARNESS_IDS, HarnessId
from lsp_agents.terminal import COLOR_CHOICES

HARNESS_CHOICES = (*HARNESS_IDS, "all")
HARNESS_LIST = ", ".join(HARNESS_IDS)


class _HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """Descriptions as written; argument help wrapped without breaking a harness id at its hyphen."""

    def _split_lines(self, text: str, width: int) -> list[str]:
        return textwrap.wrap(" ".join(text.split()), width, break_on_hyphens=False)


class _Parser(argparse.ArgumentParser):
    """argparse with the command line's one error style: no usage dump, a pointer to `--help`."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"lsp-agents: error: {message}; see '{self.prog} --help'\n")


def _from_commands(name: str) -> Callable[[argparse.Namespace], int]:
    """A command of `cli_commands`, imported when it runs."""

    def run(args: argparse.Namespace) -> int:
        from lsp_agents import cli_commands

        return cli_commands.run(name, args)

    return run


def cmd_serve(args: argparse.Namespace) -> int:
    from lsp_agents.server import serve  # pygls and the server are loaded for this command only

    tcp = None
    if args.tcp:
        host, _, port = args.tcp.rpartition(":")
        if not host or not port.isdigit() or not 0 < int(port) < 65536:
            raise UsageError(f"--tcp expects HOST:PORT with a port from 1 to 65535, not {args.tcp!r}")
        tcp = (host.strip("[]"), int(port))
    try:
        serve(tcp)
    except OSError as exc:  # the port is taken, the host unknown or not local
        raise UsageError(f"cannot listen on {args.tcp}: {exc.strerror or exc}") from None
    return 0


def cmd_check(args: argparse.Namespace) -> int:
    """`check`, answered from the result cache when nothing it read has changed (`check_cache`)."""
    from lsp_agents import check_cache
    from lsp_agents.terminal import wants_colour

    harnesses = list(HARNESS_IDS) if "all" in args.harness else args.harness
    colour = "always" if wants_colour(args.color, sys.stdout) else "never"
    given = {"paths": args.paths, "harnesses": harnesses, "home": args.home, "format": args.format}
    given |= {"fail_on": args.fail_on, "enable": args.enable, "colour": colour}
    if args.no_cache or args.fetch_remote:
        return _check(args, harnesses, colour, None)
    folder, key = check_cache.cache_folder(dict(os.environ)), check_cache.run_key(given)
    if (stored := check_cache.stored_run(folder, key)) is not None:
        sys.stderr.write(stored.stderr)
        sys.stdout.write(stored.stdout)
        return stored.status
    return _check(args, harnesses, colour, (folder, key))


def _check(args: argparse.Namespace, harnesses: list[HarnessId], colour: str, cache_entry: tuple[str, str] | None) -> int:
    """The check itself; its output and journal stored at `cache_entry` (folder, key) unless None."""
    import gc
    import io

    from lsp_agents.check_cache import StoredRun, store_run
    from lsp_agents.core.disk import Journal
    from lsp_agents.core.fs import DEFAULT_MAX_READ_BYTES
    from lsp_agents.report.check import CheckOptions, run_check

    options = CheckOptions(args.paths, harnesses, args.home, args.format, args.fail_on, args.fetch_remote, args.enable, colour)
    # The analysis keeps millions of small objects alive until the process ends; with the default
    # thresholds the collector rescans them hundreds of times (a fifth of the run). They hold no
    # cycles worth collecting early.
    gc.set_threshold(100_000, 50, 100)
    if cache_entry is None:
        return _reported_as_usage_errors(lambda: run_check(options), "check")
    out, err, journal = io.StringIO(), io.StringIO(), Journal(DEFAULT_MAX_READ_BYTES)
    status = _reported_as_usage_errors(lambda: run_check(options, out, err, journal=journal, progress_to=sys.stderr), "check")
    sys.stderr.write(err.getvalue())
    sys.stdout.write(out.getvalue())
    store_run(*cache_entry, journal, StoredRun(out.getvalue(), err.getvalue(), status))
    return status


def cmd_diff(args: argparse.Namespace) -> int:
    from lsp_agents.report.diff import DiffOptions, run_diff

    harnesses = list(HARNESS_IDS) if "all" in args.harness else args.harness
    options = DiffOptions(args.base, args.head, harnesses, args.home, args.format, args.fail_on, args.enable, args.color)
    return _reported_as_usage_errors(lambda: run_diff(options), "compare")


def _reported_as_usage_errors(run: Callable[[], int], doing: str) -> int:
    """`run()`, with what the user can mend (a bad path, revision or setting; an unreadable
    folder) reported as a usage error instead of a traceback."""
    from lsp_agents.report.check import CheckError

    try:
        return run()
    except CheckError as exc:
        raise UsageError(str(exc)) from None
    except OSError as exc:
        raise UsageError(f"cannot {doing}: {exc}") from None


# -- parser -----------------------------------------------------------------------------------
FORMAT_HELP = (
    "text: a view for people, coloured on a terminal (default); json: the same answer for programs, described in the README"
)
COLOR_HELP = "colour the text output: auto (default: on a terminal, unless NO_COLOR is set), always, or never"
HARNESS_HELP = f"the harness modelled, one of {HARNESS_LIST}, or all for every one in turn (default {DEFAULT_HARNESS})"
LAUNCH_HELP = """\
The harness is modelled as if it were launched in --cwd (default: the current directory), with
--home as the home directory whose global instruction files and configs count (default: $HOME).
No repository settings file is read: the home directory and fetching are yours to choose."""


def _add_common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--harness", default=DEFAULT_HARNESS, choices=HARNESS_CHOICES, metavar="HARNESS", help=HARNESS_HELP)
    parser.add_argument("--cwd", metavar="DIR", help="launch directory of the harness (default: the current directory)")
    parser.add_argument("--home", metavar="DIR", help="home directory whose global files count (default: $HOME)")
    parser.add_argument("--format", choices=("text", "json"), default="text", help=FORMAT_HELP)
    parser.add_argument("--color", choices=COLOR_CHOICES, default="auto", help=COLOR_HELP)
    _add_fetch_remote(parser)


def _add_fetch_remote(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--fetch-remote",
        action="store_true",
        help="fetch remote instruction URLs (opencode); off by default, and a repository's settings cannot turn it on",
    )


def _command(commands: argparse._SubParsersAction[_Parser], name: str, summary: str, description: str) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = commands.add_parser(
        name, help=summary, description=f"{summary[0].upper()}{summary[1:]}.\n\n{description}", formatter_class=_HelpFormatter
    )
    return parser


def _add_prompt(commands: argparse._SubParsersAction[_Parser]) -> None:
    prompt = _command(
        commands,
        "prompt",
        "the instruction text a harness sends at the start of a session",
        "Exactly, in order, with where each block goes (a system or a user message).\n\n" + LAUNCH_HELP,
    )
    _add_common(prompt)
    prompt.add_argument(
        "--layers",
        choices=("instructions", "all"),
        default="instructions",
        help="instructions: the instruction files only (default); all: every layer of the first request",
    )
    prompt.add_argument("--base-prompt", metavar="FILE", help="text of the base layer for --layers all")
    prompt.add_argument("--agent", metavar="NAME", help="the agent the session runs as (implies --layers all)")
    prompt.set_defaults(run=_from_commands("cmd_prompt"))


def _add_reminders(commands: argparse._SubParsersAction[_Parser]) -> None:
    reminders = _command(
        commands,
        "reminders",
        "what a harness appends when its read tool reads FILE",
        "With --session: the whole session as a timeline of reminders, trigger by trigger.\n\n" + LAUNCH_HELP,
    )
    reminders.add_argument(
        "file", nargs="?", metavar="FILE", help="the file the agent reads (with --session: the first read; optional there)"
    )
    _add_common(reminders)
    reminders.add_argument("--loaded", action="append", default=[], metavar="PATH", help="a file loaded earlier in the session")
    reminders.add_argument(
        "--read-before",
        action="append",
        default=[],
        metavar="FILE",
        help="a file the agent read earlier in the session, in order",
    )
    reminders.add_argument("--session", action="store_true", help="the whole session's reminders, trigger by trigger")
    reminders.add_argument(
        "--read", action="append", default=[], metavar="FILE", help="with --session: a file the agent reads, in order"
    )
    reminders.add_argument("--agent", metavar="NAME", help="with --session: the agent the session runs as")
    reminders.add_argument("--plan", action="store_true", help="with --session: start in plan mode")
    reminders.add_argument("--switch-to", metavar="NAME", help="with --session: the agent the session switches to")
    reminders.add_argument("--command", metavar="NAME", help="with --session: a command the user types, without /")
    reminders.add_argument("--arguments", default="", metavar="TEXT", help="with --command: what follows the command")
    reminders.set_defaults(run=_from_commands("cmd_reminders"))


def _add_views(commands: argparse._SubParsersAction[_Parser]) -> None:
    agents = _command(
        commands,
        "agents",
        "per harness: the agents, skills and commands it finds, and what it sends of them",
        "Paths are relative to the workspace root found from the launch directory.\n\n" + LAUNCH_HELP,
    )
    _add_common(agents)
    agents.set_defaults(run=_from_commands("cmd_agents"))

    cascade = _command(
        commands,
        "cascade",
        "per harness: what loads for FILE, in order, and what does not",
        "The files sent at start, those a read of FILE adds, and those not loaded with the reason, with "
        "bytes and ~tokens.\nPaths are relative to the workspace root found from the launch directory.\n\n" + LAUNCH_HELP,
    )
    cascade.add_argument("file", metavar="FILE", help="the file the agent reads; what loads depends on where it is")
    _add_common(cascade)
    cascade.set_defaults(run=_from_commands("cmd_cascade"))

    harnesses = _command(
        commands,
        "harnesses",
        "every harness model: the CLI version it was verified against and the one installed",
        "An installed version is found from a global npm or bun install under --home; nothing is run.",
    )
    harnesses.add_argument("--home", metavar="DIR", help="home directory whose global npm installs count (default: $HOME)")
    harnesses.add_argument("--format", choices=("text", "json"), default="text", help=FORMAT_HELP)
    harnesses.add_argument("--color", choices=COLOR_CHOICES, default="auto", help=COLOR_HELP)
    harnesses.set_defaults(run=_from_commands("cmd_harnesses"))


def _add_verify(commands: argparse._SubParsersAction[_Parser]) -> None:
    verify = _command(
        commands,
        "verify",
        "ask the installed CLI for the instructions it would send, and compare them with the model's",
        "Runs the CLI you have installed (Codex: `codex debug prompt-input`, which calls no model, with its\n"
        "MCP servers switched off) in --cwd with your environment and home, and shows where its\n"
        "instructions and lsp-agents' differ. No other command runs a harness's CLI.\n\n"
        "Exit status: 0 when they agree, 1 when they differ, 2 when the CLI cannot be asked.",
    )
    verify.add_argument(
        "--harness",
        choices=HARNESS_IDS,
        metavar="HARNESS",
        help="the harness whose CLI is asked: one whose CLI can show its instructions (default: the first such, Codex)",
    )
    verify.add_argument("--cli", metavar="PATH", help="the CLI's executable (default: the harness's command on PATH)")
    verify.add_argument("--cwd", metavar="DIR", help="launch directory of the CLI (default: the current directory)")
    verify.add_argument("--format", choices=("text", "json"), default="text", help=FORMAT_HELP)
    verify.add_argument("--color", choices=COLOR_CHOICES, default="auto", help=COLOR_HELP)
    verify.set_defaults(run=_from_commands("cmd_verify"), home=None)


CHECK_DESCRIPTION = """\
Without PATH, the workspace is found from the current directory the way ruff finds its project:
the nearest directory upwards with lsp-agents.toml or a pyproject.toml holding [tool.lsp-agents],
else the git root, else the current directory. The summary line names it.

Exit status: 0 when no finding is at or above --fail-on, 1 otherwise, 2 for a usage error."""


def _add_check(commands: argparse._SubParsersAction[_Parser]) -> None:
    check = _command(
        commands, "check", "findings for CI: shadowed, duplicated, truncated, unreachable instructions", CHECK_DESCRIPTION
    )
    check.add_argument(
        "paths",
        nargs="*",
        metavar="PATH",
        help="one directory: the workspace root; files or several directories (a pre-commit hook's): "
        "report only on them, within the workspace found from the current directory",
    )
    _add_analysis_options(check)
    check.add_argument(
        "--format",
        choices=("text", "json", "sarif"),
        default="text",
        help="text: one line a finding and a summary line (default); json: for programs; sarif: SARIF 2.1.0 for code scanning",
    )
    _add_fetch_remote(check)
    check.add_argument(
        "--no-cache",
        action="store_true",
        help="analyse even when nothing read by the last identical run has changed (its stored result is "
        "printed otherwise; see the README's Caching)",
    )
    check.set_defaults(run=cmd_check)


def _add_analysis_options(parser: argparse.ArgumentParser, fail_on: str = "lowest severity that makes the exit status 1") -> None:
    """The options `check` and `diff` share: harnesses, home, colour, --fail-on and --enable."""
    parser.add_argument(
        "--harness",
        action="append",
        default=[],
        choices=HARNESS_CHOICES,
        metavar="HARNESS",
        help=f"harness to analyse, repeatable, replacing the configured set: one of {HARNESS_LIST}, or all",
    )
    parser.add_argument("--home", metavar="DIR", help="home directory holding the harnesses' global files (default: $HOME)")
    parser.add_argument("--color", choices=COLOR_CHOICES, default="auto", help=COLOR_HELP)
    parser.add_argument("--fail-on", choices=("error", "warning", "never"), default="error", help=f"{fail_on} (default: error)")
    parser.add_argument(
        "--enable",
        action="append",
        default=[],
        metavar="CODE",
        help="report CODE at its own severity although it is a hint by default (repeatable; `all`: every "
        "code); the severity setting of lsp-agents.toml still wins",
    )


DIFF_DESCRIPTION = """BASE and HEAD are git revisions of the repository holding the current directory, read from git's
objects (nothing is checked out or written). Without BASE: the merge base of HEAD with the default
branch (origin/HEAD, else main or master); without HEAD: the work tree, uncommitted edits included.
The workspace root is found as for `check`. The harnesses compared are those enabled on either side.

Exit status: 1 when the change introduces a finding at or above --fail-on, 0 otherwise (also
when it only resolves findings), 2 for a usage error (a revision that is no commit, no git work tree)."""


def _add_diff(commands: argparse._SubParsersAction[_Parser]) -> None:
    diff = _command(
        commands,
        "diff",
        "what a change does to every harness's prompt, and the findings it introduces or resolves",
        DIFF_DESCRIPTION,
    )
    diff.add_argument(
        "base", nargs="?", metavar="BASE", help="the revision before (default: the merge base with the default branch)"
    )
    diff.add_argument("head", nargs="?", metavar="HEAD", help="the revision after (default: the work tree)")
    _add_analysis_options(diff, "lowest severity of an introduced finding that makes the exit status 1")
    diff.add_argument(
        "--format",
        choices=("text", "json", "markdown"),
        default="text",
        help="text: for a terminal (default); json: for programs, described in the README; markdown: a pull-request comment",
    )
    diff.set_defaults(run=cmd_diff)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="lsp-agents",
        description="The effective instruction cascade of AI coding harnesses.",
        epilog="Run 'lsp-agents COMMAND --help' for a command's arguments.",
    )
    parser.add_argument("--version", action="version", version=VERSION)
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    _add_prompt(commands)
    _add_reminders(commands)
    _add_views(commands)
    _add_check(commands)
    _add_diff(commands)
    _add_verify(commands)
    serve = _command(
        commands,
        "serve",
        "run the language server, on stdio unless --tcp",
        "Editors start it themselves; see the README's Editors section.",
    )
    serve.add_argument("--tcp", metavar="HOST:PORT", help="listen on a TCP socket instead of stdio, for debugging")
    serve.set_defaults(run=cmd_serve)
    return parser
