"""`lsp-agents check` on the real-world corpora, judged against blind labels.

For each repository of a corpus (`benchmarks/corpora.py`: `shared`, and the `dev` and held-back
`test` halves of the 114-repository corpus): materialise it, run
`python -m lsp_agents check REPO --format json` as a subprocess with default settings and an
empty HOME and every code on (`--enable all`: a code that is a hint by default is measured too),
and match every finding with the corpus's labels. Each label is a reviewer's verdict
(`true`, `false` or `debatable`, with a one-line reason) made from the repository's files, the
finding and tests/realworld/LABELLING.md, never from the code. Prints, per repository and per
code: findings, true, false, debatable, unlabelled, and the time `check` took; per code its
precision over decided findings, its precision with each repository weighing at most 10 findings,
and whether it earns a place in the default rule set (`EarnedPlace` in codes.py: >= 95 % weighed,
over >= 20 decided findings in >= 10 repositories); then the precision of the codes on by default (target >= 95 %) and the
share of false findings among the codes that are hints by default (target < 20 %).

    python benchmarks/realworld.py                       # the shared corpus and the dev half
    python benchmarks/realworld.py --corpus test         # score a finished change on the held-back half
    python benchmarks/realworld.py --corpus dev --findings-out DIR --keep DIR2
                                                         # findings per repository for the reviewers
    python benchmarks/realworld.py --unlabelled          # also print label stubs for unjudged findings
    python benchmarks/realworld.py --prune               # drop the labels of false and debatable findings
                                                         # no longer reported (a true one lost stays: a test fails)

`tests/realworld/test_realworld.py` runs the same comparison in the test suite.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from corpora import Corpus, corpus, materialize, unpack

from lsp_agents.core.analysis.codes import CODES, DEFAULT_PRECISION, EarnedPlace

SEVERITIES = ("error", "warning", "information", "hint")
VERDICTS = ("true", "false", "debatable")
FALSE_HINTS_TARGET = 0.20  # the largest share of the hints (codes not on by default) that may be false


@dataclass(frozen=True, slots=True)
class Judged:
    repository: str
    finding: dict
    verdict: str | None  # "true", "false", "debatable", or None when unlabelled
    reason: str = ""

    @property
    def key(self) -> tuple:
        return finding_key(self.repository, self.finding)

    @property
    def keys(self) -> tuple[tuple, tuple]:
        """The keys a label of this finding may have: with its last line, then without."""
        return (*self.key, self.finding["range"]["end"]["line"] + 1), self.key


def finding_key(repository: str, finding: dict) -> tuple:
    """What a label matches on: repository, code, path and line (1-based). Not the severity: whether
    a code is on by default (a hint otherwise) is decided from these labels, and must not unmatch them."""
    return repository, finding["code"], finding["path"], finding["range"]["start"]["line"] + 1


def label_key(label: dict) -> tuple:
    """A label's key; with its `last` line (1-based) where two findings of one code begin on one
    line (a section body and a bullet of it that repeats another file)."""
    key = label["repository"], label["code"], label["path"], label["line"]
    return (*key, label["last"]) if "last" in label else key


# -- the shared corpus stores some symlinks in git's plain-file form --------------------------------
def _symlink_stub(path: Path, repo: Path, tracked: set[str]) -> str | None:
    """The link target when `path` is a symlink in git's plain-file form: one line, no newline,
    naming a tracked file or directory relative to the file's own directory."""
    if path.is_symlink() or path.name == ".gitignore" or path.stat().st_size > 255:
        return None
    text = path.read_bytes()
    if not text or b"\n" in text or b" " in text or text.startswith(b"/"):
        return None
    target = text.decode("utf-8", errors="replace")
    resolved = os.path.normpath(os.path.join(os.path.dirname(path.relative_to(repo).as_posix()), target))
    if resolved.startswith(".."):
        return None
    if resolved in tracked or any(t.startswith(resolved + "/") for t in tracked):
        return target
    return None


def restore_symlinks(repo: Path, source: Path) -> list[str]:
    """Turn the shared corpus's plain-file symlinks of `repo` back into symlinks; returns their paths."""
    tracked = {
        line.rstrip("\n") for line in (source / "files.txt").read_text(encoding="utf-8", errors="surrogateescape").splitlines()
    }
    restored = []
    for dirpath, _dirnames, filenames in os.walk(source / "tree"):
        for name in filenames:
            stored = Path(dirpath) / name
            rel = stored.relative_to(source / "tree")
            target = _symlink_stub(stored, source / "tree", tracked)
            if target is None:
                continue
            live = repo / rel
            if live.is_file() and not live.is_symlink():
                live.unlink()
                os.symlink(target, live)
                restored.append(rel.as_posix())
    return sorted(restored)


# -- checking and judging ----------------------------------------------------------------------------
Cli = Callable[[list[str], dict[str, str]], "subprocess.CompletedProcess[str]"]


