"""Memory of the language server and its analysis worker over many edits that end where they began.

What is measured, with the real server process (`python -m lsp_agents serve`, `debounceMs` 0) on
a small synthetic monorepo of bench_cascade.py: one instruction file is opened, then `--edits`
`textDocument/didChange` notifications (incremental changes, the way editors send them) of one
of two kinds:

* `toggle`: a duplicated bullet added, then removed, so that every other edit returns to the
  original text (two texts in all);
* `typing`: a word of a few letters typed at the end of the file one letter at a time, then
  deleted one letter at a time; a new word each time, so that the texts in between are new to
  every cache keyed by text.

With `--requests`, each edit is followed by what an editor asks of the edited file (links, code
lenses, symbols, a hover), answered from the server's own harness models. Every `--every` edits,
rounded to whole cycles so the text is the original again, the script waits until the analysis
has settled (a request answered after the edits, then no `analysisComplete` for `--quiet`
seconds) and samples the resident set (VmRSS) of the server and of every descendant (fork
server, worker, ...). A memory that holds nothing per edit stays flat: the least-squares slope
of RSS over the edits, in KiB per edit, is printed per process, beside the same slope for a
baseline session that sends no edits but waits as long at each sample point (the noise to
compare with).

The first sample point (the first `--every` edits, which fill the caches an edit needs) is left
out of the slopes. Nothing is asserted; this only prints.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import os
import platform
import string
import sys
import time
from collections.abc import Iterator
from pathlib import Path

from lsprotocol import types

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_cascade import add_tree_arguments, prepared_tree
from bench_server import Client, launch, shut_down
from processes import rss_by_role

TARGET_KIB_PER_EDIT = 0.1
WORD_LETTERS = 5  # typed then deleted in each cycle of `typing`
Change = types.TextDocumentContentChangePartial


def slope(xs: list[float], ys: list[float]) -> float:
    """Least-squares slope of ys over xs (0 with fewer than two distinct xs)."""
    n = len(xs)
    mean_x, mean_y = sum(xs) / n, sum(ys) / n
    spread = sum((x - mean_x) ** 2 for x in xs)
    return sum((x - mean_x) * (y - mean_y) for x, y in zip(xs, ys, strict=True)) / spread if spread else 0.0


def end_of(text: str) -> types.Position:
    """Where the text ends (code points = UTF-16 units here: the generated files are ASCII)."""
    lines = text.split("\n")
    return types.Position(len(lines) - 1, len(lines[-1]))


def toggle_edits(text: str) -> Iterator[Change]:
    """Append a duplicate of the file's first bullet, remove it, and again."""
    bullet = next((line for line in text.split("\n") if line.startswith("- ")), "- a rule")
    end = end_of(text)
    add = Change(range=types.Range(end, end), text="\n" + bullet)
    remove = Change(range=types.Range(end, types.Position(end.line + 1, len(bullet))), text="")
    return itertools.cycle((add, remove))


def word(number: int) -> str:
    """WORD_LETTERS letters naming `number`, the fastest-changing first: the words typed in a row
    share no prefix longer than a letter or two, so almost every text in between is new."""
    letters = []
    for _ in range(WORD_LETTERS):
        number, digit = divmod(number, 26)
        letters.append(string.ascii_lowercase[digit])
    return "".join(letters)


def typing_edits(text: str) -> Iterator[Change]:
    """Type a new word at the end of the file letter by letter, delete it letter by letter, and again."""
    end = end_of(text)

    def at(offset: int) -> types.Position:
        return types.Position(end.line, end.character + offset)

    for cycle in itertools.count():
        typed = word(cycle)
        for offset, letter in enumerate(typed):
            yield Change(range=types.Range(at(offset), at(offset)), text=letter)
        for offset in reversed(range(len(typed))):
            yield Change(range=types.Range(at(offset), at(offset + 1)), text="")


KINDS = {"toggle": (toggle_edits, 2), "typing": (typing_edits, 2 * WORD_LETTERS)}  # edits, and edits per cycle


