"""Instruction files a package publishes for its consumers: the npm manifest beside the file ships
it (package.json `files` lists it, or `exports` maps it), so it is written for the agents of the
projects that install the package, not for whoever works in this repository."""

from __future__ import annotations

import os

from lsp_agents.core.config_files import load_jsonc
from lsp_agents.core.fs import FileSystem
from lsp_agents.core.globs import GlobError, compile_patterns
from lsp_agents.core.patterns import MAX_LIST_PATTERNS, cap

MANIFEST = "package.json"


def published_with_its_package(fs: FileSystem, path: str) -> bool:
    """Whether the package.json beside `path` publishes the file."""
    manifest = load_jsonc(fs, os.path.join(os.path.dirname(path), MANIFEST)).values
    name = os.path.basename(path)
    return _listed_in_files(manifest.get("files"), name) or _mapped_in_exports(manifest.get("exports"), name)


def _listed_in_files(entries: object, name: str) -> bool:
    """Whether npm's `files` patterns (gitignore-like, relative to the package) take `name`."""
    if not isinstance(entries, list):
        return False
    patterns = [e.removeprefix("./") for e in entries if isinstance(e, str) and e and not e.startswith("!")]
    try:
        return bool(patterns) and compile_patterns(cap(patterns, MAX_LIST_PATTERNS).patterns, anchored=False)(name)
    except GlobError:
        return False


def _mapped_in_exports(exports: object, name: str) -> bool:
    """Whether an `exports` target, at any depth of its conditions, is the file."""
    if isinstance(exports, str):
        return exports.removeprefix("./") == name
    if isinstance(exports, dict):
        return any(_mapped_in_exports(target, name) for target in exports.values())
    if isinstance(exports, list):
        return any(_mapped_in_exports(target, name) for target in exports)
    return False
