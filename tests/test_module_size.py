"""Every module of the package stays small enough to read in one sitting: 400 lines at most. A module
that grows past it is split by job (the harness's description and its loader, say), not trimmed."""

from __future__ import annotations

from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "lsp_agents"
MAX_LINES = 400


def test_no_module_of_the_package_is_over_400_lines() -> None:
    sizes = {path: len(path.read_text(encoding="utf-8").splitlines()) for path in PACKAGE.rglob("*.py")}
    assert len(sizes) > 100  # the check sees the package
    over = {str(path.relative_to(PACKAGE)): lines for path, lines in sizes.items() if lines > MAX_LINES}
    assert not over, f"over {MAX_LINES} lines: {over}"