class Session:
    """One server process, its workspace folder analysed and one instruction file open."""

    def __init__(self, repo: str, home: str, path: str) -> None:
        self.repo, self.home, self.path = repo, home, path
        self.client = Client()
        self.uri = Path(path).as_uri()
        self.document = types.TextDocumentIdentifier(uri=self.uri)
        self.pending: list[asyncio.Future] = []

    async def start(self) -> None:
        await launch(self.client, self.repo, self.home)
        while not self.client.analyses:
            await asyncio.sleep(0.05)
        self.client.text_document_did_open(
            types.DidOpenTextDocumentParams(
                text_document=types.TextDocumentItem(
                    uri=self.uri, language_id="markdown", version=1, text=Path(self.path).read_text()
                )
            )
        )
        await self.settle(0.0)

    @property
    def pid(self) -> int:
        return self.client._server.pid

    def change(self, version: int, change: Change) -> None:
        self.client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=self.uri, version=version), content_changes=[change]
            )
        )

    def ask_like_an_editor(self) -> None:
        """What an editor asks about a document after it changes; answered at the next settle point."""
        self.pending += [
            self.client.text_document_document_link_async(types.DocumentLinkParams(text_document=self.document)),
            self.client.text_document_code_lens_async(types.CodeLensParams(text_document=self.document)),
            self.client.text_document_document_symbol_async(types.DocumentSymbolParams(text_document=self.document)),
            self.client.text_document_hover_async(types.HoverParams(text_document=self.document, position=types.Position(0, 0))),
        ]

    async def settle(self, quiet: float) -> None:
        """Wait until the server has read everything sent (a request is answered after it) and no
        analysis has ended for `quiet` seconds."""
        await asyncio.gather(*self.pending)
        self.pending.clear()
        await self.client.text_document_document_symbol_async(types.DocumentSymbolParams(text_document=self.document))
        seen, since = len(self.client.analyses), time.perf_counter()
        while time.perf_counter() - since < quiet:
            await asyncio.sleep(0.05)
            if len(self.client.analyses) != seen:
                seen, since = len(self.client.analyses), time.perf_counter()

    async def stop(self) -> None:
        await shut_down(self.client)


