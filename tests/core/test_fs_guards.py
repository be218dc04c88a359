"""Paths a workspace chooses, through the guarded file system: never an exception, never a read
in /proc, /sys or /dev, and real paths exactly as os.path.realpath gives them elsewhere."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from lsp_agents.core import fs as fs_module
from lsp_agents.core.analysis import Analyzer
from lsp_agents.core.compose import prompt_result
from lsp_agents.core.fs import FileSystem
from lsp_agents.core.harnesses import HARNESSES, LaunchContext
from lsp_agents.core.model import Reason
from lsp_agents.core.real_paths import is_system_path, real_path
from lsp_agents.core.settings import Settings
from lsp_agents.core.versions import installed_version
from lsp_agents.core.workspace import WorkspaceIndex

SYSTEM_ROOTS = ("/proc", "/sys", "/dev")


@pytest.fixture
def zoo(tmp_path: Path, monkeypatch) -> Path:
    """Symlinks of every shape os.path.realpath has to resolve: relative and absolute, to files
    and folders, with `..` inside and after them, chained, dangling, looping."""
    root = Path(os.path.realpath(tmp_path))
    (root / "a" / "b").mkdir(parents=True)
    (root / "a" / "b" / "f.md").write_text("x\n")
    links = {
        "rel": "a/b",
        "abs": str(root / "a" / "b"),
        "up": "a/b/..",
        "a/b/parent": "..",
        "dangling": "nowhere/x",
        "loop1": "loop2",
        "loop2": "loop1",
        "self": "self",
        "c1": "c2",
        "c2": "c3",
        "c3": "a",
        "flink": "a/b/f.md",
        "a/b/back": "../../rel",
    }
    for link, target in links.items():
        os.symlink(target, root / link)
    monkeypatch.chdir(root)
    return root


RELATIVE = [
    "rel/f.md",
    "rel/../b/f.md",
    "abs/f.md",
    "up/b",
    "a/b/parent/b/f.md",
    "a/b/back/f.md",
    "dangling",
    "dangling/more",
    "loop1",
    "loop1/x",
    "self/x",
    "c1/b/f.md",
    "c1/../a",
    "flink",
    "flink/x",
    "missing/../a",
    "./a//b/./f.md",
    "a/b/f.md",
    "a/b/../../rel/..",
    ".",
    "..",
    "rel/parent/parent/c1",
]


def test_real_paths_are_os_realpath_outside_system_folders(zoo: Path) -> None:
    cached = FileSystem()
    for written in RELATIVE:
        for path in (written, str(zoo / written)):
            assert real_path(path) == os.path.realpath(path), path
    for path in [str(zoo / p) for p in RELATIVE] * 2:  # the directory cache answers the second round
        assert cached.realpath(path) == os.path.realpath(path), path


def test_real_paths_stop_at_system_folders_without_reading_them(zoo: Path, monkeypatch) -> None:
    os.symlink("/proc/1/root", zoo / "chain3")
    os.symlink("chain3", zoo / "chain")
    os.symlink("/proc/self/root", zoo / "rootlink")
    examined: list[str] = []
    readlink = os.readlink
    monkeypatch.setattr(os, "readlink", lambda path, *a, **k: examined.append(os.fspath(path)) or readlink(path, *a, **k))
    cases = {
        "/proc/1/root/etc/hostname": "/proc/1/root/etc/hostname",
        "/proc/1/root/../../../etc/shadow": "/proc/1/root/../../../etc/shadow",  # the kernel climbs elsewhere
        str(zoo / "chain" / "etc" / "hostname"): "/proc/1/root/etc/hostname",
        str(zoo / "rootlink" / "etc" / "hostname"): "/proc/self/root/etc/hostname",
        "/proc/self/fd/0": "/proc/self/fd/0",
        "/dev/stdin": "/dev/stdin",
        "/sys/kernel": "/sys/kernel",
    }
    for path, expected in cases.items():
        assert real_path(path) == expected
        assert is_system_path(expected)
    assert examined and not [p for p in examined if p.startswith(SYSTEM_ROOTS)], examined


def test_paths_no_system_call_takes_are_taken_as_written(zoo: Path) -> None:
    previous = "a/b/f.md"
    for number in range(1_200):  # os.path.realpath raises RecursionError on this chain
        os.symlink(previous, zoo / f"l{number}")
        previous = f"l{number}"
    assert real_path(str(zoo / previous)).startswith(str(zoo / "l"))
    assert real_path(str(zoo / "l30")) == str(zoo / "a" / "b" / "f.md")
    assert real_path(str(zoo / "nul\0byte.md")) == str(zoo / "nul\0byte.md")
    long = str(zoo / ("x" * 5_000) / "f.md")
    assert real_path(long) == long


def test_every_file_system_call_answers_a_hostile_path(zoo: Path) -> None:
    os.symlink("/proc/self/environ", zoo / "environ.md")
    os.symlink("/proc/1/root", zoo / "chain")
    os.symlink("/proc/self/root", zoo / "rootlink")
    secret = zoo / "a" / "b" / "f.md"
    fs = FileSystem()
    problems = {
        "/proc/self/environ": Reason.SYSTEM_FILE,
        str(zoo / "environ.md"): Reason.SYSTEM_FILE,
        f"/proc/self/root{secret}": Reason.SYSTEM_FILE,
        f"{zoo}/rootlink{secret}": Reason.SYSTEM_FILE,
        "/proc/self/fd/0": (Reason.NOT_REGULAR_FILE, Reason.SYSTEM_FILE, Reason.MISSING),  # whatever stdin is
        "/dev/zero": Reason.NOT_REGULAR_FILE,
        "/sys/kernel": Reason.NOT_REGULAR_FILE,
        "/proc/1/root/etc/hostname": (Reason.PERMISSION_DENIED, Reason.SYSTEM_FILE),  # denied unless pid 1 may be traced
        str(zoo / "chain" / "etc" / "hostname"): (Reason.PERMISSION_DENIED, Reason.SYSTEM_FILE),
        str(zoo / "nul\0byte.md"): Reason.MISSING,
        str(zoo / ("x" * 5_000)): Reason.UNREADABLE,
        str(zoo / "flink" / "x"): Reason.MISSING,
        str(zoo / "loop1"): Reason.SYMLINK_LOOP,
    }
    for path, expected in problems.items():
        fs.exists(path), fs.is_file(path), fs.is_dir(path), fs.size(path), fs.identity(path), fs.realpath(path)
        assert fs.read(path).problem in (expected if isinstance(expected, tuple) else (expected,)), path
        assert fs.read(path).data is None
        assert fs.list_dir(path) == () and fs.scan_dir(path) == []
    for folder in ("/proc/self", "/sys", "/dev", f"{zoo}/rootlink{zoo}", f"/proc/self/root{zoo}"):
        assert fs.is_dir(folder) and fs.list_dir(folder) == () and fs.scan_dir(folder) == [], folder
    assert "f.md" in fs.list_dir(str(zoo / "rel"))


def test_the_analysis_survives_links_it_may_not_read(tmp_path: Path, monkeypatch) -> None:
    """Where pid 1 may be traced, /proc/1/root does not refuse: the refusal is simulated on a link
    of the workspace, for every call that takes it (os.path.realpath included, which raised)."""
    ws, home = Path(os.path.realpath(tmp_path)) / "ws", tmp_path / "home"
    (ws / ".git").mkdir(parents=True)
    home.mkdir()
    (tmp_path / "elsewhere" / "etc").mkdir(parents=True)
    (tmp_path / "elsewhere" / "etc" / "hostname").write_text("HOSTNAME-MARKER\n")
    os.symlink(tmp_path / "elsewhere", ws / "root")
    for name in ("GEMINI.md", "CLAUDE.md", "QWEN.md", "AGENTS.md"):
        (ws / name).write_text(f"# {name}\n\n- Keep it short.\n\n@root/etc/hostname\n@/proc/1/root/etc/hostname\n")
    denied = str(ws / "root")

    def refuse(call):
        def guarded(path, *args, **kwargs):
            if os.fspath(path) == denied or os.fspath(path).startswith((denied + "/", "/proc/1/root")):
                raise PermissionError(13, "Permission denied", denied)
            return call(path, *args, **kwargs)

        return guarded

    for module, name in ((os, "readlink"), (os, "stat"), (os, "lstat"), (os, "scandir"), (os, "open"), (os.path, "realpath")):
        monkeypatch.setattr(module, name, refuse(getattr(module, name)))
    index = WorkspaceIndex(str(ws), FileSystem())
    index.scan()
    analyzer = Analyzer(index, Settings(harnesses=list(HARNESSES)), home=str(home), env={})
    found = analyzer.analyse_all()
    codes = {(Path(path).name, f.code, f.span.start_line) for path, items in found.items() for f in items}
    assert {(name, "import-not-found", 4) for name in ("CLAUDE.md", "GEMINI.md", "QWEN.md")} <= codes
    assert {("CLAUDE.md", "import-outside-workspace", 5), ("GEMINI.md", "import-outside-workspace", 5)} <= codes
    for harness in HARNESSES.values():
        ctx = LaunchContext(cwd=str(ws), home=str(home), fs=FileSystem(), env={})
        result, _warnings = prompt_result(harness, ctx, layers=True)
        assert "HOSTNAME-MARKER" not in str(result)
    assert fs_module.real_path(str(ws / "root" / "etc" / "hostname")) == str(ws / "root" / "etc" / "hostname")


def test_installed_versions_are_found_in_version_managers_but_never_through_proc(tmp_path: Path) -> None:
    """The home directory may be a workspace's setting (`home` in lsp-agents.toml): the version
    managers' folders under it are listed through the guarded listing."""
    home = Path(os.path.realpath(tmp_path)) / "home"
    for node, version in (("v18.0.0", "1.0.0"), ("v20.1.0", "2.0.0"), (".v99", "9.0.0")):
        package = home / ".nvm" / "versions" / "node" / node / "lib" / "node_modules" / "@scope" / "cli" / "package.json"
        package.parent.mkdir(parents=True)
        package.write_text(f'{{"version": "{version}"}}')
    found = installed_version(FileSystem(), "@scope/cli", str(home), {})
    assert found is not None and (found.version, Path(found.path).parts[-6]) == ("2.0.0", "v20.1.0")
    assert installed_version(FileSystem(), "@scope/cli", f"/proc/self/root{home}", {}) is None
