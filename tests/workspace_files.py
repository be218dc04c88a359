"""Write a workspace's files from a mapping of relative paths to text (UTF-8) or bytes; shared by
the test folders (pytest puts tests/ on the import path: see pyproject.toml)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path


def write_tree(base: Path, files: Mapping[str, str | bytes]) -> None:
    for rel, content in files.items():
        path = base / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
