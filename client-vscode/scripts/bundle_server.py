"""Builds `bundled/`: the lsp-agents server and its libraries, shipped inside the .vsix so that the
extension works with any CPython the bundle supports and nothing installed.

pip installs the dependencies of ../pyproject.toml once per supported CPython version, from wheels
only, for the target platform (`pip install --target --platform --python-version`, so the build
needs no other interpreter). A package whose files are the same for every version (pure Python,
or an abi3 wheel) moves to `libs/any`; the compiled rest stays in `libs/cpXY`. lsp_agents itself
is copied from the source tree, with the launcher and a manifest the launcher checks. The build
fails when a compiled module is not for the target platform (read from its header).

Usage: python3 scripts/bundle_server.py [--target linux-x64|...|all] [--out bundled]   (targets: TARGETS)
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
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

CLIENT = Path(__file__).resolve().parents[1]
REPO = CLIENT.parent
PYTHONS = ("3.11", "3.12", "3.13", "3.14")
GLIBC = "2.28"  # python-rapidjson's wheels are manylinux_2_28
# google-re2 publishes macOS wheels for macOS 13 only (VS Code itself runs on 11); pip takes wheels
# for older macOS versions too.
MACOS = "macosx_13_0"


def _manylinux(machine: str) -> list[str]:
    """pip does not widen an explicit --platform to older glibc versions by itself."""
    return [f"manylinux_2_{minor}_{machine}" for minor in range(28, 16, -1)] + [f"manylinux2014_{machine}"]


# VS Code target → (platform.system().lower(), the machine as the launcher names it, the wheel
# platform tags pip may take). No win32-arm64: PyYAML and python-rapidjson have no wheels for it.
TARGETS = {
    "linux-x64": ("linux", "x86_64", _manylinux("x86_64")),
    "linux-arm64": ("linux", "aarch64", _manylinux("aarch64")),
    "darwin-x64": ("darwin", "x86_64", [f"{MACOS}_x86_64"]),
    "darwin-arm64": ("darwin", "aarch64", [f"{MACOS}_arm64"]),
    "win32-x64": ("windows", "x86_64", ["win_amd64"]),
}
# How the header of a compiled module names its machine: ELF e_machine, Mach-O CPU type, PE
# machine (read by `platforms_of`).
_ELF = {"x86_64": 62, "aarch64": 183}
_MACHO_CPU = {"x86_64": 0x01000007, "aarch64": 0x0100000C}
_PE = {"x86_64": 0x8664}


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


def strip_binaries(libs: Path, system: str, machine: str) -> None:
    """Drops the symbols of the compiled libraries (half the size of the .vsix) when the host's
    `strip` handles the target's machine code; otherwise they are shipped as the wheels have them."""
    strip = shutil.which("strip")
    host = (platform.system().lower(), platform.machine().lower())
    if strip is None or host != (system, machine) or system != "linux":
        print(f"not stripping the compiled libraries ({'no strip' if strip is None else 'strip is for another platform'})")
        return
    for library in libs.rglob("*.so"):
        subprocess.run([strip, "--strip-unneeded", str(library)], check=True)


def platforms_of(binary: bytes) -> set[tuple[str, str]]:
    """The (system, machine) pairs a compiled module runs on, from its header (a universal
    macOS binary holds several); empty when the format is unknown."""
    def named(system: str, codes: dict[str, int], code: int) -> set[tuple[str, str]]:
        return {(system, machine) for machine, known in codes.items() if known == code}

    if binary[:4] == b"\x7fELF":
        return named("linux", _ELF, int.from_bytes(binary[18:20], "little" if binary[5] == 1 else "big"))
    if binary[:4] == b"\xcf\xfa\xed\xfe":  # 64-bit Mach-O, little-endian
        return named("darwin", _MACHO_CPU, int.from_bytes(binary[4:8], "little"))
    if binary[:4] == b"\xca\xfe\xba\xbe":  # universal Mach-O: a count, then 20 bytes per architecture
        count = int.from_bytes(binary[4:8], "big")
        return set().union(*(named("darwin", _MACHO_CPU, int.from_bytes(binary[8 + 20 * i:12 + 20 * i], "big"))
                             for i in range(min(count, 8))))
    if binary[:2] == b"MZ":
        pe = int.from_bytes(binary[0x3C:0x40], "little")
        if binary[pe:pe + 4] == b"PE\0\0":
            return named("windows", _PE, int.from_bytes(binary[pe + 4:pe + 6], "little"))
    return set()


def wrong_binaries(libs: Path, system: str, machine: str) -> list[str]:
    """The compiled modules under `libs` that do not run on (system, machine)."""
    suffix = ".pyd" if system == "windows" else ".so"
    found = sorted(libs.rglob(f"*{suffix}"))
    if not found:
        return [f"no compiled module ({suffix}) at all"]
    headers = {path: _header(path) for path in found}
    return [f"{path.relative_to(libs)}: {sorted(platforms_of(header)) or 'unknown format'}"
            for path, header in headers.items() if (system, machine) not in platforms_of(header)]


def _header(path: Path) -> bytes:
    """The first 4 KiB of a file: where every format above names its machine."""
    with path.open("rb") as handle:
        return handle.read(4096)


def manifest(target: str) -> dict:
    """What the launcher checks before it runs the bundle (python/launch.py)."""
    system, machine, _tags = TARGETS[target]
    return {"version": version(), "target": target, "system": system, "machine": machine, "pythons": list(PYTHONS),
            **({"glibc": GLIBC} if system == "linux" else {}),
            **({"macos": MACOS.removeprefix("macosx_").replace("_", ".")} if system == "darwin" else {})}


def build(target: str, out: Path) -> None:
    system, machine, platform_tags = TARGETS[target]
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    with tempfile.TemporaryDirectory() as scratch:
        installed = {python: Path(scratch) / python for python in PYTHONS}
        # One pip per CPython version, side by side: most of each one's time is spent waiting on
        # the index and the downloads.
        with ThreadPoolExecutor(len(PYTHONS)) as pool:
            list(pool.map(lambda python: install(python, platform_tags, installed[python]), PYTHONS))
        split_shared(installed, out / "libs")
    strip_binaries(out / "libs", system, machine)
    wrong = wrong_binaries(out / "libs", system, machine)
    if wrong:
        sys.exit(f"bundle for {target}: compiled modules for another platform: {'; '.join(wrong)}")
    shutil.copytree(REPO / "lsp_agents", out / "lsp_agents", ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    shutil.copy(CLIENT / "python" / "launch.py", out / "launch.py")
    (out / "manifest.json").write_text(json.dumps(manifest(target), indent=2) + "\n", encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--target", choices=[*sorted(TARGETS), "all"], default="linux-x64",
                        help="all: every target, each into OUT/<target> (a check that each builds)")
    parser.add_argument("--out", type=Path, default=CLIENT / "bundled")
    args = parser.parse_args()
    outs = {target: args.out / target for target in TARGETS} if args.target == "all" else {args.target: args.out}

    def bundle(target: str) -> str:
        build(target, outs[target])
        size = sum(p.stat().st_size for p in outs[target].rglob("*") if p.is_file())
        return f"bundled the server for {target} (CPython {', '.join(PYTHONS)}): {size / 2**20:.1f} MiB in {outs[target]}"

    # Two targets at a time (each runs its pip installs side by side too).
    with ThreadPoolExecutor(2) as pool:
        for line in pool.map(bundle, outs):
            print(line, flush=True)


if __name__ == "__main__":
    main()
