"""`lsp-agents check` as a CI tool: formats, SARIF validity, exit codes, settings, suppressions, progress."""

from __future__ import annotations

import io
import json
import os
import pty
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
from analysis_helpers import check, check_json

from lsp_agents.report.check import Progress

SCHEMA = Path(__file__).resolve().parents[1] / "data" / "sarif-schema-2.1.0.json"
SECRET = "ghp_Zq8LmN3vR7tY2wX5kP9aB4cD6eF1gH0jK8sT"
# `secret`, `import-not-found` and `deprecated-filename` are hints until the corpus measures them:
# turned on here, they report at their own severity.
CODES_ON = 'severity = { secret = "on", "import-not-found" = "on", "deprecated-filename" = "on" }\n'
MIXED = {
    "AGENTS.md": f"# Root\n\n- never commit generated files to the repository\n\nToken: {SECRET}\n",
    "pkg/AGENTS.md": "# Pkg\n\n- Never commit generated files to the repository\n",
    "CLAUDE.md": "# C\n\n@missing.md\n",
    "lsp-agents.toml": CODES_ON,
}


def test_json_shape_relative_paths_and_summary(workspace) -> None:
    ws, home = workspace(MIXED)
    rc, data = check_json(ws, home)
    assert rc == 1
    assert set(data) == {"root", "harnesses", "findings", "summary"}
    assert data["root"] == str(ws.resolve())
    assert set(data["summary"]) == {"error", "warning", "information", "hint"}
    assert sum(data["summary"].values()) == len(data["findings"])
    for item in data["findings"]:
        assert set(item) == {"code", "severity", "path", "range", "message", "harnesses", "related", "fix"}
        assert not item["path"].startswith("/") and "\\" not in item["path"]
        assert set(item["range"]) == {"start", "end"} and set(item["range"]["start"]) == {"line", "character"}
    duplicate = next(f for f in data["findings"] if f["code"] == "duplicate-instruction")
    assert duplicate["path"] == "pkg/AGENTS.md" and duplicate["range"]["start"] == {"line": 2, "character": 0}
    assert duplicate["related"][0]["path"] == "AGENTS.md" and duplicate["related"][0]["range"]["start"]["line"] == 2
    assert duplicate["fix"]["edits"][0]["newText"] == ""


def test_text_format_and_secret_never_printed(workspace) -> None:
    ws, home = workspace(MIXED)
    result = check(ws, home, str(ws))
    assert result.returncode == 1
    assert "AGENTS.md:5:8: error secret GitHub token (ghp_…(40 characters))" in result.stdout
    assert SECRET not in result.stdout and SECRET[4:] not in result.stdout
    assert "pkg/AGENTS.md:3:1: hint duplicate-instruction" in result.stdout
    assert result.stdout.rstrip().splitlines()[-1].startswith(f"{len(result.stdout.splitlines()) - 1} findings (")


def test_sarif_validates_against_the_2_1_0_schema(workspace) -> None:
    ws, home = workspace(MIXED)
    result = check(ws, home, str(ws), "--format", "sarif", "--fail-on", "never")
    assert result.returncode == 0, result.stderr
    sarif = json.loads(result.stdout)
    jsonschema.validate(sarif, json.loads(SCHEMA.read_text()))
    run = sarif["runs"][0]
    assert {r["id"] for r in run["tool"]["driver"]["rules"]} >= {"secret", "duplicate-instruction", "import-not-found"}
    assert all(r["helpUri"].startswith("https://github.com/lsp-agents/lsp-agents#") for r in run["tool"]["driver"]["rules"])
    duplicate = next(r for r in run["results"] if r["ruleId"] == "duplicate-instruction")
    location = duplicate["locations"][0]["physicalLocation"]
    assert location["artifactLocation"] == {"uri": "pkg/AGENTS.md", "uriBaseId": "%SRCROOT%"}
    assert location["region"]["startLine"] == 3 and location["region"]["startColumn"] == 1
    assert duplicate["relatedLocations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "AGENTS.md"


def test_sarif_schema_rejects_a_broken_log() -> None:
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"version": "2.1.0", "runs": [{"results": []}]}, json.loads(SCHEMA.read_text()))


