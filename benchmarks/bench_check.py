"""Benchmark of `lsp-agents check` on the synthetic monorepo, side by side with agnix in the same run.

What is measured, on the tree `bench_cascade.py` generates (its generator is imported, not copied):

* full check: `python -m lsp_agents check REPO --home HOME --format json` as a subprocess, wall time
  (interpreter start, discovery, analysis and output included), median of `--runs` runs; the
  same for `agnix REPO --format json` (a Rust linter that checks files one at a time);
* the phases of one in-process run: discovery (`WorkspaceIndex.scan`) and a serial
  `Analyzer.analyse_all` on the index rebuilt from the scan's snapshot (one process: what the
  language server's analysis process does; `check` shares it between CPUs);
* re-analysis after editing one instruction file: an unsaved-buffer overlay with one added line,
  then `Analyzer.analyse_paths([file])`, for `--edits` random instruction files, and separately
  for the root AGENTS.md (every chain holds it: the worst case).

Figures are printed as ratios against agnix measured in the same run, since absolute times depend
on the machine and its load. Targets (the project issue): full check no slower than agnix and at
most 3 s; re-analysis under 50 ms. Nothing is asserted; this only prints.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import resource
import shutil
import statistics
import subprocess
import sys
import threading
import time

from bench_cascade import add_tree_arguments, prepared_tree
from processes import cpu_seconds

from lsp_agents.core.analysis import Analyzer
from lsp_agents.core.compose import resolve_cwd
from lsp_agents.core.fs import FileSystem
from lsp_agents.core.settings import Settings
from lsp_agents.core.workspace import WorkspaceIndex

FULL_TARGET_S = 3.0
EDIT_TARGET_MS = 50.0
CPU_SAMPLE_SECONDS = 0.02


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed_subprocess(command: list[str], runs: int) -> tuple[list[float], list[float], subprocess.CompletedProcess]:
    """Wall times and CPU times (user + system, every thread of every process) of `runs` runs, and the last result.

    The kernel's account of a command that has ended covers the processes it waited for only
    (`check` kills its analysis worker without waiting for it), so the process tree's CPU time
    is also read from /proc while it runs, and the larger is kept."""
    walls, cpus, result = [], [], None
    for _ in range(runs):
        cpu, start = children_cpu(), time.perf_counter()
        result, tree_cpu = run_watching_cpu(command)
        walls.append(time.perf_counter() - start)
        cpus.append(max(tree_cpu, children_cpu() - cpu))
    return walls, cpus, result


def run_watching_cpu(command: list[str]) -> tuple[subprocess.CompletedProcess, float]:
    """Run a command to its end; its result, and the most CPU time its process tree had used when
    last read (every CPU_SAMPLE_SECONDS)."""
    seen = 0.0
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as process:

        def sample() -> None:
            nonlocal seen
            while process.poll() is None:
                seen = max(seen, cpu_seconds(process.pid))
                time.sleep(CPU_SAMPLE_SECONDS)

        sampler = threading.Thread(target=sample)
        sampler.start()
        stdout, stderr = process.communicate()
        sampler.join()
    return subprocess.CompletedProcess(command, process.returncode, stdout, stderr), seen


def check_command(repo: str, home: str) -> list[str]:
    """`lsp-agents check` of the whole tree as a user runs it (JSON output, exit status 0), a full
    analysis every run: `--no-cache`, or the runs after the first would be answered from its cache."""
    return [
        sys.executable,
        "-m",
        "lsp_agents",
        "check",
        repo,
        "--home",
        home,
        "--format",
        "json",
        "--fail-on",
        "never",
        "--no-cache",
    ]


def count_findings(stdout: str, key: str) -> int | str:
    try:
        return len(json.loads(stdout)[key])
    except (ValueError, KeyError, TypeError):
        return "?"


def measure_edits(repo: str, home: str, edits: int, seed: int) -> dict:
    scanned = WorkspaceIndex(repo, FileSystem())
    start = time.perf_counter()
    scanned.scan()
    scan_s = time.perf_counter() - start
    # The analysis process rebuilds the index from the scan's snapshot, with a file system of its own.
    fs = FileSystem()
    index = WorkspaceIndex.from_snapshot(scanned.snapshot(), fs)
    analyzer = Analyzer(index, Settings(), home=home, env={})
    start = time.perf_counter()
    total = sum(len(v) for v in analyzer.analyse_all().values())
    analyse_s = time.perf_counter() - start

    def edit(path: str) -> tuple[float, int]:
        original = fs.read(path).text()
        fs.set_overlay(path, original + "\n- one more instruction added while benchmarking the analysis\n")
        start = time.perf_counter()
        touched = analyzer.analyse_paths([path])
        elapsed = (time.perf_counter() - start) * 1000
        fs.clear_overlay(path)
        analyzer.analyse_paths([path])
        return elapsed, len(touched)

    rng = random.Random(seed)
    candidates = sorted(p for p in index.instruction_files if os.path.dirname(p) != repo)
    samples = [edit(p) for p in rng.sample(candidates, min(edits, len(candidates)))]
    root_agents = os.path.join(repo, "AGENTS.md")
    root_edit = edit(root_agents) if os.path.exists(root_agents) else (float("nan"), 0)
    return {
        "scan_s": scan_s,
        "analyse_s": analyse_s,
        "findings": total,
        "harnesses": analyzer.harnesses,
        "edits_ms": [s[0] for s in samples],
        "touched": [s[1] for s in samples],
        "root_edit": root_edit,
        "instruction_files": len(index.instruction_files),
        "files": len(index.files),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_tree_arguments(parser)
    parser.add_argument("--runs", type=int, default=3, help="subprocess runs per tool (median reported)")
    parser.add_argument("--edits", type=int, default=30, help="instruction files edited for the re-analysis figure")
    args = parser.parse_args()
    agnix = shutil.which("agnix")
    with prepared_tree(args, "lsp-agents-bench-check-") as base:
        repo, home = resolve_cwd(os.path.join(base, "repo")), os.path.join(base, "home")
        print("timing lsp-agents check", file=sys.stderr)
        ours = timed_subprocess(check_command(repo, home), args.runs)
        theirs = timed_subprocess([agnix, repo, "--format", "json"], args.runs) if agnix else None
        print("timing re-analysis after edits", file=sys.stderr)
        edits = measure_edits(repo, home, args.edits, args.seed)
        report(args, edits, ours, theirs)
    return 0


def _row(label: str, walls: list[float], cpus: list[float], base: tuple[float, float] | None, note: str) -> None:
    wall, cpu = statistics.median(walls), statistics.median(cpus)
    ratios = (f"x{wall / base[0]:.2f}", f"x{cpu / base[1]:.2f}") if base else ("-", "-")
    print(
        f"{label:<20}{wall:>9.2f}{ratios[0]:>9}{cpu:>9.2f}{ratios[1]:>9}   runs {', '.join(f'{t:.2f}' for t in walls)}   {note}"
    )


def report(args, edits: dict, ours: tuple, theirs: tuple | None) -> None:
    print(
        f"lsp-agents check benchmark: {edits['files']:,} files, {edits['instruction_files']:,} instruction files "
        f"(discovered), depth <= {args.depth}, seed {args.seed}; harnesses: {', '.join(edits['harnesses'])}"
    )
    print(
        f"Python {platform.python_version()} on {platform.platform()}, {os.cpu_count()} CPUs, "
        f"load average {os.getloadavg()[0]:.2f} (other processes share the CPUs: compare ratios, not seconds)"
    )
    print()
    print(f"full check, median of {args.runs}   wall s  vs agnix    CPU s  vs agnix")
    base = (statistics.median(theirs[0]), statistics.median(theirs[1])) if theirs else None
    _row("lsp-agents check", ours[0], ours[1], base, f"({count_findings(ours[2].stdout, 'findings')} findings)")
    if theirs:
        _row("agnix", theirs[0], theirs[1], base, f"({count_findings(theirs[2].stdout, 'diagnostics')} diagnostics)")
    else:
        print("agnix: not installed (pip install agnix); no ratio")
    print(
        f"  in one process (as the server runs it): discovery {edits['scan_s']:.2f} s, analysis {edits['analyse_s']:.2f} s "
        f"({edits['findings']} findings)"
    )
    wall = statistics.median(ours[0])
    verdict = "met" if wall <= FULL_TARGET_S and (base is None or wall <= base[0]) else "MISSED"
    print(f"  target: <= {FULL_TARGET_S:.0f} s and no slower than agnix (wall): {verdict}")
    print()
    times = sorted(edits["edits_ms"])
    if times:
        p90 = times[min(len(times) - 1, int(len(times) * 0.9))]
        root_ms, root_touched = edits["root_edit"]
        print(f"re-analysis after editing one instruction file ({len(times)} random files), ms:")
        print(
            f"  median {statistics.median(times):.1f}   p90 {p90:.1f}   max {times[-1]:.1f}   "
            f"files re-reported: median {statistics.median(edits['touched']):.0f}"
        )
        print(f"  root AGENTS.md (in every chain): {root_ms:.1f} ms, {root_touched} files re-reported")
        verdict = "met" if p90 < EDIT_TARGET_MS else "MISSED"
        print(f"  target: < {EDIT_TARGET_MS:.0f} ms (p90 of random files): {verdict}")
        if base:
            print(f"  median as a share of one agnix run (wall): {statistics.median(times) / 1000 / base[0]:.1%}")


if __name__ == "__main__":
    sys.exit(main())