def sample_points(args: argparse.Namespace) -> list[int]:
    """The edit counts at which RSS is sampled: every `--every` edits rounded up to whole cycles
    (the text is then the original again), and the last."""
    cycle = KINDS[args.kind][1]
    every = -(-args.every // cycle) * cycle
    return [*range(every, args.edits, every), args.edits]


async def edit_run(repo: str, home: str, path: str, args: argparse.Namespace) -> tuple[list[dict], list[float]]:
    """Samples (edits sent, MiB per role) at each settle point, and the seconds between them."""
    session = Session(repo, home, path)
    await session.start()
    changes = KINDS[args.kind][0](Path(path).read_text())
    samples, intervals, sent = [{"edits": 0, **rss_by_role(session.pid)}], [], 0
    for point in sample_points(args):
        start = time.perf_counter()
        while sent < point:
            sent += 1
            session.change(sent + 1, next(changes))
            if args.requests:
                session.ask_like_an_editor()
        await session.settle(args.quiet)
        intervals.append(time.perf_counter() - start)
        samples.append({"edits": sent, **rss_by_role(session.pid)})
        print(f"\r{sent:,} edits, {len(session.client.analyses):,} analyses", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    samples[-1]["analyses"] = len(session.client.analyses)
    await session.stop()
    return samples, intervals


async def baseline_run(repo: str, home: str, path: str, args: argparse.Namespace, intervals: list[float]) -> list[dict]:
    """The same sample points without edits: each waits as long as the edit run's did."""
    session = Session(repo, home, path)
    await session.start()
    samples = [{"edits": 0, **rss_by_role(session.pid)}]
    for point, interval in zip(sample_points(args), intervals, strict=False):  # as many as the edit run reached
        await asyncio.sleep(interval)
        samples.append({"edits": point, **rss_by_role(session.pid)})
    await session.stop()
    return samples


def slopes(samples: list[dict]) -> dict[str, float]:
    """KiB per edit, per role, over the samples after the first settle point."""
    kept = samples[1:] if len(samples) > 2 else samples
    roles = [r for r in kept[0] if r not in ("edits", "analyses") and all(r in s for s in kept)]
    return {role: slope([s["edits"] for s in kept], [s[role] * 1024 for s in kept]) for role in roles}


def report(args: argparse.Namespace, path: str, edited: list[dict], baseline: list[dict]) -> None:
    print(
        f"lsp-agents memory benchmark: {args.files:,} files, {args.instruction_files:,} instruction files, seed {args.seed}; "
        f"{args.edits:,} {args.kind} edits of {os.path.basename(path)}{' with requests' if args.requests else ''}, "
        f"settled every {sample_points(args)[0]:,}"
    )
    print(
        f"Python {platform.python_version()} on {platform.platform()}, {os.cpu_count()} CPUs, "
        f"load average {os.getloadavg()[0]:.2f}; {edited[-1].get('analyses', '?')} analyses ran in the edit run"
    )
    roles = [r for r in edited[0] if r not in ("edits", "analyses")]
    print("\nRSS MiB at each settle point (edit run | baseline run)")
    print(f"{'edits':>8}" + "".join(f"{r:>12}" for r in roles) + "   |" + "".join(f"{r:>12}" for r in roles))
    for mine, theirs in zip(edited, baseline, strict=False):  # the points both runs reached
        print(
            f"{mine['edits']:>8,}"
            + "".join(f"{mine.get(r, float('nan')):>12.1f}" for r in roles)
            + "   |"
            + "".join(f"{theirs.get(r, float('nan')):>12.1f}" for r in roles)
        )
    grown, still = slopes(edited), slopes(baseline)
    print(
        f"\nslope, KiB per edit (least squares from edit {edited[1]['edits'] if len(edited) > 2 else 0:,} on); "
        f"target < {TARGET_KIB_PER_EDIT} per process"
    )
    print(f"{'process':<12}{'edits':>10}{'baseline':>10}{'growth over the run':>22}   target")
    for role, kib in grown.items():
        total = edited[-1][role] - edited[1 if len(edited) > 2 else 0][role]
        verdict = "met" if kib < TARGET_KIB_PER_EDIT else "MISSED"
        print(f"{role:<12}{kib:>10.3f}{still.get(role, float('nan')):>10.3f}{total:>19.1f} MiB   {verdict}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_tree_arguments(parser)
    parser.set_defaults(files=2_000, instruction_files=60, depth=6)  # a small monorepo: the edits are what is measured
    parser.add_argument("--edits", type=int, default=20_000)
    parser.add_argument("--kind", choices=sorted(KINDS), default="toggle", help="what each cycle of edits does (see above)")
    parser.add_argument("--requests", action="store_true", help="after each edit, ask what an editor asks (links, lenses, ...)")
    parser.add_argument("--every", type=int, default=500, help="edits between settle points (an RSS sample each)")
    parser.add_argument("--quiet", type=float, default=0.5, help="seconds without an analysis ending that count as settled")
    parser.add_argument("--file", default="AGENTS.md", help="the instruction file edited, relative to the repository")
    args = parser.parse_args()
    with prepared_tree(args, "lsp-agents-bench-memory-") as base:
        repo, home = os.path.realpath(os.path.join(base, "repo")), os.path.join(base, "home")
        path = os.path.join(repo, args.file)
        print("edit run", file=sys.stderr)
        edited, intervals = asyncio.run(edit_run(repo, home, path, args))
        print("baseline run (no edits)", file=sys.stderr)
        baseline = asyncio.run(baseline_run(repo, home, path, args, intervals))
        report(args, path, edited, baseline)
    return 0


if __name__ == "__main__":
    sys.exit(main())
