"""Quick fixes that lose text: apply every fix `lsp-agents check` offers, one at a time, and look for the lines it removed.

For each repository of the real-world corpora (`benchmarks/corpora.py`; by default the shared one
and the dev half): materialise it, run `check --format json`
with an empty HOME, and apply each offered fix alone to an in-memory copy of the repository's
files. A line the fix removed is lost when its normalised text (`normalise`: the form duplicates
are compared in, line by line) is in no file of the repository after the fix. A fix that
deletes a duplicate only removes text another copy still holds; one that loses a line deleted
an instruction the user wrote once. Prints per repository the fixes offered and those that lose
text, then each losing fix with its lost lines.

    python benchmarks/fix_safety.py                          # the shared corpus and the dev half
    python benchmarks/fix_safety.py --corpus test            # the held-back half, when scoring
    python benchmarks/fix_safety.py chainlit lefthook        # some repositories only

`tests/realworld/test_realworld.py` runs the same audit on the corpora, and
`tests/analysis/test_fix_safety.py` on generated workspaces.
"""

from __future__ import annotations

import argparse
import difflib
import os
import re
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from corpora import corpus, unpack
from realworld import corpus_findings

_LIST_MARKER = re.compile(r"^\s*(?:[-*+]|\d{1,9}[.)])\s+")
_EMPHASIS = re.compile(r"[*_~`]+")


def normalise(line: str) -> str:
    """Lower case, no list marker, no emphasis or code marks, single spaces: the duplicate
    detection's normal form, applied to one line."""
    return " ".join(_EMPHASIS.sub("", _LIST_MARKER.sub("", line, count=1)).lower().split())


@dataclass(frozen=True, slots=True)
class Audit:
    """One offered fix and the lines it would lose ("path: text"), none when it is safe."""

    finding: dict
    lost: tuple[str, ...]


class Files:
    """A repository's files as text (decoded as the analysis decodes them), by '/'-separated
    path, with its symlinks: a fix is applied here, never to the repository itself."""

    def __init__(self, root: Path) -> None:
        self.root = root.resolve()
        self.text: dict[str, str] = {}
        for dirpath, _dirnames, filenames in os.walk(self.root):
            if ".git" in Path(dirpath).relative_to(self.root).parts:
                continue
            for name in filenames:
                path = Path(dirpath) / name
                if not path.is_symlink():
                    self.text[path.relative_to(self.root).as_posix()] = path.read_bytes().decode("utf-8", errors="replace")
        self._holders: Counter[str] | None = None

    def copy(self) -> Files:
        other = object.__new__(Files)
        other.root, other.text, other._holders = self.root, dict(self.text), None
        return other

    def real(self, path: str) -> str:
        """The file `path` (root-relative, maybe through symlinks) stands for: an edit of a link edits its target."""
        resolved = Path(os.path.realpath(self.root / path))
        return resolved.relative_to(self.root).as_posix() if resolved.is_relative_to(self.root) else path

    def apply(self, fix: dict) -> None:
        """The fix's edits (ranges in code points of '\\n'-separated lines, as `check` reports them),
        then its rename; a rename onto an existing file replaces it, as a careless client would."""
        edits: dict[str, list[dict]] = {}
        for edit in fix["edits"]:
            edits.setdefault(self.real(edit["path"]), []).append(edit)
        for path, file_edits in edits.items():
            self.text[path] = _edited(self.text.get(path, ""), file_edits)
        if fix.get("renameFrom") and fix.get("renameTo"):
            self.text[fix["renameTo"]] = self.text.pop(self.real(fix["renameFrom"]), "")

    def holders(self) -> Counter[str]:
        """Normalised line -> how many files hold it (counted once: a fix changes one or two files)."""
        if self._holders is None:
            self._holders = Counter(line for text in self.text.values() for line in _normalised_lines(text))
        return self._holders


def _normalised_lines(text: str) -> set[str]:
    return {normalise(line) for line in text.split("\n")}


