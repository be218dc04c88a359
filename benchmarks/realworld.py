"""`lsp-agents check` on the real-world corpus (../shared/realworld), judged against the labels.

For each repository of the corpus: materialise it into a temporary directory, run
`python -m lsp_agents check REPO --format json` as a subprocess with default settings and an
empty HOME, and match every finding with `tests/realworld/labels.json`, where each finding of the
corpus was judged as the maintainer of those files would judge it ("would I change something
because of this?"). Prints, per repository and per code: findings, labelled true, labelled
false, unlabelled, and the time `check` took; then precision over errors, warnings and
informations (target >= 95 %) and the share of false hints (target < 20 %).

The corpus stores some symlinks in git's plain-file form (a file holding the link target and no
newline); `restore_symlinks` turns those back into symlinks, as the corpus README describes them.

    python benchmarks/realworld.py                 # the table
    python benchmarks/realworld.py --unlabelled    # also print label stubs for unjudged findings
    python benchmarks/realworld.py adk-go qyl      # some repositories only

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
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
CORPUS = HERE.parent.parent / "shared" / "realworld"
LABELS = HERE.parent / "tests" / "realworld" / "labels.json"
SEVERITIES = ("error", "warning", "information", "hint")
PRECISION_TARGET = 0.95
FALSE_HINTS_TARGET = 0.20


@dataclass(frozen=True, slots=True)
class Judged:
    repository: str
    finding: dict
    verdict: str | None  # "true", "false", or None when unlabelled
    reason: str = ""

    @property
    def key(self) -> tuple:
        return finding_key(self.repository, self.finding)


def finding_key(repository: str, finding: dict) -> tuple:
    """What a label matches on: repository, code, path, line (1-based) and severity."""
    return repository, finding["code"], finding["path"], finding["range"]["start"]["line"] + 1, finding["severity"]


def label_key(label: dict) -> tuple:
    return label["repository"], label["code"], label["path"], label["line"], label["severity"]


def repositories(names: list[str] | None = None, corpus: Path = CORPUS) -> list[str]:
    available = sorted(p.name for p in (corpus / "repos").iterdir() if (p / "files.txt").is_file())
    return [n for n in available if not names or n in names]


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
    """Turn the corpus's plain-file symlinks of `repo` back into symlinks; returns their paths."""
    tracked = {line.rstrip("\n") for line in (source / "files.txt").read_text(encoding="utf-8", errors="surrogateescape").splitlines()}
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