@pytest.mark.parametrize(
    ("files", "fail_on", "expected"),
    [
        ({"AGENTS.md": "# A\n- keep it short and simple please\n"}, "error", 0),
        (MIXED, "error", 1),
        (MIXED, "never", 0),
        (
            {"AGENTS.md": "# A\n- keep it short\n", "AGENT.md": "# B\n- a legacy file name here\n", "lsp-agents.toml": CODES_ON},
            "error",
            0,
        ),
        (
            {"AGENTS.md": "# A\n- keep it short\n", "AGENT.md": "# B\n- a legacy file name here\n", "lsp-agents.toml": CODES_ON},
            "warning",
            1,
        ),
        ({"AGENTS.md": "# A\n- keep it short\n", "AGENT.md": "# B\n- a legacy file name here\n"}, "warning", 0),  # a hint
    ],
)
def test_exit_status_follows_fail_on(workspace, files, fail_on, expected) -> None:
    ws, home = workspace(files)
    assert check(ws, home, str(ws), "--fail-on", fail_on).returncode == expected


def test_usage_and_io_errors_exit_2(workspace, tmp_path) -> None:
    ws, home = workspace({"AGENTS.md": "# A\n"})
    assert check(ws, home, str(tmp_path / "missing")).returncode == 2
    assert check(ws, home, str(ws), "--format", "xml").returncode == 2
    assert check(ws, home, str(ws), "--harness", "nope").returncode == 2
    result = check(ws, tmp_path / "no-home", str(ws))
    assert result.returncode == 2 and "home" in result.stderr


def test_file_paths_restrict_the_report(workspace) -> None:
    ws, home = workspace(MIXED)
    result = check(ws, home, "pkg/AGENTS.md", "--format", "json", cwd=ws)
    data = json.loads(result.stdout)
    assert {f["path"] for f in data["findings"]} == {"pkg/AGENTS.md"}
    assert result.returncode == 0  # the secret in AGENTS.md is not reported here


def test_harness_flag_replaces_the_detected_set(workspace) -> None:
    ws, home = workspace(MIXED)
    _rc, data = check_json(ws, home, "--harness", "codex", "--harness", "codex")
    assert data["harnesses"] == ["codex"]
    _rc, data = check_json(ws, home)
    assert data["harnesses"] == ["codex", "claude-code"]


def test_settings_file_severity_threshold_and_exclude(workspace) -> None:
    long = "Run the complete test suite with pytest and the type checker before you open a pull request for review"
    files = {
        "AGENTS.md": f"# Root\n\n- {long} now\n- keep every function short and focused\n\nToken: {SECRET}\n",
        "pkg/AGENTS.md": f"# Pkg\n\n- {long} please\n- keep every function short and focused\n",
        "vendor/AGENTS.md": "# Vendor\n\n- " + long + " now\n",
    }
    ws, home = workspace(files)
    _rc, data = check_json(ws, home)
    codes = {(f["code"], f["path"]) for f in data["findings"]}
    assert ("near-duplicate-instruction", "pkg/AGENTS.md") in codes and ("secret", "AGENTS.md") in codes
    (ws / "lsp-agents.toml").write_text(
        'similarityThreshold = 0.99\nexclude = ["vendor/"]\n[severity]\nsecret = "off"\nduplicate-instruction = "hint"\n'
    )
    rc, data = check_json(ws, home)
    codes = {(f["code"], f["path"]) for f in data["findings"]}
    assert rc == 0
    assert not any(code in ("near-duplicate-instruction", "secret") for code, _ in codes)
    assert not any(path.startswith("vendor/") for _, path in codes)
    assert any(f["code"] == "duplicate-instruction" and f["severity"] == "hint" for f in data["findings"])


