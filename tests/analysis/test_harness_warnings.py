"""Harness warnings that a finding already reports are left out of `check`'s warning lines by
their kind (`WarningKind`), whatever their text says; every other warning is shown."""

from __future__ import annotations

import pickle
from pathlib import Path

from analysis_helpers import check, write_tree

from lsp_agents.core.model import HarnessWarning, WarningKind, warning_kind


def test_a_warning_that_mentions_frontmatter_is_still_shown(tmp_path: Path) -> None:
    """An opencode instruction past the glob bounds: its warning names the pattern, which here
    says "frontmatter"; no finding reports it, so the warning is shown."""
    ws, home = tmp_path / "ws", tmp_path / "home"
    home.mkdir()
    pattern = "docs/frontmatter-" + "a" * 1100 + ".md"
    write_tree(ws, {"AGENTS.md": "# Rules\n\nBe nice.\n", "opencode.json": f'{{"instructions": ["{pattern}"]}}'})
    result = check(ws, home, str(ws), "--harness", "opencode")
    assert result.returncode in (0, 1), result.stderr
    assert "warning: opencode instruction 'docs/frontmatter-" in result.stderr


def test_a_config_warning_is_left_to_its_finding(tmp_path: Path) -> None:
    ws, home = tmp_path / "ws", tmp_path / "home"
    home.mkdir()
    write_tree(ws, {"AGENTS.md": "# Rules\n\nBe nice.\n", "opencode.json": '{"bad": }'})
    result = check(ws, home, str(ws), "--harness", "opencode")
    assert "invalid-config" in result.stdout
    assert "opencode.json" not in result.stderr


def test_a_warning_keeps_its_kind_through_a_worker_pipe() -> None:
    """Cascades come back from forked workers pickled: the kind must survive, the text unchanged."""
    sent = HarnessWarning("warning: a.json: invalid JSON; using defaults", WarningKind.INVALID_CONFIG)
    received = pickle.loads(pickle.dumps([sent], protocol=pickle.HIGHEST_PROTOCOL))[0]  # noqa: S301 - pickled here
    assert (received, warning_kind(received)) == (sent, WarningKind.INVALID_CONFIG)
    assert warning_kind("warning: plain") is WarningKind.OTHER
