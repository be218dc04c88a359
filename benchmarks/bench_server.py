"""Latency of the language server over stdio on the synthetic monorepo of bench_cascade.py.

What is measured, with the real server process (`python -m lsp_agents serve`) and `debounceMs` 0:

* first diagnostics: from sending `initialize` to the first `publishDiagnostics`, and to the end
  of the initial analysis (`lspAgents/analysisComplete`);
* hover round-trip on the first line of source files (the cascade summary), and on instruction files;
* keystroke to republished diagnostics: an edit that adds or removes a duplicated bullet in an
  open instruction file, timed until the `publishDiagnostics` of that file arrives; on the root
  AGENTS.md (in every cascade: the worst case) and on the deepest CLAUDE.md;
* hovers sent one after the other while the initial analysis runs (p50, p99, max);
* RSS of the server process and of its descendants by role (the analysis worker, its fork
  server, ...) after indexing (VmRSS from /proc, once it has settled after publishing), their
  peaks (VmHWM), and the whole tree's largest total sampled while the analysis ran;
* in the same run and on the same tree, agnix linting the whole tree and `lsp-agents check`
  (subprocesses, JSON output, median of `--runs`).

Why ratios: milliseconds depend on the machine, so each latency is also printed as a multiple of a
baseline measured in the same run: the round-trip of a trivial request (document symbols of a
source file, which the server answers with an empty list without any work); the server's first
diagnostics and `check` are printed as multiples of agnix's time. Nothing is asserted; the
targets of the project issue are printed next to the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import statistics
import sys
import time
from pathlib import Path

from lsprotocol import types
from pygls.lsp.client import LanguageClient
from pygls.protocol import default_converter

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_cascade import add_tree_arguments, prepared_tree, scan_tree
from bench_check import check_command, count_findings, timed_subprocess
from processes import cpu_seconds, rss_by_role, rss_mib

TARGETS = {"hover p99": 10.0, "keystroke p99": 50.0, "rss": 150.0}
TREE_SAMPLE_SECONDS = 0.5  # how often the process tree's RSS is read while the analysis runs


class Client(LanguageClient):
    """Records when each file's diagnostics and each analysis end arrive."""

    def __init__(self) -> None:
        super().__init__("bench-client", "1", converter_factory=default_converter)
        self.published: dict[str, list[float]] = {}
        self.analyses: list[float] = []
        self.completed: asyncio.Queue = asyncio.Queue()  # a value per analysis that ends

        @self.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def published(params: types.PublishDiagnosticsParams) -> None:
            self.published.setdefault(params.uri, []).append(time.perf_counter())

        @self.feature("lspAgents/analysisComplete")
        def analysed(params) -> None:  # unannotated: pygls would take `object` for the server parameter
            self.analyses.append(time.perf_counter())
            self.completed.put_nowait(self.analyses[-1])

        @self.feature(types.CLIENT_REGISTER_CAPABILITY)
        def register(params: types.RegistrationParams) -> None:
            return None

        @self.feature(types.WINDOW_LOG_MESSAGE)
        def logged(params: types.LogMessageParams) -> None:
            return None


def cuts(samples: list[float]) -> dict[str, float]:
    ordered = statistics.quantiles(samples, n=100, method="inclusive") if len(samples) > 1 else samples * 99
    return {"n": len(samples), "p50": ordered[49], "p99": ordered[98], "max": max(samples)}


async def timed(request) -> float:
    start = time.perf_counter()
    await request
    return (time.perf_counter() - start) * 1000


def import_ms(module: str | None, runs: int = 5) -> float:
    """Median wall time of a fresh interpreter importing `module` (None: importing nothing)."""
    import subprocess

    code = f"import {module}" if module else "pass"
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


async def settled_rss_mib(pid: int) -> float:
    """The resident set once the server has settled after its analysis: it publishes, then
    drops what only the analysis needed; read every 100 ms until three readings agree (<= 3 s)."""
    readings = [rss_mib(pid)]
    for _ in range(30):
        await asyncio.sleep(0.1)
        readings.append(rss_mib(pid))
        if len(readings) >= 3 and max(readings[-3:]) - min(readings[-3:]) < 0.5:
            break
    return readings[-1]


