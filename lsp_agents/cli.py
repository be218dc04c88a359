"""The `lsp-agents` command line: argument parsing and output only; every answer comes from the core."""

from __future__ import annotations

import argparse
import gc
import json
import os
import sys
from collections.abc import Callable, Sequence
from typing import NoReturn

from lsp_agents import __version__
from lsp_agents.cli_agents import format_definitions, format_timeline
from lsp_agents.core.agents.session import UnknownAgent, definitions_result, session_result
from lsp_agents.core.analysis.codes import CODES
from lsp_agents.core.compose import cascade_result, harnesses_result, prompt_result, reminders_result, resolve_cwd, version_note
from lsp_agents.core.fs import FileSystem
from lsp_agents.core.harnesses import DEFAULT_HARNESS, HARNESSES, LaunchContext, UnknownHarness, get_harness
from lsp_agents.core.settings import HarnessOptions
from lsp_agents.core.vocabulary import size_label


class UsageError(Exception):
    """A problem with the command line the user can fix: one line on stderr, exit 2."""


def _existing_dir(path: str, what: str) -> str:
    if not os.path.isdir(path):
        raise UsageError(f"{what} {path!r} is not a directory")
    return path


def _context(args: argparse.Namespace) -> LaunchContext:
    cwd = resolve_cwd(_existing_dir(args.cwd or os.getcwd(), "--cwd"))
    home = os.path.abspath(_existing_dir(args.home, "--home") if args.home else os.path.expanduser("~"))
    options = HarnessOptions(fetch_remote_instructions=getattr(args, "fetch_remote", False))
    return LaunchContext(cwd=cwd, home=home, fs=FileSystem(), env=dict(os.environ), options=options)


def _target(path: str) -> str:
    target = os.path.abspath(path)
    if not os.path.lexists(target):
        raise UsageError(f"no such file: {path}")
    if os.path.isdir(target):
        raise UsageError(f"{path} is a directory; expected a file")
    return target


def _emit_warnings(warnings: Sequence[str]) -> None:
    for warning in dict.fromkeys(warnings):
        print(warning, file=sys.stderr)


