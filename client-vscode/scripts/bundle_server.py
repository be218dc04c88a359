"""Builds `bundled/`: the lsp-agents server and its libraries, shipped inside the .vsix so that the
extension works with any CPython the bundle supports and nothing installed.

pip installs the dependencies of ../pyproject.toml once per supported CPython version, from wheels
only, for the target platform (`pip install --target --platform --python-version`, so the build
needs no other interpreter). A package whose files are the same for every version (pure Python,
or an abi3 wheel) moves to `libs/any`; the compiled rest stays in `libs/cpXY`. lsp_agents itself
is copied from the source tree, with the launcher and a manifest the launcher checks.

Usage: python3 scripts/bundle_server.py [--target linux-x64] [--out bundled]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

CLIENT = Path(__file__).resolve().parents[1]
REPO = CLIENT.parent
PYTHONS = ("3.11", "3.12", "3.13", "3.14")
GLIBC = "2.28"  # python-rapidjson's wheels are manylinux_2_28
# VS Code target → (platform.system(), platform.machine(), the manylinux tags pip may take; pip
# does not widen an explicit --platform to older glibc versions by itself)
TARGETS = {
    target: ("linux", machine, [f"manylinux_2_{minor}_{machine}" for minor in range(28, 16, -1)] + [f"manylinux2014_{machine}"])
    for target, machine in (("linux-x64", "x86_64"), ("linux-arm64", "aarch64"))
}


def dependencies() -> list[str]:
    return tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]["dependencies"]


def version() -> str:
    namespace: dict = {}
    exec((REPO / "lsp_agents" / "__init__.py").read_text(encoding="utf-8"), namespace)
    return namespace["__version__"]


def install(python: str, platform_tags: list[str], into: Path) -> None:
    platforms = [arg for tag in platform_tags for arg in ("--platform", tag)]
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-compile",
                    "--no-warn-script-location", "--only-binary=:all:", "--implementation", "cp",
                    "--python-version", python, *platforms, "--target", str(into), *dependencies()],
                   check=True)
    shutil.rmtree(into / "bin", ignore_errors=True)


def digest(path: Path) -> str:
    hashed = hashlib.sha256()
    files = [path] if path.is_file() else sorted(p for p in path.rglob("*") if p.is_file())
    for file in files:
        hashed.update(str(file.relative_to(path.parent)).encode() + b"\0" + file.read_bytes())
    return hashed.hexdigest()


def split_shared(installed: dict[str, Path], libs: Path) -> None:
    """Top-level entries equal in every version's install go to libs/any, the rest to libs/cpXY."""
    shared = libs / "any"
    shared.mkdir(parents=True)
    common = set.intersection(*(set(os.listdir(d)) for d in installed.values()))
    for name in sorted(common):
        if len({digest(d / name) for d in installed.values()}) == 1:
            shutil.move(str(next(iter(installed.values())) / name), shared / name)
            for other in list(installed.values())[1:]:
                shutil.rmtree(other / name) if (other / name).is_dir() else (other / name).unlink()
    for python, directory in installed.items():
        shutil.move(str(directory), libs / ("cp" + python.replace(".", "")))


def strip_binaries(libs: Path, machine: str) -> None:
    """Drops the symbols of the compiled libraries (half the size of the .vsix) when the host's
    `strip` handles the target's machine code; otherwise they are shipped as the wheels have them."""
    strip = shutil.which("strip")
    if strip is None or platform.machine().lower() != machine:
        print(f"not stripping the compiled libraries (strip {'missing' if strip is None else 'is for another machine'})")
        return
    for library in libs.rglob("*.so"):
        subprocess.run([strip, "--strip-unneeded", str(library)], check=True)


def build(target: str, out: Path) -> None:
    system, machine, platform_tags = TARGETS[target]
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    with tempfile.TemporaryDirectory() as scratch:
        installed = {}
        for python in PYTHONS:
            installed[python] = Path(scratch) / python
            install(python, platform_tags, installed[python])
        split_shared(installed, out / "libs")
    strip_binaries(out / "libs", machine)
    shutil.copytree(REPO / "lsp_agents", out / "lsp_agents", ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    shutil.copy(CLIENT / "python" / "launch.py", out / "launch.py")
    manifest = {"version": version(), "target": target, "system": system, "machine": machine, "glibc": GLIBC,
                "pythons": list(PYTHONS)}
    (out / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--target", choices=sorted(TARGETS), default="linux-x64")
    parser.add_argument("--out", type=Path, default=CLIENT / "bundled")
    args = parser.parse_args()
    build(args.target, args.out)
    size = sum(p.stat().st_size for p in args.out.rglob("*") if p.is_file())
    print(f"bundled the server for {args.target} (CPython {', '.join(PYTHONS)}): {size / 2**20:.1f} MiB in {args.out}")


if __name__ == "__main__":
    main()
