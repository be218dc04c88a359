"""Starts the lsp-agents server bundled with the VS Code extension.

The extension carries lsp_agents and every library it needs, the compiled ones once per CPython
version (`libs/cp311`…), the others once (`libs/any`). Run isolated, `python -I -S launch.py
serve`: no site-packages, user site or PYTHON* variables, so nothing installed on the machine can
shadow a bundled module. `launch.py --check` prints, as JSON, whether this interpreter can run
the bundle (the extension asks before it starts the server, and says why not).
"""

from __future__ import annotations

import json
import os
import platform
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def _manifest() -> dict:
    with open(os.path.join(HERE, "manifest.json"), encoding="utf-8") as handle:
        return json.load(handle)


def problem(manifest: dict) -> str | None:
    """Why this interpreter cannot run the bundle, or None."""
    version = "%d.%d" % sys.version_info[:2]
    if sys.implementation.name != "cpython":
        return f"{platform.python_implementation()} is not CPython, which the bundled libraries are built for"
    if version not in manifest["pythons"]:
        return f"Python {version}; the bundled server runs on Python {', '.join(manifest['pythons'])}"
    system, machine = platform.system().lower(), platform.machine().lower()
    machine = {"amd64": "x86_64", "arm64": "aarch64"}.get(machine, machine)
    if (system, machine) != (manifest["system"], manifest["machine"]):
        return f"this is {system}-{machine}; the bundled libraries are built for {manifest['system']}-{manifest['machine']}"
    if system == "linux":
        libc, libc_version = platform.libc_ver()
        wanted = manifest["glibc"]
        if libc != "glibc" or tuple(map(int, libc_version.split(".")[:2])) < tuple(map(int, wanted.split("."))):
            return f"the C library is {libc or 'not glibc'} {libc_version}; the bundled libraries need glibc {wanted} or later"
    if system == "darwin":
        release, wanted = platform.mac_ver()[0], manifest["macos"]
        if _version(release) and _version(release) < _version(wanted):  # an unknown version may do
            return f"this is macOS {release}; the bundled libraries need macOS {wanted} or later"
    return None


def _version(text: str) -> tuple[int, ...]:
    """'13.4.1' -> (13, 4, 1); () when it is no version."""
    try:
        return tuple(int(part) for part in text.split("."))
    except ValueError:
        return ()


def main() -> None:
    manifest = _manifest()
    found = problem(manifest)
    if sys.argv[1:] == ["--check"]:
        print(json.dumps({"ok": found is None, "python": platform.python_version(), "executable": sys.executable,
                          "problem": found, "version": manifest["version"]}))
        return
    if found is not None:
        sys.exit(f"lsp-agents: the bundled server cannot run here: {found}")
    compiled = "cp%d%d" % sys.version_info[:2]
    sys.path[:0] = [HERE, os.path.join(HERE, "libs", "any"), os.path.join(HERE, "libs", compiled)]
    from lsp_agents.cli import run

    sys.argv = ["lsp-agents", *sys.argv[1:]]
    run()


if __name__ == "__main__":
    main()
