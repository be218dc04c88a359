"""Harness warnings that a finding already reports are left out of `check`'s warning lines by
their kind (`WarningKind`), whatever their text says; every other warning is shown."""

from __future__ import annotations

import pickle
from pathlib import Path

from analysis_helpers import check, check_json
from workspace_files import write_tree

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


def test_a_config_finding_reads_the_warning_s_fields_not_its_wording(tmp_path: Path) -> None:
    """A folder named like a warning's `path:line: problem` (`odd: 7`) does not change what the
    finding says: its line and problem are the warning's fields."""
    ws, home = tmp_path / "ws", tmp_path / "home"
    home.mkdir()
    write_tree(ws, {"AGENTS.md": "# Rules\n\nBe nice.\n", "odd: 7/opencode.json": '{\n\n  "bad": }'})
    _rc, data = check_json(ws, home, "--harness", "opencode")
    [config] = [f for f in data["findings"] if f["code"] == "invalid-config"]
    assert config["path"] == "odd: 7/opencode.json"
    assert config["range"]["start"]["line"] == 2
    assert config["message"].startswith("opencode cannot parse this config file and ")
    assert ": invalid JSON: " in config["message"] and "odd" not in config["message"]


def test_a_warning_keeps_its_kind_through_a_worker_pipe() -> None:
    """Cascades come back from forked workers pickled: the kind and fields must survive, the text unchanged."""
    sent = HarnessWarning("warning: a.json:3: invalid JSON; using defaults", WarningKind.INVALID_CONFIG, 3, "invalid JSON")
    received = pickle.loads(pickle.dumps([sent], protocol=pickle.HIGHEST_PROTOCOL))[0]  # noqa: S301 - pickled here
    assert (received, warning_kind(received)) == (sent, WarningKind.INVALID_CONFIG)
    assert (received.line, received.problem) == (3, "invalid JSON")
    assert warning_kind("warning: plain") is WarningKind.OTHER