def materialize(dest: Path, names: list[str], corpus: Path = CORPUS) -> dict[str, Path]:
    """Build every named repository of `corpus` under `dest` (a git work tree each); symlinks restored."""
    subprocess.run([sys.executable, str(corpus / "materialize.py"), str(dest), *names],
                   check=True, capture_output=True, text=True)
    built = {}
    for name in names:
        repo = dest / name
        if restore_symlinks(repo, corpus / "repos" / name):
            env = {**os.environ, "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull}
            subprocess.run(["git", "-C", str(repo), "add", "-A"], check=True, capture_output=True, env=env)
            subprocess.run(["git", "-C", str(repo), "-c", "user.name=corpus", "-c", "user.email=corpus@invalid",
                            "commit", "-q", "-m", "restore symlinks"], check=True, capture_output=True, env=env)
        built[name] = repo
    return built


def run_check(repo: Path, home: Path) -> tuple[list[dict], float]:
    """The findings of `lsp-agents check` (default settings) and its wall time."""
    start = time.perf_counter()
    result = subprocess.run([sys.executable, "-m", "lsp_agents", "check", str(repo), "--home", str(home),
                             "--format", "json", "--fail-on", "never"],
                            capture_output=True, text=True, env={**os.environ, "HOME": str(home)}, timeout=300)
    elapsed = time.perf_counter() - start
    if result.returncode != 0:
        raise RuntimeError(f"check failed on {repo.name} ({result.returncode}): {result.stderr.strip()}")
    return json.loads(result.stdout)["findings"], elapsed


def load_labels(path: Path = LABELS) -> dict[tuple, dict]:
    labels = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else []
    return {label_key(label): label for label in labels}


def judge(repository: str, findings: list[dict], labels: dict[tuple, dict]) -> list[Judged]:
    judged = []
    for finding in findings:
        label = labels.get(finding_key(repository, finding))
        judged.append(Judged(repository, finding, label["verdict"] if label else None, label["reason"] if label else ""))
    return judged


def corpus_findings(names: list[str] | None = None) -> tuple[list[Judged], dict[str, float]]:
    """Materialise, check and judge the corpus (or some repositories of it)."""
    labels = load_labels()
    judged: list[Judged] = []
    times: dict[str, float] = {}
    with tempfile.TemporaryDirectory(prefix="lsp-agents-realworld-") as tmp:
        home = Path(tmp) / "home"
        home.mkdir()
        for name, repo in materialize(Path(tmp) / "repos", repositories(names)).items():
            findings, times[name] = run_check(repo, home)
            judged += judge(name, findings, labels)
    return judged, times


def _row(label: str, items: list[Judged], extra: str = "") -> str:
    verdicts = Counter(j.verdict for j in items)
    return f"{label:<34} {len(items):>8} {verdicts['true']:>6} {verdicts['false']:>6} {verdicts[None]:>11}{extra}"


def stub(item: Judged) -> dict:
    repository, code, path, line, severity = item.key
    return {"repository": repository, "code": code, "path": path, "line": line, "severity": severity,
            "verdict": "?", "reason": item.finding["message"]}


def report(judged: list[Judged], times: dict[str, float], show_unlabelled: bool) -> None:
    header = f"{'':<34} {'findings':>8} {'true':>6} {'false':>6} {'unlabelled':>11}"
    by_repo: dict[str, list[Judged]] = defaultdict(list)
    by_code: dict[str, list[Judged]] = defaultdict(list)
    for item in judged:
        by_repo[item.repository].append(item)
        by_code[item.finding["code"]].append(item)
    print(header + f" {'check s':>8}")
    for name in sorted(times):
        print(_row(name, by_repo[name], f" {times[name]:>8.2f}"))
    print()
    print(header)
    for code in sorted(by_code):
        print(_row(code, by_code[code]))
    print(_row("all", judged))
    print()
    graded = [j for j in judged if j.finding["severity"] != "hint"]
    hints = [j for j in judged if j.finding["severity"] == "hint"]
    true, false = sum(j.verdict == "true" for j in graded), sum(j.verdict == "false" for j in graded)
    false_hints = sum(j.verdict == "false" for j in hints)
    if true + false:
        precision = true / (true + false)
        print(f"precision (error, warning, information): {true}/{true + false} = {precision:.1%} "
              f"(target >= {PRECISION_TARGET:.0%}: {'met' if precision >= PRECISION_TARGET else 'MISSED'})")
    if hints:
        share = false_hints / len(hints)
        print(f"false hints: {false_hints}/{len(hints)} = {share:.1%} "
              f"(target < {FALSE_HINTS_TARGET:.0%}: {'met' if share < FALSE_HINTS_TARGET else 'MISSED'})")
    print(f"check time: {sum(times.values()):.1f} s over {len(times)} repositories, slowest "
          f"{max(times, key=times.get)} {max(times.values()):.2f} s")
    unlabelled = [j for j in judged if j.verdict is None]
    if unlabelled:
        print(f"{len(unlabelled)} finding(s) unlabelled" + ("" if show_unlabelled else " (--unlabelled prints them)"))
        if show_unlabelled:
            print(json.dumps([stub(j) for j in unlabelled], indent=2, ensure_ascii=False))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", help="repositories of the corpus (default: all)")
    parser.add_argument("--unlabelled", action="store_true", help="print a label stub for each unjudged finding")
    args = parser.parse_args()
    if not (CORPUS / "repos").is_dir():
        sys.exit(f"no corpus at {CORPUS}")
    judged, times = corpus_findings(args.names or None)
    report(judged, times, args.unlabelled)


if __name__ == "__main__":
    main()
