"""Latency of the language server over stdio on the synthetic monorepo of bench_cascade.py.

What is measured, with the real server process (`python -m lsp_agents serve`) and `debounceMs` 0:

* first diagnostics: from sending `initialize` to the first `publishDiagnostics`, and to the end
  of the initial analysis (`lspAgents/analysisComplete`);
* hover round-trip on the first line of source files (the cascade summary), and on instruction files;
* keystroke to republished diagnostics: an edit that adds or removes a duplicated bullet in an
  open instruction file, timed until the `publishDiagnostics` of that file arrives; on the root
  AGENTS.md (in every cascade: the worst case) and on the deepest CLAUDE.md;
* RSS of the server process after indexing (VmRSS from /proc, once it has settled after publishing),
  and its peak while indexing (VmHWM).

Why ratios: milliseconds depend on the machine, so each latency is also printed as a multiple of a
baseline measured in the same run: the round-trip of a trivial request (document symbols of a
source file, which the server answers with an empty list without any work). Nothing is asserted;
the targets of the project issue are printed next to the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import time
from pathlib import Path

from lsprotocol import types
from pygls.lsp.client import LanguageClient
from pygls.protocol import default_converter

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_cascade import add_tree_arguments, prepared_tree, scan_tree  # noqa: E402

TARGETS = {"hover p99": 10.0, "keystroke p99": 50.0, "rss": 150.0}


class Client(LanguageClient):
    """Records when each file's diagnostics and each analysis end arrive."""

    def __init__(self) -> None:
        super().__init__("bench-client", "1", converter_factory=default_converter)
        self.published: dict[str, list[float]] = {}
        self.analyses: list[float] = []
        self.events: asyncio.Queue = asyncio.Queue()

        @self.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def published(params: types.PublishDiagnosticsParams) -> None:
            self.published.setdefault(params.uri, []).append(time.perf_counter())
            self.events.put_nowait(params.uri)

        @self.feature("lspAgents/analysisComplete")
        def analysed(params) -> None:  # unannotated: pygls would take `object` for the server parameter
            self.analyses.append(time.perf_counter())

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


def rss_mib(pid: int, field: str = "VmRSS") -> float:
    """The resident set of the process (VmHWM: its peak so far), in MiB."""
    with open(f"/proc/{pid}/status") as handle:
        line = next(line for line in handle if line.startswith(f"{field}:"))
    return int(line.split()[1]) / 1024


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


async def run(repo: str, home: str, args: argparse.Namespace) -> dict:
    client = Client()
    env = {**os.environ, "HOME": home}
    await client.start_io(sys.executable, "-m", "lsp_agents", "serve", env=env)
    capabilities = types.ClientCapabilities(workspace=types.WorkspaceClientCapabilities(
        did_change_watched_files=types.DidChangeWatchedFilesClientCapabilities(dynamic_registration=True)))
    sources, _ = scan_tree(repo)
    sources = sources[:: max(1, len(sources) // args.requests)][: args.requests]
    instructions = sorted(p for p in (os.path.join(repo, "AGENTS.md"), *map(str, Path(repo).rglob("CLAUDE.md"))))[: args.requests // 4]

    def symbols(path: str):
        return client.text_document_document_symbol_async(types.DocumentSymbolParams(
            text_document=types.TextDocumentIdentifier(uri=Path(path).as_uri())))

    def hover(path: str):
        return client.text_document_hover_async(types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=Path(path).as_uri()), position=types.Position(0, 0)))

    start = time.perf_counter()
    await client.initialize_async(types.InitializeParams(
        capabilities=capabilities, workspace_folders=[types.WorkspaceFolder(uri=Path(repo).as_uri(), name="repo")],
        initialization_options={"debounceMs": 0}))
    initialized = time.perf_counter()
    client.initialized(types.InitializedParams())
    first_hover = await timed(hover(sources[0]))
    print("indexing and analysing; hovering meanwhile", file=sys.stderr)
    during: list[float] = []
    targets = [p for pair in zip(sources, instructions * len(sources)) for p in pair]
    while not client.analyses:  # requests while the initial analysis runs, one after the other
        during.append(await timed(hover(targets[len(during) % len(targets)])))
        await asyncio.sleep(0.01)
    figures: dict = {
        "initialize ms": (initialized - start) * 1000,
        "first hover ms": first_hover,
        "first hover after initialize ms": (initialized - start) * 1000 + first_hover,
        "during analysis": cuts(during),
        "first diagnostics ms": (min(t[0] for t in client.published.values()) - start) * 1000 if client.published else None,
        "initial analysis ms": (client.analyses[0] - start) * 1000,
        "files with diagnostics": len(client.published),
        "rss MiB": await settled_rss_mib(client._server.pid),
        "peak rss MiB": rss_mib(client._server.pid, "VmHWM"),
    }

    print("measuring requests", file=sys.stderr)
    figures["baseline"] = cuts([await timed(symbols(p)) for p in sources])
    figures["hover source (1st)"] = cuts([await timed(hover(p)) for p in sources])
    figures["hover source (again)"] = cuts([await timed(hover(p)) for p in sources])
    figures["hover instruction"] = cuts([await timed(hover(p)) for p in instructions])
    print("measuring keystrokes", file=sys.stderr)
    figures["keystroke root"] = cuts(await keystrokes(client, os.path.join(repo, "AGENTS.md"), args.keystrokes))
    nested = max(instructions, key=lambda p: p.count(os.sep))
    figures["keystroke nested"] = cuts(await keystrokes(client, nested, args.keystrokes))
    figures["rss after requests MiB"] = rss_mib(client._server.pid)
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    return figures


async def keystrokes(client: Client, path: str, count: int) -> list[float]:
    """Alternately add and remove a duplicated bullet: each edit changes the file's findings."""
    uri = Path(path).as_uri()
    text = Path(path).read_text()
    bullet = next((line for line in text.splitlines() if line.startswith("- ")), "- a rule")
    client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=types.TextDocumentItem(
        uri=uri, language_id="markdown", version=1, text=text)))
    await asyncio.sleep(0.5)  # the open's own analysis
    while not client.events.empty():
        client.events.get_nowait()
    times = []
    for version in range(2, count + 2):
        edited = text + f"\n{bullet}\n" if version % 2 == 0 else text
        start = time.perf_counter()
        client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=edited)]))
        while (await asyncio.wait_for(client.events.get(), 30)) != uri:
            pass
        times.append((time.perf_counter() - start) * 1000)
    return times


