"""Every CLI command × every harness on the hostile workspace, each run judged on its own.

A run passes when it exits 0 or 2 (`check`, with --fail-on never: 0), stays under the memory
limit, prints valid UTF-8 (and valid JSON for `--format json`/`sarif`), writes no traceback, and
no output holds a secret planted outside the rules. The benchmark also judges each run's time (`time_limit`); the test does not
(its outcome must not depend on how busy the machine is) and only stops a run that hangs. The harnesses come from
`lsp_agents.core.harnesses.HARNESSES`, so new models are covered as they appear.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from hostile_workspace import SECRET_MARKERS, targets

from lsp_agents.core.harnesses import HARNESSES

TIME_LIMIT_S = 10.0  # what the benchmark allows a run
HANG_S = 600.0  # a run still going after this long is killed: it hangs
MEMORY_LIMIT_MIB = 1024.0
STDERR_TAIL_LINES = 40


@dataclass
class Run:
    args: list[str]
    seconds: float = 0.0
    rss_mib: float = 0.0
    code: int | None = None
    problems: list[str] = field(default_factory=list)
    stderr_tail: str = ""  # the end of what a failed run wrote on stderr, for the report

    @property
    def ok(self) -> bool:
        return not self.problems

    def label(self) -> str:
        return " ".join(a if len(a) < 60 else a[:25] + "…" + a[-25:] for a in self.args)


def commands(ws: Path, home: Path, *, full: bool = True) -> list[list[str]]:
    """The argument lists of the matrix: prompt, reminders, cascade and check for every harness.

    `full` (the benchmark): every target file, and a check per harness, each harness's analysis
    timed on its own. Otherwise (the test): two target files, one check of all the harnesses
    together (every harness's analysis runs in it, at a fifth of the cost), and the SARIF and text
    outputs of one harness's check.
    """
    common = ["--cwd", str(ws), "--home", str(home)]
    files = targets(ws) if full else targets(ws)[:2]
    check = ["check", str(ws), "--home", str(home), "--format", "json", "--fail-on", "never"]
    runs = []
    for harness in HARNESSES:
        runs.append(["prompt", "--harness", harness, *common, "--format", "json"])
        runs.append(["prompt", "--harness", harness, *common, "--layers", "all", "--format", "text"])
        for target in files:
            runs.append(["reminders", target, "--harness", harness, *common, "--format", "json"])
            runs.append(["cascade", target, "--harness", harness, *common, "--format", "json"])
        if full:
            runs.append([*check, "--harness", harness])
    if not full:
        runs.append([*check, "--harness", "all"])
    runs.append(["cascade", files[0], "--harness", "all", *common, "--format", "text"])
    runs.append(["cascade", str(ws / "deep"), "--harness", "all", *common, "--format", "json"])  # a directory: exit 2
    # The other output formats render the same findings: in the test, those of one harness with
    # many of them (hostile paths and messages) and the ones no harness owns.
    formats_harness = [] if full else ["--harness", "claude-code"]
    runs.append(["check", str(ws), "--home", str(home), "--format", "sarif", "--fail-on", "never", *formats_harness])
    runs.append(["check", str(ws), "--home", str(home), "--format", "text", "--fail-on", "never", *formats_harness])
    return runs


def _forbidden() -> list[bytes]:
    found = [m.encode() for m in SECRET_MARKERS]
    try:  # as root the shadow file is readable: none of its lines may leak
        with open("/etc/shadow", "rb") as handle:
            found += [line.strip() for line in handle if len(line.strip()) > 12]
    except OSError:
        pass
    return found


def judge(run: Run, stdout: bytes, stderr: bytes, forbidden: list[bytes], time_limit: float | None) -> None:
    # `check` runs with --fail-on never: its 2 says it could not check at all.
    if run.code not in ((0,) if run.args[0] == "check" else (0, 2)):
        run.problems.append(f"exit status {run.code}")
    if time_limit is not None and run.seconds > time_limit:
        run.problems.append(f"took {run.seconds:.1f} s")
    if run.rss_mib > MEMORY_LIMIT_MIB:
        run.problems.append(f"peak RSS {run.rss_mib:.0f} MiB")
    for name, stream in (("stdout", stdout), ("stderr", stderr)):
        try:
            stream.decode("utf-8")
        except UnicodeDecodeError as exc:
            run.problems.append(f"{name} is not UTF-8: {exc}")
        if b"Traceback" in stream:
            run.problems.append(f"traceback on {name}")
        leaked = [secret for secret in forbidden if secret in stream]
        if leaked:
            run.problems.append(f"{name} holds text from outside the rules: {leaked[0][:20]!r}")
    if run.code == 0 and ("json" in run.args or "sarif" in run.args):
        try:
            json.loads(stdout)
        except ValueError as exc:
            run.problems.append(f"stdout is not JSON: {exc}")
    if run.code == 2 and len(stderr.decode("utf-8", "replace").strip().splitlines()) != 1:
        run.problems.append("a usage error takes more than one line")
    if run.problems:
        run.stderr_tail = "\n".join(stderr.decode("utf-8", "replace").strip().splitlines()[-STDERR_TAIL_LINES:])


def execute(args: list[str], home: Path, forbidden: list[bytes], time_limit: float | None = None) -> Run:
    """One CLI run as a subprocess: wall time, its own peak RSS (wait4) and the judgement."""
    run = Run(args)
    env = {**os.environ, "HOME": str(home)}
    start = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, "-m", "lsp_agents", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        env=env,
    )
    output: dict[str, bytes] = {}
    readers = [
        threading.Thread(target=lambda n=n, s=s: output.__setitem__(n, s.read()))
        for n, s in (("stdout", process.stdout), ("stderr", process.stderr))
    ]
    killer = threading.Timer(HANG_S if time_limit is None else time_limit * 3, process.kill)
    for thread in (*readers, killer):
        thread.start()
    _, status, usage = os.wait4(process.pid, 0)
    killer.cancel()
    for thread in readers:
        thread.join()
    process.returncode = os.waitstatus_to_exitcode(status)
    run.seconds = time.perf_counter() - start
    run.code = process.returncode
    run.rss_mib = usage.ru_maxrss / 1024
    judge(run, output["stdout"], output["stderr"], forbidden, time_limit)
    return run


def run_matrix(ws: Path, home: Path, *, full: bool = True, jobs: int = 2, time_limit: float | None = None) -> list[Run]:
    forbidden = _forbidden()
    with ThreadPoolExecutor(jobs) as pool:
        return list(pool.map(lambda args: execute(args, home, forbidden, time_limit), commands(ws, home, full=full)))


def summary(runs: list[Run]) -> str:
    ok = sum(r.ok for r in runs)
    slowest = max(runs, key=lambda r: r.seconds)
    lines = [
        f"hostile matrix: {ok}/{len(runs)} runs ok; slowest {slowest.seconds:.2f} s ({slowest.label()}); "
        f"peak RSS {max(r.rss_mib for r in runs):.0f} MiB"
    ]
    for run in runs:
        if not run.ok:
            lines.append(f"FAIL {run.label()}: {'; '.join(run.problems)}")
            lines += [f"    stderr: {line}" for line in run.stderr_tail.splitlines()]
    return "\n".join(lines)
