"""Test order: the tests marked `slow` run first, so that the parallel run (pytest-xdist hands the
tests out in this order) does not end with one worker busy on a long test while the others idle."""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)