async def launch(client: Client, repo: str, home: str) -> tuple[float, float]:
    """Start the server and initialize it as an editor does; (launch, initialize answered) times.
    The clock starts at the launch: the server's start counts, as agnix's does in its run."""
    capabilities = types.ClientCapabilities(
        workspace=types.WorkspaceClientCapabilities(
            did_change_watched_files=types.DidChangeWatchedFilesClientCapabilities(dynamic_registration=True)
        )
    )
    start = time.perf_counter()
    await client.start_io(sys.executable, "-m", "lsp_agents", "serve", env={**os.environ, "HOME": home})
    await client.initialize_async(
        types.InitializeParams(
            capabilities=capabilities,
            workspace_folders=[types.WorkspaceFolder(uri=Path(repo).as_uri(), name="repo")],
            initialization_options={"debounceMs": 0},
        )
    )
    initialized = time.perf_counter()
    client.initialized(types.InitializedParams())
    return start, initialized


async def shut_down(client: Client) -> None:
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()


async def quiet_start(repo: str, home: str) -> dict:
    """A session that asks nothing: its first diagnostics and initial analysis from the launch, and
    the CPU time the server's processes had used by then (what a busy machine does not change)."""
    client = Client()
    start, _ = await launch(client, repo, home)
    while not client.published:
        await asyncio.sleep(0.005)
    cpu_first = cpu_seconds(client._server.pid)
    while not client.analyses:
        await asyncio.sleep(0.01)
    figures = {
        "first diagnostics ms": (min(t[0] for t in client.published.values()) - start) * 1000,
        "initial analysis ms": (client.analyses[0] - start) * 1000,
        "first diagnostics cpu s": cpu_first,
        "initial analysis cpu s": cpu_seconds(client._server.pid),
    }
    await shut_down(client)
    return figures


async def run(repo: str, home: str, args: argparse.Namespace) -> dict:
    sources, _ = scan_tree(repo)
    sources = sources[:: max(1, len(sources) // args.requests)][: args.requests]
    instructions = sorted(p for p in (os.path.join(repo, "AGENTS.md"), *map(str, Path(repo).rglob("CLAUDE.md"))))[
        : args.requests // 4
    ]
    client = Client()

    def symbols(path: str):
        return client.text_document_document_symbol_async(
            types.DocumentSymbolParams(text_document=types.TextDocumentIdentifier(uri=Path(path).as_uri()))
        )

    def hover(path: str):
        return client.text_document_hover_async(
            types.HoverParams(text_document=types.TextDocumentIdentifier(uri=Path(path).as_uri()), position=types.Position(0, 0))
        )

    start, initialized = await launch(client, repo, home)
    first_hover = await timed(hover(sources[0]))
    print("indexing and analysing; hovering meanwhile", file=sys.stderr)
    during: list[float] = []
    targets = [p for pair in zip(sources, instructions * len(sources), strict=False) for p in pair]
    tree_peak, sampled = 0.0, 0.0
    while not client.analyses:  # requests while the initial analysis runs, one after the other
        during.append(await timed(hover(targets[len(during) % len(targets)])))
        if time.perf_counter() - sampled >= TREE_SAMPLE_SECONDS:  # between two hovers: it delays none
            tree_peak, sampled = max(tree_peak, sum(rss_by_role(client._server.pid).values())), time.perf_counter()
        await asyncio.sleep(0.01)
    figures: dict = {
        "initialize ms": (initialized - start) * 1000,
        "first hover ms": first_hover,
        "first hover after launch ms": (initialized - start) * 1000 + first_hover,
        "during analysis": cuts(during),
        "first diagnostics ms": (min(t[0] for t in client.published.values()) - start) * 1000 if client.published else None,
        "initial analysis ms": (client.analyses[0] - start) * 1000,
        "files with diagnostics": len(client.published),
        "rss MiB": await settled_rss_mib(client._server.pid),
        "peak rss MiB": rss_mib(client._server.pid, "VmHWM"),
        "rss by role MiB": rss_by_role(client._server.pid),
        "peak by role MiB": rss_by_role(client._server.pid, "VmHWM"),
        "tree peak while analysing MiB": tree_peak,
    }

    print("measuring requests", file=sys.stderr)
    figures["baseline"] = cuts([await timed(symbols(p)) for p in sources])
    figures["hover source (1st)"] = cuts([await timed(hover(p)) for p in sources])
    figures["hover source (again)"] = cuts([await timed(hover(p)) for p in sources])
    figures["hover instruction"] = cuts([await timed(hover(p)) for p in instructions])
    print("measuring keystrokes", file=sys.stderr)
    figures["keystroke root"] = await keystrokes(client, os.path.join(repo, "AGENTS.md"), args.keystrokes)
    nested = max(instructions, key=lambda p: p.count(os.sep))
    figures["keystroke nested"] = await keystrokes(client, nested, args.keystrokes)
    figures["rss after requests MiB"] = rss_mib(client._server.pid)
    await shut_down(client)
    return figures


async def keystrokes(client: Client, path: str, count: int) -> dict:
    """Alternately add and remove a duplicated bullet, each edit timed until its re-analysis ends:
    `analysisComplete` comes right after the diagnostics that changed are published (a bullet no
    harness loads twice in one cascade changes none: the count of those republished says so)."""
    uri = Path(path).as_uri()
    text = Path(path).read_text()
    bullet = next((line for line in text.splitlines() if line.startswith("- ")), "- a rule")
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id="markdown", version=1, text=text)
        )
    )
    await asyncio.sleep(0.5)  # the open's own analysis
    while not client.completed.empty():
        client.completed.get_nowait()
    times, published = [], len(client.published.get(uri, []))
    for version in range(2, count + 2):
        edited = text + f"\n{bullet}\n" if version % 2 == 0 else text
        start = time.perf_counter()
        client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
                content_changes=[types.TextDocumentContentChangeWholeDocument(text=edited)],
            )
        )
        await asyncio.wait_for(client.completed.get(), 30)
        times.append((time.perf_counter() - start) * 1000)
    return {**cuts(times), "republished": len(client.published.get(uri, [])) - published}


