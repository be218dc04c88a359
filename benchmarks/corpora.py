"""The real-world corpora, materialised as work trees for `lsp-agents check`.

- `shared`: ../shared/realworld (22 repositories), labels in tests/realworld/labels.json.
- `dev` and `test`: the two halves of the archives in tests/realworld/corpus/ (corpus.tar.xz: 274
  repositories in three batches; corpus-4.tar.xz: batch 4's 43; corpus-5.tar.xz: batch 5's 40;
  corpus-6.tar.xz: batch 6's 43; corpus-7.tar.xz: batch 7's 25; corpus-8.tar.xz: batch 8's 15;
  corpus-9.tar.xz: batch 9's 16; corpus-10.tar.xz: batch 10's 16; corpus-11.tar.xz: batch 11's
  16), each batch split by SPLIT.json before any change was made against it: batch 1's 114 by a hash
  of the name into 63 dev and 51 test, batches 2 (101), 3 (59), 4 (43), 5 (40) and 6 (43) all into
  test, batches 7 (25: Roo Code, Windsurf, Kiro, Auggie, Goose, Zed and Amp layouts), 8 (15: Roo Code
  mode folders and custom modes, Kiro steering), 9 (16: Roo Code mode files, rule packs and custom
  modes, Kiro steering, Windsurf rules), 10 (16: Roo Code custom-mode folders, mode files and rule
  packs beside other harnesses' files, Kiro steering) and 11 (16: Roo Code custom-mode packs and rule
  packs beside other harnesses' files; Kiro, Windsurf, OpenHands and Crush files) all into dev (151
  dev, 337 test). `test` is the held-back half: look at its findings only to score a finished change.
  Labels in tests/realworld/corpus/labels-<half>.json.

Each repository is stored as `files.txt` (every tracked path), `tree/` (the instruction-related
files with their real content, symlinks kept) and `SOURCE.json`. Materialising writes an empty
placeholder for every other tracked path, so that globs, discovery and launch directories behave
as in a real checkout, and `git init` makes it a repository root.
"""

from __future__ import annotations

import errno
import fcntl
import json
import os
import shutil
import subprocess
import tarfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
TESTS = HERE.parent / "tests" / "realworld"
# corpus.tar.xz (batches 1-3), then one archive per later batch (corpus-4.tar.xz…): a new batch adds
# its own repositories to the history, not a second copy of the others.
ARCHIVES = sorted((TESTS / "corpus").glob("corpus*.tar.xz"))
SPLIT = TESTS / "corpus" / "SPLIT.json"
SHARED = HERE.parent.parent / "shared" / "realworld"
NAMES = ("shared", "dev", "test")


@dataclass(frozen=True)
class Corpus:
    name: str
    repos: Path  # repos/<name>/{files.txt,tree,SOURCE.json}
    labels: Path
    members: tuple[str, ...]

    def available(self) -> bool:
        return self.repos.is_dir()


def corpus(name: str, unpacked: Path) -> Corpus:
    """The corpus `name`; `unpacked` is where the archive is (or will be) unpacked."""
    if name == "shared":
        repos = SHARED / "repos"
        members = tuple(sorted(p.name for p in repos.iterdir() if (p / "files.txt").is_file())) if repos.is_dir() else ()
        return Corpus(name, repos, TESTS / "labels.json", members)
    split = json.loads(SPLIT.read_text(encoding="utf-8"))
    return Corpus(name, unpacked / "repos", TESTS / "corpus" / f"labels-{name}.json", tuple(sorted(split[name])))


def unpack(dest: Path, names: Iterable[str] = ("dev", "test")) -> Path:
    """The repositories of the named halves unpacked into `dest` (each half once; the others' files
    are not written: the held-back half alone is six times the development half); returns `dest`.
    Safe to call from several processes at once: they take turns, and only the first one unpacks."""
    dest.mkdir(parents=True, exist_ok=True)
    with open(dest / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        missing = [name for name in names if name != "shared" and not (dest / f".unpacked-{name}").exists()]
        if missing:
            split = json.loads(SPLIT.read_text(encoding="utf-8"))
            _extract(dest, {repository for name in missing for repository in split[name]})
            for name in missing:
                (dest / f".unpacked-{name}").touch()
    return dest


def _extract(dest: Path, repositories: set[str]) -> None:
    def wanted(member: tarfile.TarInfo) -> bool:
        parts = Path(member.name).parts
        return len(parts) < 2 or parts[0] != "repos" or parts[1] in repositories

    for path in ARCHIVES:
        with tarfile.open(path) as archive:
            members = [m for m in archive if wanted(m)]
            archive.extractall(dest, members=members, filter="tar")  # keeps relative symlinks, refuses paths leaving dest


def materialize(source: Path, dest: Path) -> Path:
    """A work tree at `dest` for the stored repository `source`."""
    tree = source / "tree"
    if dest.exists() or dest.is_symlink():
        shutil.rmtree(dest)
    dest.mkdir(parents=True)
    stored = _stored_paths(tree)
    with open(source / "files.txt", encoding="utf-8", errors="surrogateescape") as listing:
        paths = [line.rstrip("\n") for line in listing if line.strip()]
    _placeholders(dest, (p for p in paths if p not in stored), dest.with_name(f".{dest.name}.empty"))
    for relative in sorted(stored):
        origin, target = tree / relative, dest / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        if target.is_symlink() or target.is_file():
            target.unlink()
        elif target.is_dir():
            shutil.rmtree(target)
        if origin.is_symlink():
            os.symlink(os.readlink(origin), target)
        else:
            shutil.copyfile(origin, target)
    env = {key: value for key, value in os.environ.items() if not key.startswith("GIT_")}
    subprocess.run(["git", "init", "-q", str(dest)], env=env, check=True, capture_output=True)
    return dest


def _stored_paths(tree: Path) -> set[str]:
    """Every file and symlink below tree/ ('/'-separated, relative; symlinks not followed)."""
    found: set[str] = set()
    for directory, subdirectories, files in os.walk(tree):
        relative = Path(directory).relative_to(tree)
        found.update((relative / name).as_posix() for name in files)
        found.update((relative / name).as_posix() for name in subdirectories if (Path(directory) / name).is_symlink())
    return {path.removeprefix("./") for path in found}


def _placeholders(dest: Path, paths: Iterable[str], empty: Path) -> None:
    """An empty file at each relative path below the fresh, empty `dest`: hard links to the one
    file `empty` (beside `dest`, removed at the end), since creating tens of thousands of files (the development half
    has about 130,000 placeholders) takes most of the time of materialising, and a link is far
    cheaper. Nothing below `dest` is a symlink yet, so a path stays inside when it is relative
    and has no `..`: a path that does not is left out, as is one that cannot be made (a file
    where a folder was listed)."""
    _fresh(empty)
    folders: set[str] = set()
    for relative in paths:
        if not _plain(relative):
            continue
        folder = os.path.dirname(relative)
        try:
            if folder not in folders:
                os.makedirs(dest / folder, exist_ok=True)
                folders.add(folder)
            try:
                os.link(empty, dest / relative)
            except OSError as error:
                if error.errno != errno.EMLINK:
                    raise
                _fresh(empty)  # the file system's links per file are used up: the next ones share a new file
                os.link(empty, dest / relative)
        except OSError:
            continue
    empty.unlink()


def _fresh(empty: Path) -> None:
    empty.unlink(missing_ok=True)
    empty.touch()


def _plain(relative: str) -> bool:
    return not relative.startswith("/") and all(part not in ("", ".", "..") for part in relative.split("/"))
