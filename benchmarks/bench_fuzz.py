"""A long fuzz run of the language server over stdio on the hostile workspace (the CI test runs a
bounded one): random, malformed and cancelled requests and notifications, didChange storms,
requests during the initial analysis, then shutdown/exit.

Prints the requests and notifications sent, how many were answered with an error, the answer
latency (p50, p99, slowest) against the `initialize` round trip of the same session as the
baseline, how many times the server killed a stuck analysis worker (its log says so), whether
every request was answered, and the server's exit status. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent / "tests"
sys.path[:0] = [str(HERE / "hostile"), str(HERE / "server")]
from hostile_workspace import CI, FULL, generate  # noqa: E402 - found through the sys.path line above
from hypothesis import HealthCheck, given, seed, settings  # noqa: E402 - found through the sys.path line above
from lsp_fuzz import FuzzSession, actions, uri_pool  # noqa: E402 - found through the sys.path line above


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=2_000, help="hypothesis examples (batches of 1-12 messages)")
    parser.add_argument("--scale", choices=("ci", "full"), default="ci")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    base = Path(tempfile.mkdtemp(prefix="lsp-agents-fuzz-"))
    try:
        ws, home = generate(base, FULL if args.scale == "full" else CI)
        session = FuzzSession(ws, home)
        initialize = session.start()
        pool = uri_pool(ws)
        started = time.perf_counter()

        @settings(max_examples=args.examples, deadline=None, database=None, suppress_health_check=list(HealthCheck))
        @given(actions(pool))
        def batches(batch):
            session.send(batch)
            assert session.alive()

        try:
            seed(args.seed)(batches)()
        finally:
            code = session.stop() if session.alive() else None
        figures = session.figures
        latencies = sorted(seconds * 1000 for seconds, _ in figures.latencies)
        slowest, method = figures.slowest()
        cuts = statistics.quantiles(latencies, n=100, method="inclusive")
        print(
            f"fuzz ({args.scale} hostile workspace, {args.examples} batches, seed {args.seed}): {figures.requests} requests "
            f"({figures.errors} answered with an error), {figures.notifications} notifications in {time.perf_counter() - started:.0f} s"
        )
        print(f"baseline: initialize round trip {initialize * 1000:.0f} ms")
        print(
            f"answers: p50 {cuts[49]:.0f} ms, p99 {cuts[98]:.0f} ms, slowest {slowest * 1000:.0f} ms ({method}); "
            f"slowest / initialize x{slowest / initialize:.1f}"
        )
        print(f"analysis worker killed {figures.worker_kills} times")
        print(
            f"unanswered: {len(figures.unanswered)}; server exit status after shutdown/exit: {code}; "
            f"{figures.log_lines} log lines on stderr, {figures.tracebacks} tracebacks"
        )
        if figures.first_traceback:
            print("the first traceback:\n" + figures.first_traceback)
    finally:
        shutil.rmtree(base, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
