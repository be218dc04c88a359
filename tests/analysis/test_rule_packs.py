"""Findings that were wrong on rule packs and multi-tool repositories of the development half
(batch 7): each a small workspace shaped like the repository where it was seen, through `check`."""

from __future__ import annotations

import pytest
from analysis_helpers import findings

GUIDE = "# Project\n\n- Run the whole test suite with pytest before you push a branch\n"


def _rule(globs: str, *, always: bool = False, body: str = "Use the service layer for data access.") -> str:
    return f"---\nglobs: {globs}\nalwaysApply: {'true' if always else 'false'}\n---\n\n# Rule\n\n- {body}\n"


def test_a_rule_sent_always_is_not_said_to_attach_to_nothing(workspace) -> None:
    """`alwaysApply: true`: Cursor ignores the globs, so that they match nothing changes nothing."""
    ws, home = workspace({"AGENTS.md": GUIDE, "src/main.ts": "", ".cursor/rules/api.mdc": _rule("app/api/**/*.ts", always=True)})
    assert [f for f in findings(ws, home, "cursor") if f[0] == "glob-matches-nothing"] == []


@pytest.mark.parametrize("stale", [1, 4], ids=["one-stale-rule", "a-rule-library"])
def test_a_rule_library_s_globs_are_about_the_projects_that_copy_it(workspace, stale: int) -> None:
    """Most rules name folders this repository does not have (`app/`, `services/`): rules written
    for other projects, not stale ones. One stale rule among rules that match is still reported."""
    files = {"AGENTS.md": GUIDE, "src/main.ts": "", "src/util.ts": ""}
    for number in range(stale):
        files[f".cursor/rules/pack{number}.mdc"] = _rule(f"app/area{number}/**/*.tsx")
    for number in range(4 - stale if stale < 4 else 1):
        files[f".cursor/rules/src{number}.mdc"] = _rule("src/**/*.ts")
    ws, home = workspace(files)
    reported = [f for f in findings(ws, home, "cursor") if f[0] == "glob-matches-nothing"]
    assert len(reported) == (1 if stale == 1 else 0)


def test_a_broken_glob_is_reported_in_a_rule_library_too(workspace) -> None:
    files = {"AGENTS.md": GUIDE, "src/main.ts": ""}
    files |= {f".cursor/rules/pack{n}.mdc": _rule(f"app/area{n}/**/*.tsx") for n in range(4)}
    files[".cursor/rules/vue.mdc"] = _rule("resources/js/**/*.{js")
    ws, home = workspace(files)
    assert [f for f in findings(ws, home, "cursor") if f[0] in ("glob-matches-nothing", "invalid-frontmatter")] == [
        ("invalid-frontmatter", ".cursor/rules/vue.mdc")
    ]


@pytest.mark.parametrize("named", [True, False], ids=["a-workflow-names-them", "nothing-names-them"])
def test_files_the_project_s_workflows_send_the_agent_to_are_not_unreachable(workspace, named: bool) -> None:
    """Each package's AGENT.md is read because the project's own command says to read it."""
    step = "Read every AGENT.md from the root down to the package" if named else "Read the package's README"
    ws, home = workspace(
        {
            "AGENTS.md": GUIDE,
            "packages/ui/AGENT.md": "# UI\n\n- Keep every component in its own file\n",
            ".opencode/command/task.md": f"---\ndescription: Start a task\n---\n\n1. {step}.\n2. Plan the change.\n",
        }
    )
    unreachable = [f for f in findings(ws, home, "opencode") if f[0] == "unreachable-file"]
    assert unreachable == ([] if named else [("unreachable-file", "packages/ui/AGENT.md")])


def test_two_lists_under_one_lead_are_not_a_repeat(workspace) -> None:
    """ "Packages under `packages/`:" leads a different list in each file: the lead alone is no
    instruction. A bullet whose own words repeat is still one, whatever is nested below it."""
    lead = "- Packages are located under the `packages/` directory:\n"
    ws, home = workspace(
        {
            "AGENTS.md": "# A\n\n" + lead + "  - `core`: shared types and helpers\n  - `router`: request routing\n",
            "CLAUDE.md": "# C\n\n" + lead + "  - `client`: the browser client\n  - `devtools`: the Vite plugin\n",
            ".augment/rules/guide.md": "---\ntype: always_apply\n---\n\n# G\n\n"
            + lead
            + "  - `core`: shared types and helpers\n  - `router`: request routing\n",
        }
    )
    repeats = [f for f in findings(ws, home, "auggie") if f[0] == "duplicate-instruction"]
    assert repeats == [("duplicate-instruction", ".augment/rules/guide.md")]