def report(figures: dict, args: argparse.Namespace) -> None:
    unit = figures["baseline"]["p50"]
    print(f"lsp-agents server benchmark: {args.files:,} files, {args.instruction_files:,} instruction files, depth <= {args.depth}, "
          f"seed {args.seed}; Python {sys.version.split()[0]}, {os.cpu_count()} CPUs")
    print(f"\nfirst publishDiagnostics after initialize: {figures['first diagnostics ms']:.0f} ms (target <= 2000 ms: "
          f"{'met' if figures['first diagnostics ms'] <= 2000 else 'MISSED'})"
          f" (x{figures['first diagnostics ms'] / unit:.0f} baseline); initial analysis complete: "
          f"{figures['initial analysis ms']:.0f} ms (x{figures['initial analysis ms'] / unit:.0f}); "
          f"{figures['files with diagnostics']:,} files with diagnostics")
    print(f"initialize answered after {figures['initialize ms']:.0f} ms; the first hover (sent right after `initialized`) "
          f"answered in {figures['first hover ms']:.0f} ms (target <= 200 ms: "
          f"{'met' if figures['first hover ms'] <= 200 else 'MISSED'})")
    print(f"\n{'series':<22}{'n':>6}{'p50 ms':>10}{'p99 ms':>10}{'max ms':>10}{'p50/base':>10}{'p99/base':>10}   target")
    for name, target in (("baseline", ""), ("during analysis", "p99 <= 1000 ms"), ("hover source (1st)", "p99 <= 10 ms"), ("hover source (again)", "p99 <= 10 ms"),
                         ("hover instruction", ""), ("keystroke root", "p99 <= 50 ms"), ("keystroke nested", "p99 <= 50 ms")):
        row = figures[name]
        verdict = ""
        if target:
            verdict = f"{target}: " + ("met" if row["p99"] <= float(target.split()[2]) else "MISSED")
        print(f"{name:<22}{row['n']:>6}{row['p50']:>10.2f}{row['p99']:>10.2f}{row['max']:>10.2f}"
              f"{'x%.1f' % (row['p50'] / unit):>10}{'x%.1f' % (row['p99'] / unit):>10}   {verdict}")
    bare, server = figures["python start ms"], figures["server import ms"]
    print(f"\nstarting Python: {bare:.0f} ms; starting Python and importing lsp_agents.server: {server:.0f} ms "
          f"(the import alone: {server - bare:.0f} ms)")
    rss = figures["rss MiB"]
    print(f"\nserver RSS after indexing: {rss:.1f} MiB (target <= {TARGETS['rss']:.0f} MiB: "
          f"{'met' if rss <= TARGETS['rss'] else 'MISSED'}); peak while indexing: {figures['peak rss MiB']:.1f} MiB; "
          f"after the requests: {figures['rss after requests MiB']:.1f} MiB")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_tree_arguments(parser)
    parser.add_argument("--requests", type=int, default=400, help="hover requests per series")
    parser.add_argument("--keystrokes", type=int, default=100)
    parser.add_argument("--json", action="store_true", help="print the raw figures as JSON too")
    args = parser.parse_args()
    with prepared_tree(args, "lsp-agents-bench-server-") as base:
        repo = os.path.realpath(os.path.join(base, "repo"))
        figures = asyncio.run(run(repo, os.path.join(base, "home"), args))
        figures["python start ms"], figures["server import ms"] = import_ms(None), import_ms("lsp_agents.server")
        report(figures, args)
        if args.json:
            print(json.dumps(figures, indent=2))
    return 0

if __name__ == "__main__":
    sys.exit(main())
