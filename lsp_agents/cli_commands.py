"""The commands that model a session (`prompt`, `reminders`, `agents`, `cascade`, `harnesses`,
`verify`): arguments in, the core's answer out, as text or JSON. Imported only when one of them runs.

`--harness all` runs the harnesses one after the other: the text views follow one another under
each harness's name, and JSON gathers the answers as `{"harnesses": [...]}` where a single
harness answers with an object of its own.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence

from lsp_agents.cli import UsageError
from lsp_agents.cli_views import Paths, format_cascade_table, format_definitions, format_timeline
from lsp_agents.core.agents.session import UnknownAgent, definitions_result, session_result
from lsp_agents.core.compose import cascade_result, harnesses_result, prompt_result, reminders_result, resolve_cwd, version_note
from lsp_agents.core.fs import FileSystem
from lsp_agents.core.harnesses import HARNESSES, Harness, LaunchContext, UnknownHarness, get_harness
from lsp_agents.core.model import JsonObject
from lsp_agents.core.project_settings import workspace_root
from lsp_agents.core.settings import HarnessOptions
from lsp_agents.terminal import Style, wants_colour


def run(name: str, args: argparse.Namespace) -> int:
    """The command `cmd_<name>`; an unknown harness or agent is a usage error."""
    command: Callable[[argparse.Namespace], int] = globals()[name]
    try:
        return command(args)
    except (UnknownHarness, UnknownAgent) as exc:
        raise UsageError(str(exc)) from None


def _existing_dir(path: str, what: str) -> str:
    if not os.path.isdir(path):
        raise UsageError(f"{what} {path!r} is not a directory")
    return path


def _home(args: argparse.Namespace) -> str:
    return os.path.abspath(_existing_dir(args.home, "--home") if args.home else os.path.expanduser("~"))


def _context(args: argparse.Namespace) -> LaunchContext:
    cwd = resolve_cwd(_existing_dir(args.cwd or os.getcwd(), "--cwd"))
    options = HarnessOptions(fetch_remote_instructions=getattr(args, "fetch_remote", False))
    return LaunchContext(cwd=cwd, home=_home(args), fs=FileSystem(), env=dict(os.environ), options=options)


def _harnesses(args: argparse.Namespace) -> list[Harness]:
    return list(HARNESSES.values()) if args.harness == "all" else [get_harness(args.harness)]


def _paths(ctx: LaunchContext) -> Paths:
    return Paths(workspace_root(ctx.cwd), ctx.home)


def _style(args: argparse.Namespace) -> Style:
    return Style(wants_colour(args.color))


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


def _print_json(value: JsonObject) -> None:
    json.dump(value, sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")


def _per_harness(
    args: argparse.Namespace, answer: Callable[[Harness], tuple[JsonObject, list[str]]], text: Callable[[JsonObject], str]
) -> int:
    """Each harness's answer in turn: JSON as one object (a list under `harnesses` for `all`),
    text one view after the other under the harness's name when there are several."""
    harnesses = _harnesses(args)
    results, warnings = [], []
    for harness in harnesses:
        result, found = answer(harness)
        results.append(result)
        warnings += found
    _emit_warnings(warnings)
    if args.format == "json":
        _print_json(results[0] if args.harness != "all" else {"harnesses": results})
        return 0
    style = _style(args)
    views = [text(result) for result in results]
    if args.harness == "all":
        views = [style(f"# {harness.id}", "bold", "cyan") + "\n" + view for harness, view in zip(harnesses, views, strict=True)]
    print("\n\n".join(views))
    return 0


def _blocks(blocks: Sequence[JsonObject], style: Style) -> str:
    if not blocks:
        return style("(no instructions)", "dim")
    return "\n\n".join(style(f"=== {block['placement']} ===", "bold") + "\n" + block["text"] for block in blocks)


def cmd_prompt(args: argparse.Namespace) -> int:
    ctx = _context(args)
    base = None
    if args.base_prompt:
        data = ctx.fs.read(os.path.abspath(args.base_prompt))  # bounded; never blocks on a FIFO
        if data.problem:
            raise UsageError(f"cannot read --base-prompt {args.base_prompt!r}: {data.problem}")
        base = data.text()
    style = _style(args)

    def text(result: JsonObject) -> str:
        if not result["layers"]:
            return _blocks(result["eager"], style)
        return "\n".join(style(f"=== layer: {layer['name']} ===", "bold") + "\n" + layer["text"] for layer in result["layers"])

    return _per_harness(
        args, lambda harness: prompt_result(harness, ctx, layers=args.layers == "all", base_prompt=base, agent=args.agent), text
    )