def lsp_agents_process(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """`lsp-agents ARGS`, a new Python process."""
    return subprocess.run([sys.executable, "-m", "lsp_agents", *args], capture_output=True, text=True, env=env, timeout=600)


def run_check(repo: Path, home: Path, cli: Cli = lsp_agents_process) -> tuple[list[dict], float]:
    """The findings of `lsp-agents check` (default settings, every code on at its own severity: the
    hints by default are judged too, as what they would say turned on) and its wall time. `cli`
    runs the command line (the test suite gives one that forks it from a process that has
    imported the package)."""
    start = time.perf_counter()
    args = ["check", str(repo), "--home", str(home), "--format", "json", "--fail-on", "never", "--enable", "all"]
    result = cli(args, {**os.environ, "HOME": str(home)})
    elapsed = time.perf_counter() - start
    if result.returncode != 0:
        raise RuntimeError(f"check failed on {repo.name} ({result.returncode}): {result.stderr.strip()}")
    return json.loads(result.stdout)["findings"], elapsed


def load_labels(path: Path) -> dict[tuple, dict]:
    labels = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else []
    return {label_key(label): label for label in labels}


def judge(repository: str, findings: list[dict], labels: dict[tuple, dict]) -> list[Judged]:
    judged = []
    for finding in findings:
        unjudged = Judged(repository, finding, None)
        label = next((labels[key] for key in unjudged.keys if key in labels), None)
        judged.append(Judged(repository, finding, label["verdict"] if label else None, label["reason"] if label else ""))
    return judged


def corpus_findings(
    chosen: Corpus, workdir: Path, names: list[str] | None = None, jobs: int = 2, cli: Cli = lsp_agents_process
) -> tuple[list[Judged], dict[str, float], dict[str, Path]]:
    """Materialise into `workdir`, check and judge the corpus (or some repositories of it)."""
    labels = load_labels(chosen.labels)
    home = workdir / "home"
    home.mkdir(parents=True, exist_ok=True)
    members = [n for n in chosen.members if not names or n in names]

    def one(name: str) -> tuple[str, list[dict], float, Path]:
        repo = materialize(chosen.repos / name, workdir / chosen.name / name)
        if chosen.name == "shared":
            restore_symlinks(repo, chosen.repos / name)
        findings, seconds = run_check(repo, home, cli)
        return name, findings, seconds, repo

    judged: list[Judged] = []
    times: dict[str, float] = {}
    trees: dict[str, Path] = {}
    with ThreadPoolExecutor(jobs) as pool:
        for name, findings, seconds, repo in pool.map(one, members):
            judged += judge(name, findings, labels)
            times[name], trees[name] = seconds, repo
    return judged, times, trees


# -- the report ----------------------------------------------------------------------------------------
def _counts(items: list[Judged]) -> Counter:
    return Counter(j.verdict for j in items)


def _precision(items: list[Judged]) -> tuple[float | None, int]:
    counts = _counts(items)
    decided = counts["true"] + counts["false"]
    return (counts["true"] / decided if decided else None), decided


def _row(label: str, items: list[Judged], extra: str = "") -> str:
    counts = _counts(items)
    return (
        f"{label:<34} {len(items):>8} {counts['true']:>6} {counts['false']:>6} {counts['debatable']:>10} "
        f"{counts[None]:>11}{extra}"
    )


def stub(item: Judged) -> dict:
    repository, code, path, line = item.key
    return {
        "repository": repository,
        "code": code,
        "path": path,
        "line": line,
        "severity": item.finding["severity"],
        "verdict": "?",
        "reason": item.finding["message"],
    }


@dataclass(frozen=True, slots=True)
class DefaultSet:
    """What a user sees by default: the codes on by default, judged by precision, and the hints
    (every other code), judged by the share of them that is false."""

    true: int
    decided: int
    false_hints: int
    hints: int

    @classmethod
    def of(cls, judged: list[Judged]) -> DefaultSet:
        on = _counts([j for j in judged if CODES[j.finding["code"]].on_by_default])
        hints = [j for j in judged if not CODES[j.finding["code"]].on_by_default]
        return cls(on["true"], on["true"] + on["false"], _counts(hints)["false"], len(hints))

    @property
    def precision(self) -> float | None:
        return self.true / self.decided if self.decided else None

    @property
    def false_hint_share(self) -> float:
        return self.false_hints / self.hints if self.hints else 0.0


def report(judged: list[Judged], times: dict[str, float], show_unlabelled: bool) -> None:
    header = f"{'':<34} {'findings':>8} {'true':>6} {'false':>6} {'debatable':>10} {'unlabelled':>11}"
    by_repo: dict[str, list[Judged]] = defaultdict(list)
    by_code: dict[str, list[Judged]] = defaultdict(list)
    for item in judged:
        by_repo[item.repository].append(item)
        by_code[item.finding["code"]].append(item)
    print(header + f" {'check s':>8}")
    for name in sorted(times):
        print(_row(name, by_repo[name], f" {times[name]:>8.2f}"))
    print()
    print(header + f" {'precision':>10} {'weighed':>8}  default set")
    for code in sorted(by_code):
        precision, decided = _precision(by_code[code])
        place = EarnedPlace.of((j.repository, j.verdict or "") for j in by_code[code])
        shown = f"{precision:.0%}" if precision is not None else "-"
        weighed = f"{place.weighted_precision:.0%}" if place.weighted_precision is not None else "-"
        verdict = "earned" if place.earned else f"not earned ({decided} decided in {place.repositories} repositories)"
        print(_row(code, by_code[code], f" {shown:>10} {weighed:>8}  {verdict}"))
    print(_row("all", judged))
    print()
    default = DefaultSet.of(judged)
    if default.precision is not None:
        print(
            f"precision of the codes on by default: {default.true}/{default.decided} = {default.precision:.1%} "
            f"(target >= {DEFAULT_PRECISION:.0%}: {'met' if default.precision >= DEFAULT_PRECISION else 'MISSED'})"
        )
    if default.hints:
        print(
            f"false among the hints by default: {default.false_hints}/{default.hints} = {default.false_hint_share:.1%} "
            f"(target < {FALSE_HINTS_TARGET:.0%}: {'met' if default.false_hint_share < FALSE_HINTS_TARGET else 'MISSED'})"
        )
    if times:
        print(
            f"check time: {sum(times.values()):.1f} s over {len(times)} repositories, slowest "
            f"{max(times, key=times.__getitem__)} {max(times.values()):.2f} s"
        )
    unlabelled = [j for j in judged if j.verdict is None]
    if unlabelled:
        print(f"{len(unlabelled)} finding(s) unlabelled" + ("" if show_unlabelled else " (--unlabelled prints them)"))
        if show_unlabelled:
            print(json.dumps([stub(j) for j in unlabelled], indent=2, ensure_ascii=False))


def prune(chosen: Corpus, judged: list[Judged], names: list[str] | None) -> int:
    """Drop the labels of findings judged false or debatable that are no longer reported (of the
    repositories checked); returns how many. Labels of true findings stay: losing one is recall lost."""
    labels = json.loads(chosen.labels.read_text(encoding="utf-8")) if chosen.labels.is_file() else []
    reported = {key for j in judged for key in j.keys}
    kept = [
        label
        for label in labels
        if label["verdict"] == "true" or label_key(label) in reported or (names and label["repository"] not in names)
    ]
    write_labels(chosen.labels, kept)
    return len(labels) - len(kept)


def write_labels(path: Path, labels: list[dict]) -> None:
    """One label a line, sorted, so that a change of labels reads as a diff of lines."""
    ordered = sorted(
        labels, key=lambda label: (label["repository"], label["path"], label["line"], label["code"], label["severity"])
    )
    path.write_text("[\n" + ",\n".join(json.dumps(label, ensure_ascii=False) for label in ordered) + "\n]\n", encoding="utf-8")


def write_findings(judged: list[Judged], trees: dict[str, Path], out: Path) -> None:
    """One JSON file per repository for the reviewers: where its files are, and its findings."""
    out.mkdir(parents=True, exist_ok=True)
    by_repo: dict[str, list[dict]] = defaultdict(list)
    for item in judged:
        by_repo[item.repository].append(item.finding)
    for name, tree in trees.items():
        record = {"repository": name, "files": str(tree), "findings": by_repo.get(name, [])}
        (out / f"{name}.json").write_text(json.dumps(record, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", help="repositories of the corpus (default: all)")
    parser.add_argument(
        "--corpus", action="append", choices=("shared", "dev", "test"), help="which corpus (repeatable; default: shared and dev)"
    )
    parser.add_argument("--unlabelled", action="store_true", help="print a label stub for each unjudged finding")
    parser.add_argument("--findings-out", type=Path, help="write each repository's findings as JSON into this folder")
    parser.add_argument("--keep", type=Path, help="materialise into this folder and keep it (default: a temporary one)")
    parser.add_argument("--jobs", type=int, default=2, help="checks at a time")
    parser.add_argument("--prune", action="store_true", help="drop labels of false and debatable findings no longer reported")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="lsp-agents-realworld-") as tmp:
        workdir = args.keep or Path(tmp)
        chosen_names = args.corpus or ["shared", "dev"]
        unpacked = unpack(workdir / "archive", chosen_names)
        judged: list[Judged] = []
        times: dict[str, float] = {}
        for name in chosen_names:
            chosen = corpus(name, unpacked)
            if not chosen.available():
                print(f"no corpus {name} at {chosen.repos}", file=sys.stderr)
                continue
            found, seconds, trees = corpus_findings(chosen, workdir, args.names or None, args.jobs)
            judged += found
            times.update(seconds)
            if args.findings_out:
                write_findings(found, trees, args.findings_out / name)
            if args.prune:
                print(f"{name}: {prune(chosen, found, args.names)} labels of findings no longer reported dropped")
        report(judged, times, args.unlabelled)


if __name__ == "__main__":
    main()
