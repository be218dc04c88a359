"""Which version of a harness CLI the user has installed, found without running anything.

A CLI installed globally with npm (or bun) leaves its package.json under the install prefix; this
module looks in the usual prefixes and reads the version from there. Nothing is executed and
nothing is fetched, so an install elsewhere (a local project dependency, a standalone binary)
is simply not found.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass

from lsp_agents.core.fs import FileSystem
from lsp_agents.core.model import JsonObject

MAX_PACKAGE_JSON_BYTES = 1024 * 1024
_NUMBERS = re.compile(r"\d+")


@dataclass(frozen=True, slots=True)
class Installed:
    version: str
    path: str  # the package.json it was read from

    def to_json(self, verified: str) -> JsonObject:
        return {"version": self.version, "path": self.path, "newer": is_newer(self.version, verified)}


def npm_prefixes(fs: FileSystem, home: str, env: Mapping[str, str]) -> list[str]:
    """Global `node_modules` folders, most specific first: npm's configured prefix, the common
    user prefixes, version managers (nvm, volta, fnm) and the system ones."""
    prefixes = [
        env.get("npm_config_prefix"),
        env.get("NPM_CONFIG_PREFIX"),
        os.path.join(home, ".npm-global"),
        os.path.join(home, ".local"),
        "/usr/local",
        "/usr",
        "/opt/homebrew",
    ]
    folders = [os.path.join(p, "lib", "node_modules") for p in prefixes if p]
    folders += _each_version(fs, os.path.join(home, ".nvm", "versions", "node"), "lib", "node_modules")
    fnm = os.path.join(home, ".local", "share", "fnm", "node-versions")
    folders += _each_version(fs, fnm, "installation", "lib", "node_modules")
    folders += [
        os.path.join(home, ".volta", "tools", "image", "packages"),
        os.path.join(home, ".bun", "install", "global", "node_modules"),
    ]
    return list(dict.fromkeys(folders))


def _each_version(fs: FileSystem, folder: str, *below: str) -> list[str]:
    """`folder/*/below` as a glob gives it, newest name first, through the guarded listing (the
    home directory may be a workspace's setting)."""
    return [os.path.join(folder, name, *below) for name in sorted(fs.list_dir(folder), reverse=True) if not name.startswith(".")]


def installed_version(fs: FileSystem, package: str | None, home: str, env: Mapping[str, str]) -> Installed | None:
    """The first global install of the npm `package` found, if any."""
    if not package:
        return None
    for folder in npm_prefixes(fs, home, env):
        candidates = [os.path.join(folder, package, "package.json")]
        if folder.endswith(os.path.join("image", "packages")):  # volta nests the package once more
            candidates.append(os.path.join(folder, package, "lib", "node_modules", package, "package.json"))
        for path in candidates:
            version = _version_in(fs, path)
            if version:
                return Installed(version, path)
    return None


def _version_in(fs: FileSystem, path: str) -> str | None:
    if not fs.is_file(path) or fs.size(path) > MAX_PACKAGE_JSON_BYTES:
        return None
    data = fs.read(path)
    if data.problem:
        return None
    try:
        value = json.loads(data.text()).get("version")
    except (ValueError, AttributeError, RecursionError):
        return None
    return value if isinstance(value, str) and value else None


def version_key(version: str) -> tuple[int, ...]:
    """The numeric release part of a version (`2.1.329-beta.1` → (2, 1, 329))."""
    release = version.split("-", 1)[0].split("+", 1)[0]
    return tuple(int(n) for n in _NUMBERS.findall(release))


def is_newer(installed: str, verified: str) -> bool:
    """Whether `installed` is a later release than `verified` (False when either has no numbers)."""
    a, b = version_key(installed), version_key(verified)
    return bool(a and b) and a > b