def whole_tree_runs(repo: str, home: str, runs: int) -> dict:
    """agnix and `lsp-agents check` on the whole tree: median wall and CPU seconds, and what they found."""
    agnix = shutil.which("agnix")
    found: dict = {"agnix": None}
    for name, command, key in (
        ("agnix", [agnix, repo, "--format", "json"] if agnix else None, "diagnostics"),
        ("check", check_command(repo, home), "findings"),
    ):
        if command is None:
            continue
        print(f"timing {name} on the whole tree", file=sys.stderr)
        walls, cpus, result = timed_subprocess(command, runs)
        found[name] = {
            "wall s": statistics.median(walls),
            "cpu s": statistics.median(cpus),
            "runs s": walls,
            "found": count_findings(result.stdout, key),
        }
    return found


def report_against_agnix(figures: dict, runs: int) -> None:
    agnix, check = figures["agnix"], figures["check"]
    print(f"\nthe whole tree, same run (median of {runs}):")
    if agnix is None:
        print("  agnix: not installed (pip install agnix); no ratios")
    else:
        print(f"  agnix: {agnix['wall s']:.2f} s wall, {agnix['cpu s']:.2f} s CPU, {agnix['found']} diagnostics")
    quiet = figures["quiet"]
    for label, seconds in (
        ("server, first publishDiagnostics", quiet["first diagnostics ms"] / 1000),
        ("  the same, hovered back to back", figures["first diagnostics ms"] / 1000),
        ("server, initial analysis complete", quiet["initial analysis ms"] / 1000),
        ("  the same, hovered back to back", figures["initial analysis ms"] / 1000),
        ("lsp-agents check", check["wall s"]),
    ):
        ratio = f" = x{seconds / agnix['wall s']:.2f} agnix" if agnix else ""
        print(f"  {label}: {seconds:.2f} s{ratio}")
    print(f"  (check found {check['found']} findings)")
    if agnix:
        print(
            f"CPU time (user + system, every process; a busy machine changes it little): agnix {agnix['cpu s']:.2f} s; "
            f"the quiet server by its first diagnostics {quiet['first diagnostics cpu s']:.2f} s "
            f"(x{quiet['first diagnostics cpu s'] / agnix['cpu s']:.2f}), by the end of its initial analysis "
            f"{quiet['initial analysis cpu s']:.2f} s (x{quiet['initial analysis cpu s'] / agnix['cpu s']:.2f}); "
            f"check {check['cpu s']:.2f} s (x{check['cpu s'] / agnix['cpu s']:.2f})"
        )


