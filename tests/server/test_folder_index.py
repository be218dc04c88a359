"""A request answered while the folder's tree is walked waits for that walk's index instead of
walking the tree a second time beside it (`Folder.index_soon`); none waits when no walk is under
way. Threads and events only: nothing here depends on how long anything takes."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from lsp_agents.core.fs import FileSystem
from lsp_agents.core.settings import Settings
from lsp_agents.core.workspace import WorkspaceIndex
from lsp_agents.server.folder import Folder

PROGRESS_EVERY = 5000  # the walk reports its progress after this many entries


def _folder(root: Path) -> Folder:
    for i in range(PROGRESS_EVERY):
        (root / f"f{i}.txt").write_text("")
    (root / "AGENTS.md").write_text("# rules\n")
    return Folder(root.as_uri(), str(root), Settings(), WorkspaceIndex(str(root), FileSystem()))


def test_a_request_during_the_walk_gets_its_index(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    reached, release = threading.Event(), threading.Event()

    class ReleasedByTheWait(threading.Event):
        """The walk goes on only once the request waits for it: the request must wait to get the index."""

        def wait(self, timeout: float | None = None) -> bool:
            release.set()
            return super().wait(timeout)

    folder.scanned = ReleasedByTheWait()
    folder.renew(WorkspaceIndex(str(tmp_path), FileSystem()))

    def seen(_count: int) -> None:  # the walk halts at its first progress report until released
        reached.set()
        assert release.wait(60)

    walker = threading.Thread(target=folder.walk, args=(seen,))
    walker.start()
    assert reached.wait(60) and folder.walking and not folder.indexed
    index = folder.index_soon(60)
    walker.join(60)
    assert index is folder.index and folder.indexed
    assert str(tmp_path / "AGENTS.md") in index.instruction_files


def test_no_request_waits_before_a_walk_starts_or_after_one_failed(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    folder.renew(WorkspaceIndex(str(tmp_path), FileSystem()))
    assert folder.index_soon(60) is None  # no walk under way: the request walks itself at once

    def failing(_count: int) -> None:
        raise OSError("the walk failed")

    with pytest.raises(OSError, match="the walk failed"):
        folder.walk(failing)
    assert not folder.walking and not folder.indexed and folder.scanned.is_set()
    assert folder.index_soon(60) is None
