"""Whether a change leaves `lsp-agents check` output alone: byte for byte, on every real repository.

For a refactoring that must not change behaviour: each repository of a corpus (`corpora.py`) is
materialised once and checked by two versions of the code, `--base` (a git revision, exported
with `git archive`) and the working tree, each as `python -m lsp_agents check REPO --format json
--enable all` with an empty HOME. Prints one line per repository and exits 1 when any output
differs (the first differing line is shown).

    python benchmarks/same_output.py --base main                 # the shared corpus (22 repositories)
    python benchmarks/same_output.py --base main --corpus dev    # the dev half of the 114-repository corpus
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from corpora import NAMES, corpus, materialize, unpack
from realworld import restore_symlinks

ROOT = Path(__file__).resolve().parent.parent


def export(revision: str, dest: Path) -> Path:
    """The `lsp_agents` package of `revision`, unpacked below `dest`."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", revision, "lsp_agents"], capture_output=True, check=True).stdout
    dest.mkdir(parents=True)
    subprocess.run(["tar", "-x", "-C", str(dest)], input=archive, check=True)
    return dest


def check_output(code: Path, repo: Path, home: Path) -> bytes:
    """`check`'s JSON on `repo`, run from the package under `code` (the working directory comes
    first on `python -m`'s path, so it is `code` too)."""
    env = {**os.environ, "HOME": str(home), "PYTHONPATH": str(code)}
    result = subprocess.run(
        [sys.executable, "-m", "lsp_agents", "check", str(repo), "--format", "json", "--enable", "all"],
        capture_output=True,
        env=env,
        cwd=code,
        timeout=600,
    )
    if result.returncode not in (0, 1):
        raise RuntimeError(f"check failed on {repo.name} from {code}: {result.stderr.decode(errors='replace').strip()}")
    return result.stdout


def runs_its_own_code(code: Path) -> bool:
    """Whether a run set up as `check_output` does imports `lsp_agents` from `code`."""
    env = {**os.environ, "PYTHONPATH": str(code)}
    found = subprocess.run(
        [sys.executable, "-c", "import lsp_agents; print(lsp_agents.__file__)"],
        capture_output=True,
        text=True,
        env=env,
        cwd=code,
        check=True,
    ).stdout.strip()
    return Path(found).resolve().is_relative_to(code.resolve())


def first_difference(before: bytes, after: bytes) -> str:
    for number, (old, new) in enumerate(zip(before.splitlines(), after.splitlines(), strict=False), 1):
        if old != new:
            return f"line {number}: {old[:160]!r} -> {new[:160]!r}"
    return f"one output is longer ({len(before)} and {len(after)} bytes)"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", required=True, help="the git revision to compare the working tree with")
    parser.add_argument("--corpus", choices=NAMES, default="shared")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="lsp-agents-same-") as scratch:
        work = Path(scratch)
        home, base = work / "home", export(args.base, work / "base")
        home.mkdir()
        chosen = corpus(args.corpus, unpack(work / "corpus", [args.corpus]) if args.corpus != "shared" else work / "corpus")
        if not (runs_its_own_code(base) and runs_its_own_code(ROOT)):
            print("error: a run does not import lsp_agents from its own code", file=sys.stderr)
            return 2

        def compare(name: str) -> tuple[str, str | None]:
            repo = materialize(chosen.repos / name, work / "repos" / name)
            if chosen.name == "shared":
                restore_symlinks(repo, chosen.repos / name)
            before, after = check_output(base, repo, home), check_output(ROOT, repo, home)
            return name, None if before == after else first_difference(before, after)

        with ThreadPoolExecutor(args.jobs) as pool:
            results = list(pool.map(compare, chosen.members))
    for name, difference in results:
        print(f"{'same' if difference is None else 'DIFFERENT'}  {name}" + (f"  {difference}" if difference else ""))
    differing = sum(1 for _name, difference in results if difference is not None)
    print(
        f"{len(results) - differing} of {len(results)} repositories give byte-identical output ({args.base} and the working tree)"
    )
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())
