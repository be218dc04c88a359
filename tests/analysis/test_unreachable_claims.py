"""When a file is not called unreachable: while a unit is past its budget (`not-evaluated`: what it
would load is unknown), and when an editor loads it with another folder opened as the workspace."""

from __future__ import annotations

import pytest

from lsp_agents.core.analysis import Analyzer
from lsp_agents.core.fs import FileSystem
from lsp_agents.core.settings import Settings
from lsp_agents.core.timelimit import TimeLimitExceeded
from lsp_agents.core.workspace import WorkspaceIndex

FILES = {"AGENTS.md": "# A\n- use tabs for indentation everywhere\n", "CLAUDE.md": "# C\n- keep functions short and focused\n"}


@pytest.mark.parametrize("stuck", [False, True], ids=["evaluated", "past-its-budget"])
def test_no_file_is_unreachable_while_a_unit_is_not_evaluated(workspace, monkeypatch, stuck: bool) -> None:
    root, home = workspace(FILES)
    derive = Analyzer._derive

    def derive_or_time_out(self, unit):
        if stuck and unit.harness == "claude-code":
            raise TimeLimitExceeded("exceeded 2000 ms")
        return derive(self, unit)

    monkeypatch.setattr(Analyzer, "_derive", derive_or_time_out)
    index = WorkspaceIndex(str(root), FileSystem())
    index.scan()
    settings = Settings(harnesses=["claude-code"])
    found = Analyzer(index, settings, home=str(home), env={}).analyse_all()
    codes = sorted((f.code, path.rsplit("/", 1)[-1]) for path, items in found.items() for f in items)
    expected = [("not-evaluated", "AGENTS.md")] if stuck else [("unreachable-file", "AGENTS.md")]
    assert [c for c in codes if c[0] in ("not-evaluated", "unreachable-file")] == expected


def test_an_editor_s_rule_folder_below_the_root_is_loaded_when_that_folder_is_the_workspace(workspace) -> None:
    """Roo Code reads the rule folder of the folder opened only: `tools/gen/.roo/rules` reaches the
    model when `tools/gen` is opened, which its own `.roo` folder says someone does."""
    from analysis_helpers import findings

    root, home = workspace(
        {
            "AGENTS.md": "# A\n\n- Run the tests before pushing a branch\n",
            ".roo/rules/style.md": "# Style\n\n- Keep functions short and focused\n",
            "tools/gen/.roo/rules/gen.md": "# Generator\n\n- Regenerate the fixtures after a schema change\n",
        }
    )
    assert [f for f in findings(root, home, "roo") if f[0] == "unreachable-file"] == []


def test_an_openhands_microagent_with_triggers_is_listed_not_unreachable(workspace) -> None:
    """OpenHands lists a microagent with `triggers` in <SKILLS> by name and description, and sends its
    text when a message names a trigger word: it reaches the model. One whose header is not YAML
    does not."""
    from analysis_helpers import check_json

    header = '---\nname: pr-review\ntype: knowledge\ntriggers:\n  [\n    "review PR",\n    "review comments",\n  ]\n---\n'
    root, home = workspace(
        {
            ".openhands/microagents/pr-review.md": header + "Review every unresolved comment of the pull request.\n",
            ".openhands/microagents/broken.md": "---\ntriggers:\n  - @repo_eng\n---\nLead the repository's engineering.\n",
        }
    )
    _rc, data = check_json(root, home, "--harness", "openhands", "--fail-on", "never", "--enable", "all")
    assert [(f["code"], f["path"]) for f in data["findings"]] == [("unreachable-file", ".openhands/microagents/broken.md")]


def test_a_rule_skipped_for_its_header_says_so(workspace) -> None:
    """Cline skips a rule whose header YAML cannot read (`globs: **/*` unquoted: an alias): the
    file is where Cline looks, so the finding says to fix the header, not to move the file; and
    `cascade` names the reason."""
    from analysis_helpers import check_json

    rule = "---\ndescription: Taskmaster workflow\nglobs: **/*\nalwaysApply: true\n---\n- Run task-master next first.\n"
    root, home = workspace({".clinerules/dev_workflow.md": rule})
    _rc, data = check_json(root, home, "--harness", "cline", "--fail-on", "never", "--enable", "all")
    (found,) = data["findings"]
    assert found["code"] == "unreachable-file"
    assert "cline would load it but skip it, because its header is not valid YAML" in found["message"]
    (root / ".clinerules/dev_workflow.md").write_text(rule.replace("**/*", '"**/*"'))
    _rc, data = check_json(root, home, "--harness", "cline", "--fail-on", "never", "--enable", "all")
    assert data["findings"] == []