def test_suppression_comments(workspace) -> None:
    files = {
        "AGENTS.md": "# Root\n\n- never commit generated files to the repository\n- always write tests for new behaviour\n",
        "pkg/AGENTS.md": (
            "# Pkg\n\n<!-- lsp-agents-disable-next-line duplicate-instruction -->\n"
            "- never commit generated files to the repository\n"
            "<!-- lsp-agents-disable duplicate-instruction, secret -->\n"
            "- always write tests for new behaviour\n"
            "<!-- lsp-agents-enable -->\n"
            "- always write tests for new behaviour\n"
        ),
    }
    ws, home = workspace(files)
    _rc, data = check_json(ws, home, "--harness", "agents-md")
    lines = [f["range"]["start"]["line"] for f in data["findings"] if f["code"] == "duplicate-instruction"]
    assert lines == [7]


def test_progress_only_on_a_terminal() -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    terminal, pipe = Terminal(), io.StringIO()
    for stream in (terminal, pipe):
        progress = Progress(stream)
        progress("indexed", 5000)
        progress("analysed", 3, 10)
        progress.done()
    assert "indexed 5,000" in terminal.getvalue() and "analysed 3/10" in terminal.getvalue()
    assert pipe.getvalue() == ""


def test_progress_on_a_real_terminal_stderr(workspace) -> None:
    ws, home = workspace({f"d{i}/AGENTS.md": f"# {i}\n- rule number {i} for this directory\n" for i in range(60)})
    primary, secondary = pty.openpty()
    try:
        result = subprocess.run(
            [sys.executable, "-m", "lsp_agents", "check", str(ws), "--home", str(home)],
            stdout=subprocess.PIPE,
            stderr=secondary,
            timeout=120,
        )
        os.close(secondary)
        shown = b""
        while True:
            try:
                chunk = os.read(primary, 4096)
            except OSError:
                break
            if not chunk:
                break
            shown += chunk
    finally:
        os.close(primary)
    assert result.returncode == 0
    assert b"lsp-agents: analysed" in shown and b"analysed" not in result.stdout


def test_no_progress_on_piped_stderr(workspace) -> None:
    ws, home = workspace({"AGENTS.md": "# A\n- keep it short and simple please\n"})
    result = check(ws, home, str(ws))
    assert result.returncode == 0 and result.stderr == ""


def test_config_outside_the_workspace_is_reported_once(workspace) -> None:
    ws, home = workspace(
        {"AGENTS.md": "# A\n- keep it short and simple please\n"}, {".codex/config.toml": "project_doc_max_bytes = [\n"}
    )
    result = check(ws, home, str(ws), "--format", "json", "--harness", "codex")
    data = json.loads(result.stdout)
    configs = [f for f in data["findings"] if f["code"] == "invalid-config"]
    assert [f["path"] for f in configs] == [str(home / ".codex" / "config.toml")]
    assert configs[0]["severity"] == "hint"  # until the corpus measures it: not failing the check
    assert result.returncode == 0 and result.stderr.count("config.toml") == 1
    sarif = json.loads(check(ws, home, str(ws), "--format", "sarif", "--harness", "codex").stdout)
    jsonschema.validate(sarif, json.loads(SCHEMA.read_text()))
    uri = sarif["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
    assert uri.startswith("file:///") and uri.endswith("/.codex/config.toml")


@pytest.mark.parametrize(
    ("harness", "env", "config", "text"),
    [
        # Qwen reads `~` in QWEN_HOME as the home directory: so does the check.
        pytest.param("qwen", {"QWEN_HOME": "~/q"}, "q/settings.json", "{ nope", id="qwen-home-with-a-tilde"),
        pytest.param("continue", {}, ".continue/config.yaml", "rules: [\n", id="continue-config-yaml"),
        pytest.param("kilo", {}, ".config/kilo/opencode.json", "{ nope", id="kilo-reads-opencode-json"),
    ],
)
def test_a_per_user_config_is_checked_where_the_harness_reads_it(workspace, monkeypatch, harness, env, config, text) -> None:
    ws, home = workspace({"AGENTS.md": "# A\n- keep it short and simple please\n"}, {config: text})
    for name in ("QWEN_HOME", "CONTINUE_GLOBAL_DIR", "XDG_CONFIG_HOME"):  # the caller's own would move the file
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    _rc, data = check_json(ws, home, "--harness", harness)
    configs = [f for f in data["findings"] if f["code"] == "invalid-config"]
    assert [(f["path"], f["harnesses"]) for f in configs] == [(str(home / config), [harness])]
