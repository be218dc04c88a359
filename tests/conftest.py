"""Test order: the tests marked `slow` run first, so that the parallel run (pytest-xdist hands the
tests out in this order) does not end with one worker busy on a long test while the others idle."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile

import pytest

# `check`'s result cache (lsp_agents/check_cache.py) goes to a folder of this test process, not the user's.
_CHECK_CACHE = tempfile.mkdtemp(prefix="lsp-agents-test-cache-")
os.environ["XDG_CACHE_HOME"] = _CHECK_CACHE
atexit.register(shutil.rmtree, _CHECK_CACHE, ignore_errors=True)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)
