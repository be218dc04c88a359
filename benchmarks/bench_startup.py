"""How long the command line takes to answer a new user, beside a bare interpreter and agnix.

Measured in one run, so that the ratios hold on a loaded machine where the milliseconds do not:

* `lsp-agents --version` against `python -c pass` (the same interpreter: what no Python program
  can go below) and against `agnix --version` (a Rust linter of agent configurations);
* `lsp-agents check REPO` against `agnix REPO` on two repositories of the shared real-world
  corpus (../shared/realworld), chosen by tracked-file count: the nearest to about 400 and to
  about 3,500 files, materialised as work trees (`corpora.materialize`).

Each command runs `--runs` times after one warm-up; the figures are medians of wall time and of
CPU time (user + system, the child's). The commands run without PYTHONDONTWRITEBYTECODE, so the
warm-up leaves the bytecode cache every installed copy has (an editable install whose cache was
never written would otherwise compile the package on every run). `check` is run with an empty `--home`, so the machine's
own harness files do not count, and `--fail-on never`. Targets (the project issue): `--version`
at most 60 ms wall; `check` on the ~400-file repository within 2x agnix. `check` is measured twice:
with `--no-cache` (a full run: what CI and the first run pay) and on the unchanged repository
(answered from its result cache, in a cache folder of the benchmark's own: what a pre-commit hook
or a second run pays). Beside them, the import of the libraries every full run needs (LIBRARIES)
with nothing else: the floor a full run cannot go below. Nothing is asserted; this only prints.

    pip install agnix
    python benchmarks/bench_startup.py --runs 15
    python benchmarks/bench_startup.py --lsp-agents "/path/to/other/venv/bin/lsp-agents"   # another build
"""

from __future__ import annotations

import argparse
import os
import resource
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from corpora import SHARED, materialize

VERSION_TARGET_MS = 60.0
CHECK_TARGET_RATIO = 2.0
# What every full run imports before it analyses anything: the floor no import trimming goes below.
LIBRARIES = ("markdown_it", "pathspec", "yaml", "re2")
SIZES = (400, 3500)  # tracked files of the two repositories checked


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


ENVIRONMENT = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}


def measure(command: list[str], runs: int) -> tuple[float, float]:
    """Median wall and CPU seconds of `runs` runs (after one run that warms the caches)."""
    subprocess.run(command, check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=ENVIRONMENT)
    walls, cpus = [], []
    for _ in range(runs):
        cpu, start = children_cpu(), time.perf_counter()
        subprocess.run(command, check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=ENVIRONMENT)
        walls.append(time.perf_counter() - start)
        cpus.append(children_cpu() - cpu)
    return statistics.median(walls), statistics.median(cpus)


def tracked_files(repo: Path) -> int:
    with open(repo / "files.txt", encoding="utf-8", errors="surrogateescape") as listing:
        return sum(1 for line in listing if line.strip())


def pick_repositories() -> list[tuple[str, int]]:
    """The corpus repositories nearest to each of SIZES tracked files."""
    repos = SHARED / "repos"
    if not repos.is_dir():
        sys.exit(f"no corpus at {repos}: the shared real-world corpus is needed")
    counts = {p.name: tracked_files(p) for p in repos.iterdir() if (p / "files.txt").is_file()}
    return [min(counts.items(), key=lambda item: abs(item[1] - size)) for size in SIZES]


def default_command() -> list[str]:
    """The console script beside this interpreter (what a user types), else `python -m lsp_agents`."""
    script = Path(sys.executable).with_name("lsp-agents")
    return [str(script)] if script.is_file() else [sys.executable, "-m", "lsp_agents"]


def row(label: str, figures: tuple[float, float], base: tuple[float, float] | None) -> None:
    wall, cpu = figures
    ratio = f"x{wall / base[0]:5.1f}   x{cpu / base[1]:5.1f}" if base else ""
    print(f"  {label:<44} {wall * 1000:8.1f} {cpu * 1000:8.1f}   {ratio}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=11, help="runs per command (median taken), after one warm-up")
    parser.add_argument("--lsp-agents", default=None, help="the command to measure (default: this environment's lsp-agents)")
    args = parser.parse_args()
    ours = shlex.split(args.lsp_agents) if args.lsp_agents else default_command()
    agnix = shutil.which("agnix")
    print(f"{shlex.join(ours)}; {args.runs} runs each, medians; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    print(f"  {'':<44} {'wall ms':>8} {'CPU ms':>8}   vs (wall, CPU)")

    baseline = measure([sys.executable, "-c", "pass"], args.runs)
    libraries = measure([sys.executable, "-c", f"import {', '.join(LIBRARIES)}"], args.runs)
    version = measure([*ours, "--version"], args.runs)
    row("python -c pass", baseline, None)
    row(f"python -c 'import {', '.join(LIBRARIES)}'", libraries, baseline)
    row("lsp-agents --version", version, baseline)
    if agnix:
        agnix_version = measure([agnix, "--version"], args.runs)
        row("agnix --version", agnix_version, None)
        row("lsp-agents --version vs agnix --version", version, agnix_version)
    verdict = "met" if version[0] * 1000 <= VERSION_TARGET_MS else "MISSED"
    print(f"  target: --version <= {VERSION_TARGET_MS:.0f} ms wall: {verdict}")

    with tempfile.TemporaryDirectory(prefix="bench-startup-") as scratch:
        home = Path(scratch, "home")
        home.mkdir()
        ENVIRONMENT["XDG_CACHE_HOME"] = str(Path(scratch, "cache"))  # check's result cache: not the user's
        repositories = pick_repositories()
        for name, count in repositories:
            repo = materialize(SHARED / "repos" / name, Path(scratch, name))
            print(f"\ncheck {name} ({count:,} tracked files)")
            command = [*ours, "check", str(repo), "--home", str(home), "--fail-on", "never"]
            full = measure([*command, "--no-cache"], args.runs)
            cached = measure(command, args.runs)  # the warm-up run stores the result; the others are answered from it
            row("lsp-agents check --no-cache (a full run)", full, baseline)
            row("lsp-agents check, unchanged (from its cache)", cached, baseline)
            if agnix is None:
                print("  agnix: not installed (pip install agnix); no ratio")
                continue
            theirs = measure([agnix, str(repo)], args.runs)
            row("agnix", theirs, None)
            row("lsp-agents check --no-cache vs agnix", full, theirs)
            row("lsp-agents check from its cache vs agnix", cached, theirs)
            row("its libraries alone (the floor) vs agnix", libraries, theirs)
            if (name, count) == repositories[0]:
                for label, figures in (("a full run", full), ("from the cache", cached)):
                    verdict = "met" if figures[0] <= CHECK_TARGET_RATIO * theirs[0] else "MISSED"
                    print(f"  target: within {CHECK_TARGET_RATIO:.0f}x agnix (wall), {label}: {verdict}")


if __name__ == "__main__":
    main()