def _print_json(value: dict) -> None:
    json.dump(value, sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")


def _print_blocks(blocks: Sequence[dict]) -> None:
    if not blocks:
        print("(no instructions)")
    for index, block in enumerate(blocks):
        if index:
            print()
        print(f"=== {block['placement']} ===")
        print(block["text"])


# -- commands ---------------------------------------------------------------------------------
def cmd_prompt(args: argparse.Namespace) -> int:
    harness = get_harness(args.harness)
    ctx = _context(args)
    base = None
    if args.base_prompt:
        data = ctx.fs.read(os.path.abspath(args.base_prompt))  # bounded; never blocks on a FIFO
        if data.problem:
            raise UsageError(f"cannot read --base-prompt {args.base_prompt!r}: {data.problem}")
        base = data.text()
    result, warnings = prompt_result(harness, ctx, layers=args.layers == "all", base_prompt=base, agent=args.agent)
    _emit_warnings(warnings)
    if args.format == "json":
        _print_json(result)
    elif result["layers"]:
        for layer in result["layers"]:
            print(f"=== layer: {layer['name']} ===")
            print(layer["text"])
    else:
        _print_blocks(result["eager"])
    return 0


def cmd_reminders(args: argparse.Namespace) -> int:
    if args.session:
        return cmd_session(args)
    if args.file is None:
        raise UsageError("reminders needs FILE (or --session)")
    harness = get_harness(args.harness)
    ctx = _context(args)
    target = _target(args.file)
    result, warnings = reminders_result(harness, ctx, target, [os.path.abspath(p) for p in args.loaded])
    _emit_warnings(warnings)
    if args.format == "json":
        _print_json(result)
    else:
        _print_blocks(result["reminders"])
    return 0


def cmd_session(args: argparse.Namespace) -> int:
    harness = get_harness(args.harness)
    ctx = _context(args)
    reads = [_target(p) for p in ([args.file] if args.file else []) + args.read]
    result = session_result(harness, ctx, agent=args.agent, plan=args.plan, reads=reads, switch_to=args.switch_to,
                            command=args.command, arguments=args.arguments)
    _output(args, *result, format_timeline)
    return 0


def cmd_agents(args: argparse.Namespace) -> int:
    harnesses = list(HARNESSES.values()) if args.harness == "all" else [get_harness(args.harness)]
    _output(args, *definitions_result(harnesses, _context(args)), format_definitions)
    return 0


def _output(args: argparse.Namespace, result: dict, warnings: Sequence[str], text: Callable[[dict], str]) -> None:
    _emit_warnings(warnings)
    if args.format == "json":
        _print_json(result)
    else:
        print(text(result))


def cmd_cascade(args: argparse.Namespace) -> int:
    harnesses = list(HARNESSES.values()) if args.harness == "all" else [get_harness(args.harness)]
    ctx = _context(args)
    result, warnings = cascade_result(harnesses, ctx, _target(args.file))
    _emit_warnings(warnings)
    if args.format == "json":
        _print_json(result)
    else:
        print(format_cascade_table(result))
    return 0


def cmd_harnesses(args: argparse.Namespace) -> int:
    home = os.path.abspath(_existing_dir(args.home, "--home") if args.home else os.path.expanduser("~"))
    ctx = LaunchContext(cwd=os.getcwd(), home=home, fs=FileSystem(), env=dict(os.environ))
    result = harnesses_result(HARNESSES.values(), ctx)
    if args.format == "json":
        _print_json(result)
        return 0
    for entry in result["harnesses"]:
        print(f"{entry['harness']:<12} {entry['title']:<26} {version_note(entry)}")
        if entry["installed"]:
            print(f"{'':<12} {'':<26} found at {entry['installed']['path']}")
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    from lsp_agents.server import serve  # imported here: pygls is not needed by the other commands

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
    from lsp_agents.report.check import CheckError, CheckOptions, run_check

    options = CheckOptions(args.paths, args.harness, args.home, args.format, args.fail_on, args.fetch_remote, args.enable)
    # The analysis keeps millions of small objects alive until the process ends; with the default
    # thresholds the collector rescans them hundreds of times (a fifth of the run). They hold no
    # cycles worth collecting early.
    gc.set_threshold(100_000, 50, 100)
    try:
        return run_check(options)
    except CheckError as exc:
        raise UsageError(str(exc)) from None
    except OSError as exc:
        raise UsageError(f"cannot check: {exc}") from None


def format_cascade_table(result: dict) -> str:
    """A terminal table: per harness, the files sent at start in order, what a read adds, and
    what is not loaded with the reason in words."""
    cwd = result["cwd"]

    def shown(path: str) -> str:
        return os.path.relpath(path, cwd) if path.startswith(("/", os.sep)) and not path.startswith("//") else path

    lines = [f"{shown(result['file'])}: what each harness sends, launched in {cwd}",
             "(at start: sent when a session starts · on read: added when the agent reads this file · "
             "~tokens: bytes / 4)"]
    for entry in result["harnesses"]:
        lines += ["", f"{entry['harness']} — {size_label(entry['total'])} · {version_note(entry)}"]
        rows = [("at start", f) for f in entry["eager"]] + [("on read", f) for f in entry["on_read"]]
        width = max((len(shown(item["path"])) for _, item in rows), default=0)
        for number, (when, item) in enumerate(rows, 1):
            cut = f"  (cut at byte {item['truncated_at']:,} of {item['size']:,})" if item["truncated_at"] is not None else ""
            tokens = f"~{item['tokens']:,} tokens"
            lines.append(f"  {number:>2}. {when:<8}  {shown(item['path']):<{width}}  {item['role']:<7} "
                         f"{item['bytes']:>7,} B  {tokens:>14}{cut}")
        if not rows:
            lines.append("      nothing is sent")
        for item in entry["not_loaded"]:
            related = f" ({shown(item['related'])})" if item.get("related") else ""
            lines.append(f"      not loaded: {shown(item['path'])} — {item['explanation']}{related}")
    return "\n".join(lines)


# -- parser -----------------------------------------------------------------------------------
def _add_common(parser: argparse.ArgumentParser, *, allow_all: bool = False) -> None:
    parser.add_argument("--harness", default=DEFAULT_HARNESS, help=f"harness id (default {DEFAULT_HARNESS})" + (", or all" if allow_all else ""))
    parser.add_argument("--cwd", help="launch directory of the harness (default: the current directory)")
    parser.add_argument("--home", help="home directory (default: $HOME)")
    parser.add_argument("--format", choices=("text", "json"), default="text")
    _add_fetch_remote(parser)


def _add_fetch_remote(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--fetch-remote", action="store_true", help="fetch remote instruction URLs (opencode); off by default, "
                        "and a repository's settings cannot turn it on")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="lsp-agents", description="The effective instruction cascade of AI coding harnesses.")
    parser.add_argument("--version", action="version", version=f"lsp-agents {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)

    prompt = commands.add_parser("prompt", help="the instruction text a harness sends at the start of a session")
    _add_common(prompt)
    prompt.add_argument("--layers", choices=("instructions", "all"), default="instructions")
    prompt.add_argument("--base-prompt", metavar="FILE", help="text of the base layer for --layers all")
    prompt.add_argument("--agent", metavar="NAME", help="the agent the session runs as (implies --layers all)")
    prompt.set_defaults(run=cmd_prompt)

    reminders = commands.add_parser("reminders", help="what a harness appends when its read tool reads FILE")
    reminders.add_argument("file", nargs="?")
    _add_common(reminders)
    reminders.add_argument("--loaded", action="append", default=[], metavar="PATH", help="a file loaded earlier in the session")
    reminders.add_argument("--session", action="store_true", help="the whole session's reminders, trigger by trigger (FILE: the first read)")
    reminders.add_argument("--read", action="append", default=[], metavar="FILE", help="with --session: a file the agent reads, in order")
    reminders.add_argument("--agent", metavar="NAME", help="with --session: the agent the session runs as")
    reminders.add_argument("--plan", action="store_true", help="with --session: start in plan mode")
    reminders.add_argument("--switch-to", metavar="NAME", help="with --session: the agent the session switches to")
    reminders.add_argument("--command", metavar="NAME", help="with --session: a command the user types (without /)")
    reminders.add_argument("--arguments", default="", metavar="TEXT", help="with --command: what follows the command")
    reminders.set_defaults(run=cmd_reminders)

    agents = commands.add_parser("agents", help="per harness: the agents, skills and commands it finds, and what it sends of them")
    _add_common(agents, allow_all=True)
    agents.set_defaults(run=cmd_agents)

    cascade = commands.add_parser("cascade", help="per harness: what loads for FILE, in order, and what does not")
    cascade.add_argument("file")
    _add_common(cascade, allow_all=True)
    cascade.set_defaults(run=cmd_cascade)

    check = commands.add_parser("check", help="findings for CI: shadowed, duplicated, truncated, unreachable instructions")
    check.add_argument("paths", nargs="*", metavar="PATH", help="workspace directory (default .), or files/directories to report on")
    check.add_argument("--harness", action="append", default=[], choices=list(HARNESSES), help="harness to analyse (repeatable; replaces the configured set)")
    check.add_argument("--home", help="home directory holding the harnesses' global files (default: $HOME)")
    check.add_argument("--format", choices=("text", "json", "sarif"), default="text")
    _add_fetch_remote(check)
    check.add_argument("--fail-on", choices=("error", "warning", "never"), default="error", help="lowest severity that makes the exit status 1")
    check.add_argument("--enable", action="append", default=[], metavar="CODE", choices=["all", *CODES],
                       help="report CODE at its own severity although it is a hint by default (repeatable; `all`: every "
                            "code); the severity setting of lsp-agents.toml still wins")
    check.set_defaults(run=cmd_check)

    harnesses = commands.add_parser("harnesses", help="every harness model: the CLI version it was verified against and the one installed")
    harnesses.add_argument("--home", help="home directory whose global npm installs count (default: $HOME)")
    harnesses.add_argument("--format", choices=("text", "json"), default="text")
    harnesses.set_defaults(run=cmd_harnesses)

    serve = commands.add_parser("serve", help="run the language server (stdio unless --tcp)")
    serve.add_argument("--tcp", metavar="HOST:PORT", help="listen on a TCP socket instead of stdio (for debugging)")
    serve.set_defaults(run=cmd_serve)
    return parser


def escape_undecodable_output() -> None:
    """Keep every output valid UTF-8. A file name byte that is not UTF-8 reaches Python as a lone
    surrogate U+DCHH (PEP 383); written with `backslashreplace` it becomes the six characters
    `\\udcHH`: inside a JSON string that is the escape of the same code point (`os.fsencode`
    turns it back into the byte), and in text output it reads the same way."""
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")


def main(argv: Sequence[str] | None = None) -> int:
    escape_undecodable_output()
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.run(args)
    except (UsageError, UnknownHarness, UnknownAgent) as exc:
        print(f"lsp-agents: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        return 130


def run() -> NoReturn:
    """The `lsp-agents` executable: `main`, then exit without tearing down the objects a large
    check built (freeing them one by one takes half a second on a big workspace)."""
    code = main()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(code)


if __name__ == "__main__":
    run()