def cmd_reminders(args: argparse.Namespace) -> int:
    if args.session:
        return cmd_session(args)
    if args.file is None:
        raise UsageError("reminders needs FILE (or --session)")
    ctx = _context(args)
    target = _target(args.file)
    loaded = [os.path.abspath(p) for p in args.loaded]
    earlier = [_target(p) for p in args.read_before]
    style = _style(args)
    return _per_harness(
        args,
        lambda harness: reminders_result(harness, ctx, target, loaded, earlier),
        lambda result: _blocks(result["reminders"], style),
    )


def cmd_session(args: argparse.Namespace) -> int:
    ctx = _context(args)
    reads = [_target(p) for p in ([args.file] if args.file else []) + args.read]
    paths, style = _paths(ctx), _style(args)
    return _per_harness(
        args,
        lambda harness: session_result(
            harness,
            ctx,
            agent=args.agent,
            plan=args.plan,
            reads=reads,
            switch_to=args.switch_to,
            command=args.command,
            arguments=args.arguments,
        ),
        lambda result: format_timeline(result, paths, style),
    )


def cmd_agents(args: argparse.Namespace) -> int:
    ctx = _context(args)
    result, warnings = definitions_result(_harnesses(args), ctx)
    _emit_warnings(warnings)
    if args.format == "json":
        _print_json(result)
    else:
        print(format_definitions(result, _paths(ctx), _style(args)))
    return 0


def cmd_cascade(args: argparse.Namespace) -> int:
    ctx = _context(args)
    result, warnings = cascade_result(_harnesses(args), ctx, _target(args.file))
    _emit_warnings(warnings)
    if args.format == "json":
        _print_json(result)
    else:
        print(format_cascade_table(result, _paths(ctx), _style(args)))
    return 0


def cmd_harnesses(args: argparse.Namespace) -> int:
    ctx = LaunchContext(cwd=os.getcwd(), home=_home(args), fs=FileSystem(), env=dict(os.environ))
    result = harnesses_result(HARNESSES.values(), ctx)
    if args.format == "json":
        _print_json(result)
        return 0
    style = _style(args)
    for entry in result["harnesses"]:
        name = style(f"{entry['harness']:<12}", "bold")
        print(f"{name} {entry['title']:<26} {version_note(entry)}")
        if entry["installed"]:
            print(f"{'':<12} {'':<26} found at {entry['installed']['path']}")
    return 0


def cmd_verify(args: argparse.Namespace) -> int:
    """The model's instructions beside the installed CLI's own (see `verify`): 0 when they agree,
    1 when they differ, a usage error when the CLI cannot be asked."""
    from lsp_agents import verify

    ctx = _context(args)
    harness = args.harness or verify.askable()[0]
    try:
        report = verify.self_report(harness)
        cli = verify.executable(report, args.cli)
        cli_text = verify.ask(report, cli, ctx.cwd)
    except verify.VerifyError as exc:
        raise UsageError(str(exc)) from None
    result, warnings = prompt_result(get_harness(harness), ctx)
    _emit_warnings(warnings)
    eager = result["eager"]
    assert isinstance(eager, list)
    verdict = verify.Verdict(harness, ctx.cwd, cli, cli_text, "\n\n".join(str(block["text"]) for block in eager))
    if args.format == "json":
        _print_json(
            {
                "harness": verdict.harness,
                "cwd": verdict.cwd,
                "cli": verdict.cli,
                "agree": verdict.agree,
                "cli_text": verdict.cli_text,
                "model_text": verdict.model_text,
            }
        )
    elif verdict.agree:
        size = len(verdict.cli_text.encode())
        print(f"agree: {verdict.cli} and lsp-agents send the same instructions from {ctx.cwd} ({size:,} bytes)")
    else:
        style = _style(args)
        colours = {"-": "red", "+": "green", "@": "cyan"}
        for line in verdict.diff().splitlines():
            print(style(line, colours[line[0]]) if line[:1] in colours and line[:3] not in ("---", "+++") else line)
        print(f"differ: {verdict.cli} and lsp-agents send different instructions from {ctx.cwd} (above: - the CLI, + lsp-agents)")
    return 0 if verdict.agree else 1
