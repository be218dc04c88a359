"""The hostile matrix at full size: every CLI command × every harness on the hostile workspace
(tests/hostile/hostile_workspace.py at FULL scale), each run limited to 10 s and 1 GB.

Prints runs ok / total, the slowest run and the peak RSS, the same run's `check` of a plain
workspace as the baseline (the cost of a CLI run on a workspace with nothing hostile in it), and
every failure. Nothing is asserted; the exit status is 0.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "hostile"))
from hostile_matrix import TIME_LIMIT_S, execute, run_matrix, summary
from hostile_workspace import CI, FULL, generate


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", choices=("ci", "full"), default="full")
    parser.add_argument("--jobs", type=int, default=2, help="CLI runs at a time")
    parser.add_argument("--keep", metavar="DIR", help="generate into DIR (must not exist) and keep it")
    args = parser.parse_args()
    base = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="lsp-agents-hostile-"))
    try:
        started = time.perf_counter()
        ws, home = generate(base, FULL if args.scale == "full" else CI)
        print(f"generated the hostile workspace in {time.perf_counter() - started:.1f} s", file=sys.stderr)
        plain = base / "plain"
        (plain / ".git").mkdir(parents=True)
        (plain / "AGENTS.md").write_text("# Plain\n- Run the tests before committing.\n")
        baseline = execute(["check", str(plain), "--home", str(home), "--format", "json"], home, [])
        started = time.perf_counter()
        runs = run_matrix(ws, home, jobs=args.jobs, time_limit=TIME_LIMIT_S)
        elapsed = time.perf_counter() - started
        print(
            f"hostile workspace ({args.scale}): {sum(1 for _ in ws.rglob('*')):,} entries; Python {sys.version.split()[0]}, "
            f"{os.cpu_count()} CPUs, {args.jobs} runs at a time; matrix wall time {elapsed:.1f} s"
        )
        print(f"baseline: check of a one-file workspace {baseline.seconds:.2f} s, {baseline.rss_mib:.0f} MiB")
        print(summary(runs))
        slowest = max(runs, key=lambda r: r.seconds)
        print(f"slowest run / baseline: x{slowest.seconds / baseline.seconds:.1f}; limits: 10 s and 1024 MiB per run")
    finally:
        if not args.keep:
            shutil.rmtree(base, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
