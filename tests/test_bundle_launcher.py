"""The launcher of the server bundled in the VS Code extension accepts the machines each bundle
target is built for, as those machines describe themselves, and refuses the others with a reason."""

from __future__ import annotations

import importlib.util
import platform
import sys
from pathlib import Path
from types import ModuleType

import pytest

CLIENT = Path(__file__).resolve().parents[1] / "client-vscode"

# How `platform` describes a host of each bundle target (Windows says AMD64, macOS arm64): system,
# machine, libc_ver(), mac_ver()[0].
HOSTS = {
    "linux-x64": ("Linux", "x86_64", ("glibc", "2.36"), ""),
    "linux-arm64": ("Linux", "aarch64", ("glibc", "2.31"), ""),
    "darwin-x64": ("Darwin", "x86_64", ("", ""), "13.6.1"),
    "darwin-arm64": ("Darwin", "arm64", ("", ""), "14.5"),
    "win32-x64": ("Windows", "AMD64", ("", ""), ""),
}


def load(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[path.stem] = module  # dataclasses and the like look their module up
    spec.loader.exec_module(module)
    return module


launcher = load(CLIENT / "python" / "launch.py")
bundler = load(CLIENT / "scripts" / "bundle_server.py")


def host(monkeypatch: pytest.MonkeyPatch, target: str) -> None:
    system, machine, libc, macos = HOSTS[target]
    monkeypatch.setattr(platform, "system", lambda: system)
    monkeypatch.setattr(platform, "machine", lambda: machine)
    monkeypatch.setattr(platform, "libc_ver", lambda: libc)
    monkeypatch.setattr(platform, "mac_ver", lambda: (macos, ("", "", ""), machine if macos else ""))


def test_every_target_has_a_host() -> None:
    assert set(HOSTS) == set(bundler.TARGETS)


@pytest.mark.parametrize("target", sorted(HOSTS))
def test_the_bundle_runs_on_its_own_platform_only(monkeypatch: pytest.MonkeyPatch, target: str) -> None:
    host(monkeypatch, target)
    assert launcher.problem(bundler.manifest(target)) is None
    for other in set(HOSTS) - {target}:
        assert "the bundled libraries are built for" in launcher.problem(bundler.manifest(other))


def test_an_old_or_other_c_library_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    host(monkeypatch, "linux-x64")
    monkeypatch.setattr(platform, "libc_ver", lambda: ("glibc", "2.17"))
    assert "need glibc 2.28 or later" in launcher.problem(bundler.manifest("linux-x64"))
    monkeypatch.setattr(platform, "libc_ver", lambda: ("", ""))
    assert "not glibc" in launcher.problem(bundler.manifest("linux-x64"))


def test_a_macos_older_than_the_wheels_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """google-re2's macOS wheels are built for macOS 13."""
    host(monkeypatch, "darwin-arm64")
    monkeypatch.setattr(platform, "mac_ver", lambda: ("12.7.4", ("", "", ""), "arm64"))
    assert "need macOS 13.0 or later" in launcher.problem(bundler.manifest("darwin-arm64"))
    monkeypatch.setattr(platform, "mac_ver", lambda: ("", ("", "", ""), ""))  # unknown: let it try
    assert launcher.problem(bundler.manifest("darwin-arm64")) is None
