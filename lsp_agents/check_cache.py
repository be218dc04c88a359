"""`check`'s result cache: an unchanged workspace is answered from the last run's output.

A run is stored under a key made of everything it was given: the command line, the working
directory, the environment (less the variables a shell changes between two commands), whether the
output is coloured, the Python running it and the installed code (every file of this package, and
the folders packages are installed in, by size and time). With the output it stores the journal of
every disk call the run made (`core.disk.Journal`: each stat, listing, read with the digest of its
bytes, real path and link test, in the workspace and outside it). A later run with the same key
makes those calls again; only when every one answers the same is the stored output printed.
Anything else, a file edited, added or removed anywhere the analysis looked, runs the check.

Not stored: a run that fetched remote instructions, one with a unit stopped at its time limit, one
whose analysis process was started again, and usage errors. The cache lives in the user's cache
folder (`$XDG_CACHE_HOME/lsp-agents/check`, else `~/.cache/...`), never in the workspace; it holds
JSON only, and at most MAX_ENTRIES runs and MAX_BYTES (the oldest go). `--no-cache` bypasses it. This module
imports little: a cached run loads neither the analysis nor the harness models.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sys

from lsp_agents.core.disk import Journal

MAX_ENTRIES = 64
MAX_BYTES = 256 * 1024 * 1024  # a 100,000-file workspace's entry is about 13 MB
FORMAT = 1  # of the stored entries: a change makes every older entry a miss
SHELL_VARIABLES = frozenset({"_", "OLDPWD", "PWD", "SHLVL"})  # changed by a shell between two commands, read by no model
PACKAGE = os.path.dirname(os.path.abspath(__file__))


class StoredRun:
    """What a run printed and its exit status (a plain class: dataclasses cost a cached run 10 ms)."""

    __slots__ = ("status", "stderr", "stdout")

    def __init__(self, stdout: str, stderr: str, status: int) -> None:
        self.stdout, self.stderr, self.status = stdout, stderr, status


def cache_folder(env: dict[str, str]) -> str:
    base = env.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "lsp-agents", "check")


def run_key(command: dict[str, object]) -> str:
    """The key of a run: what it was given (`command`: its options, colour decided), and the code that runs it."""
    given = {
        "format": FORMAT,
        "command": command,
        "cwd": os.getcwd(),
        "env": sorted((k, v) for k, v in os.environ.items() if k not in SHELL_VARIABLES),
        "python": [sys.executable, sys.version],
        "code": _installed_code(),
    }
    return hashlib.blake2b(json.dumps(given, ensure_ascii=True).encode(), digest_size=20).hexdigest()


def _installed_code() -> list[object]:
    """Every file of this package and every folder on the import path, by size and times: an
    edit of the package, or a package installed or upgraded beside it, changes the key. The
    folder holding the package itself (an editable install's source tree) is left out: its files
    are keyed one by one above, and its own time moves with anything written beside them."""
    found: list[object] = []
    folders = [PACKAGE]
    while folders:
        folder = folders.pop()
        with os.scandir(folder) as entries:
            for entry in sorted(entries, key=lambda e: e.name):
                if entry.is_dir(follow_symlinks=False):
                    if entry.name != "__pycache__":
                        folders.append(entry.path)
                elif entry.name.endswith((".py", ".toml", ".json")):
                    st = entry.stat()
                    found.append([entry.path, st.st_size, st.st_mtime_ns])
    for folder in sys.path:
        if os.path.abspath(folder or ".") == os.path.dirname(PACKAGE):
            continue
        try:
            st = os.stat(folder or ".")
        except OSError:
            continue
        found.append([folder, st.st_mtime_ns, st.st_ino])
    return found


def stored_run(folder: str, key: str) -> StoredRun | None:
    """The run stored under `key` if every disk call it made answers the same now."""
    try:
        with open(os.path.join(folder, key + ".json"), encoding="utf-8") as handle:
            entry = json.load(handle)
        journal = Journal(entry["max_read_bytes"], entry["journal"])
        run = StoredRun(entry["stdout"], entry["stderr"], entry["status"])
    except (OSError, ValueError, KeyError, TypeError):
        return None  # none stored, or not readable as one: the check runs
    return run if journal.unchanged() else None


def store_run(folder: str, key: str, journal: Journal, run: StoredRun) -> None:
    """Keep `run` under `key` (a complete journal only), atomically; then the newest MAX_ENTRIES.
    A cache folder that cannot be written only means the next run is not faster."""
    if not journal.complete:
        return
    entry = {
        "max_read_bytes": journal.max_read_bytes,
        "journal": journal.entries,
        "stdout": run.stdout,
        "stderr": run.stderr,
        "status": run.status,
    }
    import tempfile  # for storing only

    written = None
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
        with tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=folder, suffix=".tmp", delete=False) as handle:
            written = handle.name
            json.dump(entry, handle, ensure_ascii=True)
        os.replace(written, os.path.join(folder, key + ".json"))
        _prune(folder)
    except OSError:
        if written is not None:
            with contextlib.suppress(OSError):
                os.unlink(written)


def _prune(folder: str) -> None:
    """Keep the newest entries, at most MAX_ENTRIES of them and MAX_BYTES in all."""
    with os.scandir(folder) as entries:
        stats = [(entry.stat(), entry.path) for entry in entries if entry.name.endswith(".json")]
    stored = sorted(((st.st_mtime_ns, st.st_size, path) for st, path in stats), reverse=True)
    kept = 0
    for number, (_mtime, size, path) in enumerate(stored):
        kept += size
        if number >= MAX_ENTRIES or kept > MAX_BYTES:
            with contextlib.suppress(OSError):
                os.unlink(path)