def report_memory(figures: dict) -> None:
    rss = figures["rss MiB"]
    print(
        f"\nserver RSS after indexing: {rss:.1f} MiB (target <= {TARGETS['rss']:.0f} MiB: "
        f"{'met' if rss <= TARGETS['rss'] else 'MISSED'}); peak while indexing: {figures['peak rss MiB']:.1f} MiB; "
        f"after the requests: {figures['rss after requests MiB']:.1f} MiB"
    )
    now, peak = figures["rss by role MiB"], figures["peak by role MiB"]
    print(
        "by process, once settled:  "
        + ", ".join(f"{role} {mib:.1f} MiB (peak {peak.get(role, float('nan')):.1f})" for role, mib in now.items())
    )
    print(
        f"the whole tree (server and every descendant, helpers included) while the analysis ran: "
        f"{figures['tree peak while analysing MiB']:.1f} MiB at most (sampled every {TREE_SAMPLE_SECONDS} s)"
    )


def report(figures: dict, args: argparse.Namespace) -> None:
    unit = figures["baseline"]["p50"]
    print(
        f"lsp-agents server benchmark: {args.files:,} files, {args.instruction_files:,} instruction files, depth <= {args.depth}, "
        f"seed {args.seed}; Python {sys.version.split()[0]}, {os.cpu_count()} CPUs"
    )
    quiet = figures["quiet"]
    print(
        f"\nfirst publishDiagnostics after launching the server (initialize sent at once): "
        f"{quiet['first diagnostics ms']:.0f} ms in a session that asks nothing (target <= 2000 ms: "
        f"{'met' if quiet['first diagnostics ms'] <= 2000 else 'MISSED'}), {figures['first diagnostics ms']:.0f} ms "
        f"in one hovering meanwhile (x{figures['first diagnostics ms'] / unit:.0f} baseline); initial analysis complete: "
        f"{quiet['initial analysis ms']:.0f} ms, hovered {figures['initial analysis ms']:.0f} ms; "
        f"{figures['files with diagnostics']:,} files with diagnostics"
    )
    print(
        f"initialize answered {figures['initialize ms']:.0f} ms after the launch; the first hover (sent right after `initialized`) "
        f"answered in {figures['first hover ms']:.0f} ms (target <= 200 ms: "
        f"{'met' if figures['first hover ms'] <= 200 else 'MISSED'})"
    )
    print(f"\n{'series':<22}{'n':>6}{'p50 ms':>10}{'p99 ms':>10}{'max ms':>10}{'p50/base':>10}{'p99/base':>10}   target")
    for name, target in (
        ("baseline", ""),
        ("during analysis", "p99 <= 1000 ms"),
        ("hover source (1st)", "p99 <= 10 ms"),
        ("hover source (again)", "p99 <= 10 ms"),
        ("hover instruction", ""),
        ("keystroke root", "p99 <= 50 ms"),
        ("keystroke nested", "p99 <= 50 ms"),
    ):
        row = figures[name]
        verdict = ""
        if target:
            verdict = f"{target}: " + ("met" if row["p99"] <= float(target.split()[2]) else "MISSED")
        if "republished" in row:
            verdict += f" ({row['republished']} republished the file's diagnostics)"
        print(
            f"{name:<22}{row['n']:>6}{row['p50']:>10.2f}{row['p99']:>10.2f}{row['max']:>10.2f}"
            f"{'x%.1f' % (row['p50'] / unit):>10}{'x%.1f' % (row['p99'] / unit):>10}   {verdict}"
        )
    bare, server = figures["python start ms"], figures["server import ms"]
    print(
        f"\nstarting Python: {bare:.0f} ms; starting Python and importing lsp_agents.server: {server:.0f} ms "
        f"(the import alone: {server - bare:.0f} ms)"
    )
    report_against_agnix(figures, args.runs)
    report_memory(figures)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_tree_arguments(parser)
    parser.add_argument("--requests", type=int, default=400, help="hover requests per series")
    parser.add_argument("--keystrokes", type=int, default=100)
    parser.add_argument("--runs", type=int, default=3, help="runs of agnix and of check (median reported)")
    parser.add_argument("--json", action="store_true", help="print the raw figures as JSON too")
    args = parser.parse_args()
    with prepared_tree(args, "lsp-agents-bench-server-") as base:
        repo = os.path.realpath(os.path.join(base, "repo"))
        print("a session that asks nothing until its initial analysis ends", file=sys.stderr)
        quiet = asyncio.run(quiet_start(repo, os.path.join(base, "home")))
        figures = asyncio.run(run(repo, os.path.join(base, "home"), args))
        figures["quiet"] = quiet
        figures["python start ms"], figures["server import ms"] = import_ms(None), import_ms("lsp_agents.server")
        figures.update(whole_tree_runs(repo, os.path.join(base, "home"), args.runs))
        report(figures, args)
        if args.json:
            print(json.dumps(figures, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
