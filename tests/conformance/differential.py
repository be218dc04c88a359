"""Differential testing: generated scenarios, captured by the real CLIs, compared with lsp-agents.

    python tests/conformance/differential.py --seed 7 --per-harness 40 [--harness codex ...] [--out DIR]

For each harness it generates scenarios (generate.py), runs `oracle batch` on them into DIR (outside
the repository: the captures' raw/ holds vendor prompts), then compares every extract with
`lsp-agents prompt` / `lsp-agents reminders` exactly as test_conformance does (compare.py) and, for a
CLI with a definitions model, the session extract of the run's raw bodies (session_extract.py, kept in
memory) as test_sessions does (compare.session_difference). It prints, per CLI, the scenarios, runs,
exact runs (instructions and definitions), differing runs, capture failures and the time taken, and
for each difference the run and its first differing line. Exit status 1 when anything differs. A typed
line the CLI refused, sending nothing and exiting non-zero (Cline CLI's line without a blank), is compared
like any typed run: the model must say that nothing is sent; any other capture that failed is counted as such.
`--compare-only` compares the captures already in DIR again (after a change to a model), with the
scenarios as they were captured (not generated again). The oracle
works in /tmp/oracle: two runs side by side would mix each other's files, unless all but one are
given `--stream NAME` (a private mount namespace in which /tmp/oracle-NAME is /tmp/oracle).

The CLIs are captured at the release each model follows (its spec's `package` and `version`,
passed to the oracle as ORACLE_PINS): the oracle's own table is not the project's to edit and
lags behind. An ORACLE_PINS already in the environment is used as it is.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from compare import (
    HARNESS_IDS,
    build_scenario,
    expected_read_blocks,
    first_line_difference,
    model_eager,
    model_reads,
    oracle_length_folder,
    same_blocks,
    session_difference,
    unmodelled_args,
)
from generate import VOCABULARY, generate, scenario_options
from session_extract import extract as extract_session
from session_extract import main_body

from lsp_agents.core.agents import DEFINITIONS
from lsp_agents.core.harnesses import HARNESSES

ORACLE = Path("/work/shared/oracle/oracle")


@dataclass
class Tally:
    scenarios: int = 0
    runs: int = 0
    exact: int = 0
    failures: list[str] = field(default_factory=list)
    differences: list[str] = field(default_factory=list)
    seconds: float = 0.0


def first_difference(expected: list[dict], actual: list[dict]) -> str:
    """Where two block lists part: the block, the line, and both lines (shortened)."""
    if [b["placement"] for b in expected] != [b["placement"] for b in actual]:
        return f"placements: CLI {[b['placement'] for b in expected]} vs model {[b['placement'] for b in actual]}"
    if sorted("\n".join(b["text"] for b in expected).split("\n")) == sorted("\n".join(b["text"] for b in actual).split("\n")):
        return "the same lines in another order (a directory-listing order?)"
    for index, (want, got) in enumerate(zip(expected, actual, strict=True)):
        if want["text"] != got["text"]:
            return f"block {index} " + first_line_difference(want["text"], got["text"])
    return "no difference"


def compare_run(scenario: Path, config: dict, run: dict, extract: dict, raw: Path) -> str | None:
    """None when lsp-agents gives the extract's texts exactly and, for a CLI with a definitions model,
    the session extract of the capture's raw bodies (session_extract.py, in memory), else a short
    description of the first difference."""
    tmp = oracle_length_folder()  # as long as the oracle's, for texts that depend on it (OpenHands)
    try:
        ws, home, env = build_scenario(tmp, scenario, config, run)
        try:
            # A typed run is there for its command: the oracle's Claude extractor takes the instruction
            # reminders from the first user message, which the Read calls of the command's `@path`
            # mentions precede (FINDINGS.md IJ-4); the scenario's runs from the same launch directory
            # without a typed line compare the instruction text.
            if "ORACLE_TYPED" not in run.get("env", {}):
                eager = model_eager(ws, home, env, run)
                if not same_blocks(run["harness"], extract["eager"], eager):
                    return "eager " + first_difference(extract["eager"], eager)
                for read, blocks in model_reads(ws, home, env, run):
                    expected = expected_read_blocks(extract, read)
                    if blocks != expected:
                        return f"read {read}: " + first_difference(expected, blocks)
            if HARNESS_IDS[run["harness"]] not in DEFINITIONS:
                return None
            session = session_extract(raw)
            if isinstance(session, str):
                return session
            difference = session_difference(ws, home, env, run, session)
            return None if difference is None else f"definitions {difference}"
        except AssertionError as error:  # lsp-agents exited non-zero
            return f"lsp-agents failed: {str(error).strip().splitlines()[-1:]}"
    finally:
        shutil.rmtree(tmp)


def refused_line(run: dict, raw: Path) -> bool:
    """A typed line the CLI refused, sending nothing (Cline CLI: a line without a blank, TC-6): compared
    like any typed run, the model having to say that nothing is sent (`nothing_sent`)."""
    return "ORACLE_TYPED" in run.get("env", {}) and main_body(raw) is None


def session_extract(raw: Path) -> dict | str:
    """The capture's session extract, or why session_extract.py could not take it from the bodies."""
    try:
        return extract_session(raw)
    except (AssertionError, StopIteration, AttributeError, TypeError, KeyError, ValueError, IndexError) as error:
        return f"session extract failed: {type(error).__name__} {str(error)[:200]}"


