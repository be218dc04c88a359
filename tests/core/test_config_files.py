"""Config files are parsed as their harness parses them, and hostile ones cost nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from lsp_agents.core.config_files import MAX_CONFIG_BYTES, load_jsonc, load_toml
from lsp_agents.core.fs import FileSystem


@pytest.mark.parametrize(
    ("relative", "content", "values", "problem"),
    [
        ("opencode.jsonc", '{\n  // c\n  "instructions": ["a.md", /* b */],\n}\n', {"instructions": ["a.md"]}, None),
        (".claude/settings.json", '{"a": 1,}', {"a": 1}, None),
        (
            ".gemini/settings.json",
            '{\n  // comments are stripped\n  "context": {/* x */ "fileName": "A.md"}\n}',
            {"context": {"fileName": "A.md"}},
            None,
        ),
        (".gemini/settings.json", '{\n  "context": {"fileName": "A.md",}\n}', {}, ":2: invalid JSON"),
        ("opencode.json", "{unquoted: 1}", {}, ":1: invalid JSON"),
        ("opencode.json", "{'single': 1}", {}, ":1: invalid JSON"),
        ("opencode.json", '{"a": NaN}', {}, ":1: invalid JSON"),
        ("opencode.json", '{\n"é": 1,\n"b": x}', {}, ":3: invalid JSON"),
        ("opencode.json", "[" * 200_000, {}, "invalid JSON"),
        ("opencode.json", '["a"]', {}, "expected a JSON object"),
        ("opencode.json", '{"instructions": ["' + "*" * (MAX_CONFIG_BYTES + 1) + '"]}', {}, "not parsed"),
        ("opencode.json", '{"instructions": ["' + "*" * (MAX_CONFIG_BYTES - 100) + '"]}', None, None),
    ],
)
def test_json_dialects_and_bounds(tmp_path: Path, relative: str, content: str, values, problem) -> None:
    path = tmp_path / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(content, encoding="utf-8")
    loaded = load_jsonc(FileSystem(), str(path))
    assert loaded.exists
    if values is not None:
        assert loaded.values == values
    if problem is None:
        assert loaded.warning is None
    else:
        assert loaded.warning is not None and problem in loaded.warning, loaded.warning


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        ("project_doc_max_bytes = 10\n", None),
        ("k = " + "[" * 100_000 + "]" * 100_000 + "\n", "nested too deeply"),
        ("a = 1\nb = = 2\n", ":2: invalid TOML"),
        ("k = '" + "x" * MAX_CONFIG_BYTES + "'\n", "not parsed"),
    ],
)
def test_toml_bounds(tmp_path: Path, content: str, problem) -> None:
    path = tmp_path / "config.toml"
    path.write_text(content)
    loaded = load_toml(FileSystem(), str(path))
    if problem is None:
        assert loaded.warning is None and loaded.values == {"project_doc_max_bytes": 10}
    else:
        assert loaded.warning is not None and problem in loaded.warning, loaded.warning
