"""The `workspace` fixture of the harness model tests."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

import pytest
from harness_helpers import Workspace, build


@pytest.fixture
def workspace(tmp_path: Path) -> Callable[..., Workspace]:
    """A factory: workspace files (and home files) in, a `Workspace` out; a git root unless `git=False`."""

    def make(files: Mapping[str, str | bytes], home: Mapping[str, str | bytes] | None = None, *, git: bool = True) -> Workspace:
        return build(tmp_path, files, home, git=git)

    return make