def _edited(text: str, edits: list[dict]) -> str:
    starts = [0]
    for line in text.split("\n"):
        starts.append(starts[-1] + len(line) + 1)

    def offset(position: dict) -> int:
        return min(starts[min(position["line"], len(starts) - 1)] + position["character"], len(text))

    for edit in sorted(edits, key=lambda e: offset(e["range"]["start"]), reverse=True):
        text = text[: offset(edit["range"]["start"])] + edit["newText"] + text[offset(edit["range"]["end"]) :]
    return text


def removed_lines(before: Files, after: Files) -> list[tuple[str, str]]:
    """(path, line) for each line of `before` that the diff of its file with `after` removes."""
    removed = []
    for path, text in before.text.items():
        new = after.text.get(path)
        if new == text:
            continue
        old_lines, new_lines = text.split("\n"), (new or "").split("\n")
        matcher = difflib.SequenceMatcher(None, old_lines, new_lines, autojunk=False)
        for tag, i1, i2, _j1, _j2 in matcher.get_opcodes():
            if tag in ("delete", "replace"):
                removed += [(path, line) for line in old_lines[i1:i2]]
    return removed


def lost_lines(files: Files, fix: dict) -> tuple[str, ...]:
    """The lines `fix` removes whose normalised text no file holds once it is applied."""
    after = files.copy()
    after.apply(fix)
    changed = [path for path in files.text.keys() | after.text.keys() if files.text.get(path) != after.text.get(path)]
    before_sets = [_normalised_lines(files.text[path]) for path in changed if path in files.text]
    after_sets = [_normalised_lines(after.text[path]) for path in changed if path in after.text]

    def held(line: str) -> bool:
        unchanged = files.holders()[line] - sum(line in lines for lines in before_sets)
        return unchanged > 0 or any(line in lines for lines in after_sets)

    return tuple(
        f"{path}: {line.strip()}" for path, line in removed_lines(files, after) if normalise(line) and not held(normalise(line))
    )


def audit(findings: list[dict], files: Files) -> list[Audit]:
    """Every offered fix of `findings`, each applied alone to a copy of `files`."""
    return [Audit(f, lost_lines(files, f["fix"])) for f in findings if f.get("fix")]


def audit_corpora(names: list[str], repositories: list[str] | None = None) -> dict[str, list[Audit]]:
    """The audits of every repository of the named corpora (or the named repositories)."""
    audits: dict[str, list[Audit]] = {}
    with tempfile.TemporaryDirectory(prefix="lsp-agents-fixes-") as tmp:
        unpacked = unpack(Path(tmp) / "archive", names)
        for name in names:
            chosen = corpus(name, unpacked)
            if not chosen.available():
                continue
            judged, _times, trees = corpus_findings(chosen, Path(tmp), repositories)
            for repository, tree in trees.items():
                findings = [j.finding for j in judged if j.repository == repository]
                audits[repository] = audit(findings, Files(tree))
    return audits


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", help="repositories of the corpora (default: all)")
    parser.add_argument(
        "--corpus", action="append", choices=("shared", "dev", "test"), help="which corpus (repeatable; default: shared and dev)"
    )
    args = parser.parse_args()
    audits = audit_corpora(args.corpus or ["shared", "dev"], args.names or None)
    print(f"{'':<34} {'fixes':>6} {'losing':>7}")
    for name, items in sorted(audits.items()):
        print(f"{name:<34} {len(items):>6} {sum(bool(a.lost) for a in items):>7}")
    every = [a for items in audits.values() for a in items]
    print(f"{'all':<34} {len(every):>6} {sum(bool(a.lost) for a in every):>7}")
    for name, items in sorted(audits.items()):
        for item in (a for a in items if a.lost):
            finding = item.finding
            print(
                f"\n{name}: {finding['path']}:{finding['range']['start']['line'] + 1} {finding['code']}: "
                f"{finding['fix']['title']} loses {len(item.lost)} line(s):"
            )
            print("\n".join(f"    {line[:140]}" for line in item.lost))


if __name__ == "__main__":
    main()
