"""Where an invalid-frontmatter finding points when the header is not YAML: the file line the
parser stopped at (the header starts on line 2), which its message names too; the first line
when the parser names none. Checked through `lsp-agents check`."""

from __future__ import annotations

import pytest
from analysis_helpers import check_json


@pytest.mark.parametrize(
    ("header", "line", "message"),
    [
        pytest.param("description: fine\npaths: a: b\n", 3, "invalid YAML frontmatter at line 3: ", id="mapping-value-on-line-3"),
        pytest.param("a: 1\nb: 2\nc: 3\nd: e: f\n", 5, "invalid YAML frontmatter at line 5: ", id="mapping-value-on-line-5"),
        pytest.param("- a\n- b\n", 1, "frontmatter is not a mapping of fields: ", id="no-line-named"),
    ],
)
def test_the_finding_points_at_the_line_the_parser_names(workspace, header: str, line: int, message: str) -> None:
    ws, home = workspace({"CLAUDE.md": "# C\n", ".claude/rules/r.md": f"---\n{header}---\n# R\n"})
    _rc, data = check_json(ws, home, "--harness", "claude-code", "--fail-on", "never")
    found = [f for f in data["findings"] if f["code"] == "invalid-frontmatter"]
    assert [(f["range"]["start"]["line"] + 1, f["message"].startswith(message)) for f in found] == [(line, True)], found
