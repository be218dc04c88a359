"""The file system's kept listings: a folder is listed once, its listing answers probes for names
it does not hold (without a stat each), and it never answers wrongly: not for a name in another
case, a path through `..`, or a folder created after the listing once the change is reported."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from lsp_agents.core import fs as fs_module
from lsp_agents.core.fs import FileSystem
from lsp_agents.core.workspace import WorkspaceIndex


@pytest.fixture
def counted(monkeypatch) -> dict[str, int]:
    """How many times each system call ran."""
    calls = {"stat": 0, "scandir": 0}
    for name in calls:
        real = getattr(os, name)

        def counting(*args, _real=real, _name=name, **kwargs):
            calls[_name] += 1
            return _real(*args, **kwargs)

        monkeypatch.setattr(fs_module.os, name, counting)
    return calls


def test_a_listed_folder_answers_probes_for_missing_names_without_a_stat(tmp_path: Path, counted) -> None:
    (tmp_path / "AGENTS.md").write_text("x\n")
    (tmp_path / "pkg").mkdir()
    fs = FileSystem()
    assert fs.list_dir(str(tmp_path)) == fs.list_dir(str(tmp_path))
    assert sorted(fs.list_dir(str(tmp_path))) == ["AGENTS.md", "pkg"]
    assert counted["scandir"] == 1  # listed once
    stats = counted["stat"]
    assert not fs.exists(str(tmp_path / "CLAUDE.md"))
    assert not fs.is_dir(str(tmp_path / ".cursor" / "rules"))  # below a folder that is not there
    assert fs.scan_dir(str(tmp_path / ".cursor" / "rules")) == []
    assert counted["stat"] == stats and counted["scandir"] == 1
    assert fs.is_file(str(tmp_path / "AGENTS.md")) and fs.is_dir(str(tmp_path / "pkg"))  # present: asked of the disk
    assert counted["stat"] == stats + 2


def test_a_name_in_another_case_is_asked_of_the_disk(tmp_path: Path, counted) -> None:
    """A case-insensitive file system finds `agents.md` as `AGENTS.md`: the listing cannot tell."""
    (tmp_path / "AGENTS.md").write_text("x\n")
    fs = FileSystem()
    fs.list_dir(str(tmp_path))
    stats = counted["stat"]
    fs.exists(str(tmp_path / "agents.md"))
    assert counted["stat"] == stats + 1


def test_a_path_through_dot_dot_is_not_answered_by_a_listing(tmp_path: Path) -> None:
    (tmp_path / "AGENTS.md").write_text("x\n")
    fs = FileSystem()
    fs.list_dir(str(tmp_path))
    assert fs.is_file(str(tmp_path / "missing" / ".." / "AGENTS.md")) == os.path.isfile(tmp_path / "missing" / ".." / "AGENTS.md")
    assert fs.is_file(str(tmp_path / "." / "AGENTS.md"))


def test_a_folder_created_after_the_listing_is_seen_once_the_change_is_reported(tmp_path: Path) -> None:
    fs = FileSystem()
    fs.list_dir(str(tmp_path))
    new = tmp_path / "new" / "deeper" / "AGENTS.md"
    assert not fs.is_file(str(new))
    new.parent.mkdir(parents=True)
    new.write_text("x\n")
    fs.invalidate(str(new))  # what the server and the worker do for a created file
    assert fs.is_file(str(new))
    assert "new" in fs.list_dir(str(tmp_path))


def test_discovery_keeps_no_listing(tmp_path: Path, counted) -> None:
    """Discovery walks every folder once; its listings are not kept (the analysis runs in a
    process of its own), so a later probe lists the folder itself."""
    (tmp_path / "AGENTS.md").write_text("x\n")
    fs = FileSystem()
    fs.scan_dir(str(tmp_path), keep=False)
    fs.scan_dir(str(tmp_path), keep=False)
    assert counted["scandir"] == 2
    fs.list_dir(str(tmp_path))
    assert counted["scandir"] == 3


def test_the_analysis_process_answers_probes_from_discovery_listings(tmp_path: Path, counted) -> None:
    """The index rebuilt from a snapshot (what the analysis process does) knows every folder the
    walk listed: the harness models' probes for names that are not there cost no system call."""
    (tmp_path / "pkg" / "deep").mkdir(parents=True)
    (tmp_path / "pkg" / "deep" / "AGENTS.md").write_text("x\n")
    (tmp_path / "pkg" / "CLAUDE.md").write_text("x\n")
    scanned = WorkspaceIndex(str(tmp_path), FileSystem())
    scanned.scan()
    fs = FileSystem()
    WorkspaceIndex.from_snapshot(scanned.snapshot(), fs)
    calls = dict(counted)
    for folder in (tmp_path, tmp_path / "pkg", tmp_path / "pkg" / "deep"):
        assert not fs.exists(str(folder / "GEMINI.md"))
        assert fs.list_dir(str(folder / ".kilocode" / "rules-code")) == ()
    assert counted == calls
    assert fs.is_file(str(tmp_path / "pkg" / "CLAUDE.md"))  # present: asked of the disk
    assert fs.is_file(str(tmp_path / "pkg" / "deep" / "agents.md")) == os.path.isfile(tmp_path / "pkg" / "deep" / "agents.md")


def test_a_snapshot_taken_after_an_update_does_not_call_the_new_path_missing(tmp_path: Path) -> None:
    """A file created after the walk and reported to the index (`update`) is seen by the
    analysis process, also in a folder the walk never saw."""
    (tmp_path / "pkg").mkdir()
    scanned = WorkspaceIndex(str(tmp_path), FileSystem())
    scanned.scan()
    created = [tmp_path / "pkg" / "CLAUDE.md", tmp_path / "new" / "deeper" / "GEMINI.md"]
    for path in created:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("x\n")
        scanned.update(str(path))
    fs = FileSystem()
    WorkspaceIndex.from_snapshot(scanned.snapshot(), fs)
    assert all(fs.is_file(str(path)) for path in created)