def oracle_pins() -> dict[str, dict[str, str]]:
    """The oracle's pins as the specs name them: each CLI's npm package at the version its model follows."""
    specs = {name: HARNESSES[harness_id].spec for name, harness_id in HARNESS_IDS.items()}
    return {name: {"pkg": spec.package, "version": spec.version} for name, spec in specs.items() if spec.package}


ORACLE_ROOT = "/tmp/oracle"  # fixed by the oracle: every capture works there
# A second stream: a private mount namespace in which another folder is /tmp/oracle (the installed
# CLIs shared), so that two runs of this script never mix each other's files.
STREAM = 'mount --bind "$1/clis" "$2/clis" && mount --rbind "$2" "$1" && shift 2 && exec "$@"'


def capture(scenarios: list[Path], out: Path, log: Path, stream: str | None = None) -> None:
    """One `oracle batch` for the scenarios (captures are sequential anyway), logged to `log`; with
    `stream`, in a private mount namespace of its own (see STREAM)."""
    out.mkdir(parents=True, exist_ok=True)
    env = {"ORACLE_PINS": json.dumps(oracle_pins()), **os.environ}
    command = [str(ORACLE), "batch", *map(str, scenarios), "--out", str(out)]
    if stream is not None:
        root = Path(f"{ORACLE_ROOT}-{stream}")
        (root / "clis").mkdir(parents=True, exist_ok=True)
        command = ["unshare", "-m", "--propagation", "private", "sh", "-c", STREAM, "stream", ORACLE_ROOT, str(root), *command]
    with log.open("w") as output:
        subprocess.run(command, stdout=output, stderr=output, env=env, check=False)


def verify_warnings(log: Path) -> list[str]:
    """The oracle's VERIFY warnings (text sent that its extractor missed): the extract may be incomplete.

    The oracle prints a run's warnings before the run's own line, which ends with its extract's path:
    each warning is named after that run (`scenario/run`)."""
    if not log.exists():
        return []
    warnings, pending = [], []
    for line in log.read_text().splitlines():
        if "VERIFY: " in line:
            pending.append(line.split("VERIFY: ", 1)[1])
        elif line.startswith("oracle: ") and line.endswith(".json") and pending:
            extract = Path(line.rsplit(" ", 1)[1])
            warnings += [f"{extract.parent.name}/{extract.stem}: {warning}" for warning in pending]
            pending = []
    return warnings + pending


def captured_scenarios(folder: Path, harness: str, seed: int) -> list[Path]:
    """The scenarios a capture was made of, as written then: generated again, they would follow the
    generator as it is now, which may draw another typed line or workspace."""
    return sorted(folder.glob(f"gen-{harness}-{seed}-[0-9][0-9]"))


def tally(scenarios: list[Path], out: Path) -> Tally:
    result = Tally(scenarios=len(scenarios))
    for scenario in scenarios:
        config = json.loads((scenario / "scenario.json").read_text())
        for run in config["runs"]:
            result.runs += 1
            run_id = f"{scenario.name}/{run['id']}"
            path = out / scenario.name / f"{run['id']}.json"
            if not path.exists():
                result.failures.append(f"{run_id}: no extract")
                continue
            extract = json.loads(path.read_text(encoding="utf-8"))
            raw = out / scenario.name / "raw" / run["id"]
            if extract.get("exit") != 0 and not refused_line(run, raw):
                result.failures.append(f"{run_id}: the CLI exited {extract.get('exit')}")
                continue
            if unmodelled_args(run):
                continue
            difference = compare_run(scenario, config, run, extract, raw)
            if difference is None:
                result.exact += 1
            else:
                result.differences.append(f"{run_id}: {difference}")
    return result


def main() -> int:
    parser = scenario_options(__doc__)
    parser.add_argument("--out", type=Path, help="default: /tmp/differential/seed-N")
    parser.add_argument(
        "--compare-only",
        action="store_true",
        help="compare the captures already in --out",
    )
    parser.add_argument(
        "--stream",
        metavar="NAME",
        help="capture in /tmp/oracle-NAME seen as /tmp/oracle (a private mount namespace; needs root), so that "
        "another run of this script can capture at the same time",
    )
    args = parser.parse_args()
    out = args.out or Path(f"/tmp/differential/seed-{args.seed}")
    if Path(__file__).resolve().parents[2] in out.resolve().parents:
        parser.error("--out must lie outside the repository: captures hold vendor prompts")
    any_difference = False
    for harness in args.harness or list(VOCABULARY):
        started = time.monotonic()
        scenarios = (
            captured_scenarios(out / "scenarios", harness, args.seed)
            if args.compare_only
            else generate(args.seed, args.per_harness, out / "scenarios", [harness])
        )
        log = out / "captures" / f"batch-{harness}.log"
        if not args.compare_only:
            capture(scenarios, out / "captures", log, args.stream)
        result = tally(scenarios, out / "captures")
        warnings = verify_warnings(log)
        result.seconds = time.monotonic() - started
        any_difference |= bool(result.differences or result.failures)
        print(
            f"{harness}: seed {args.seed}, {result.scenarios} scenarios, {result.runs} runs, {result.exact} exact, "
            f"{len(result.differences)} differing, {len(result.failures)} capture failures, "
            f"{len(warnings)} oracle VERIFY warnings, {result.seconds:.0f} s",
            flush=True,
        )
        for line in result.differences + result.failures + [f"VERIFY {w}" for w in warnings]:
            print(f"  {line}", flush=True)
    return 1 if any_difference else 0


if __name__ == "__main__":
    sys.exit(main())
