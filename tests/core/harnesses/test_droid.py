"""Factory droid's model (`lsp_agents/core/harnesses/droid.py`), called directly: per directory from
cwd up to the git root (nearest first) CLAUDE.md then AGENTS.md (`agents` in any case, `.md` in lower
case), no symlink; then ~/.factory's and ~/.agents' CLAUDE.md and AGENTS.md; on read, the files of
the directories between cwd and the read file not sent yet."""

from __future__ import annotations

import pytest
from harness_helpers import text

from lsp_agents.core.harnesses.droid import HEADER, READ_HEADER
from lsp_agents.core.model import Reason

R = Reason


@pytest.mark.parametrize(
    ("files", "home", "git", "loaded"),
    [
        pytest.param(
            {"AGENTS.md": "root\n", "pkg/AGENTS.md": "pkg\n", "pkg/CLAUDE.md": "claude\n"},
            {},
            True,
            ["pkg/CLAUDE.md", "pkg/AGENTS.md", "AGENTS.md"],
            id="nearest-first-claude-md-before-agents-md",
        ),
        pytest.param(
            {"pkg/Agents.md": "mixed\n", "pkg/agents.MD": "upper suffix\n"},
            {},
            True,
            ["pkg/Agents.md"],
            id="agents-in-any-case-md-lower",
        ),
        pytest.param(
            {"pkg/agents.md": "lower\n", "pkg/AGENTS.md": "exact\n"},
            {},
            True,
            ["pkg/AGENTS.md"],
            id="agents-md-exactly-when-there",
        ),
        pytest.param({"AGENTS.md": "root\n", "pkg/AGENTS.md": "pkg\n"}, {}, False, ["pkg/AGENTS.md"], id="no-git-cwd-only"),
        pytest.param(
            {"pkg/AGENTS.md": "pkg\n"},
            {".agents/AGENTS.md": "agents\n", ".factory/AGENTS.md": "factory agents\n", ".factory/CLAUDE.md": "factory claude\n"},
            True,
            ["pkg/AGENTS.md", "~/.factory/CLAUDE.md", "~/.factory/AGENTS.md", "~/.agents/AGENTS.md"],
            id="then-the-users-factory-then-agents-folder",
        ),
        pytest.param({"pkg/AGENTS.md": ""}, {}, True, ["pkg/AGENTS.md"], id="an-empty-file-too"),
    ],
)
def test_eager(workspace, files, home, git, loaded) -> None:
    ws = workspace(files, home, git=git)
    cascade = ws.eager("droid", "pkg")
    assert ws.loaded(cascade) == loaded
    assert ws.not_loaded(cascade) == {}


def test_a_symlinked_file_or_directory_is_never_taken(workspace) -> None:
    ws = workspace({"real/AGENTS.md": "real\n", "pkg/x": ""})
    (ws.ws / "pkg" / "CLAUDE.md").symlink_to("../real/AGENTS.md")
    (ws.ws / "linked").symlink_to("real")
    assert ws.loaded(ws.eager("droid", "pkg")) == []
    assert ws.loaded(ws.eager("droid", "linked")) == []


def test_files_as_cat_over_guidelines_trailing_space_cut(workspace) -> None:
    ws = workspace({"AGENTS.md": "\nUse pnpm.  \n\n"}, {".factory/AGENTS.md": "Mine.\n"})
    assert text(ws.eager("droid")) == (
        f"{HEADER}## Project Instructions:\n% cat {ws.path('AGENTS.md')}\n<coding_guidelines>\n\nUse pnpm.\n</coding_guidelines>\n\n"
        "## Personal Global Instructions:\n% cat ~/.factory/AGENTS.md\n<coding_guidelines>\nMine.\n</coding_guidelines>"
    )


@pytest.mark.parametrize(
    ("files", "target", "loaded", "not_loaded"),
    [
        pytest.param(
            {"AGENTS.md": "root\n", "a/CLAUDE.md": "a\n", "a/b/AGENTS.md": "b\n", "a/b/agents.md": "b lower\n"},
            "a/b/f.ts",
            ["a/CLAUDE.md", "a/b/AGENTS.md", "a/b/agents.md"],
            {},
            id="directories-below-cwd-every-agents-spelling",
        ),
        pytest.param({"a/AGENTS.md": "a\n"}, "a/f.ts", [], {"a/AGENTS.md": R.ALREADY_LOADED}, id="not-what-was-sent"),
    ],
)
def test_on_read(workspace, files, target, loaded, not_loaded) -> None:
    ws = workspace(files)
    cascade = ws.on_read("droid", target, loaded=list(not_loaded))
    assert ws.loaded(cascade) == loaded
    assert ws.not_loaded(cascade) == not_loaded
    if loaded:
        assert text(cascade).startswith(f"{READ_HEADER}## {ws.path(loaded[0])}\n<coding_guidelines>\n")


def _skill(name: str, description: str = "Helps.", extra: str = "") -> str:
    return f"---\nname: {name}\ndescription: {description}\n{extra}---\n\nBody.\n"


@pytest.mark.parametrize(
    ("files", "target", "earlier", "expected"),
    [
        pytest.param(
            {"p/CLAUDE.md": "p\n", "p/.agents/skills/h/SKILL.md": _skill("h-alt")},
            "p/x.ts",
            [],
            "<system-reminder>\nAdditional project instructions discovered along the accessed paths:\n\n## {p}/CLAUDE.md\n"
            "<coding_guidelines>\np\n</coding_guidelines>\n\nNew skills discovered along the accessed paths and now "
            "available via the Skill tool:\n\n- h-alt: Helps. (project)\n</system-reminder>",
            id="after-the-files",
        ),
        pytest.param(
            {"p/.factory/skills/a/SKILL.md": _skill("a", '""'), "p/.agent/skills/b/SKILL.md": _skill("b")},
            "p/x.ts",
            [],
            "<system-reminder>\nNew skills discovered along the accessed paths and now available via the Skill tool:\n\n"
            "- a: No description (project)\n\n- b: Helps. (project)\n</system-reminder>",
            id="alone-one-paragraph-each",
        ),
        pytest.param(
            {".factory/skills/t/SKILL.md": _skill("t"), "p/.agents/skills/t/SKILL.md": _skill("t")},
            "p/x.ts",
            [],
            "",
            id="start-skill-shadows",
        ),
        pytest.param(
            {"p/.agents/skills/h/SKILL.md": _skill("h"), "q/.agents/skills/h/SKILL.md": _skill("h")},
            "q/x.ts",
            ["p/x.ts"],
            "",
            id="earlier-read-wins",
        ),
        pytest.param({"p/.agents/skills/h/SKILL.md": _skill("h")}, "p/y.ts", ["p/x.ts"], "", id="once-a-session"),
        pytest.param({"p/.agents/skills/n/SKILL.md": "---\nname: n\n---\n\nBody.\n"}, "p/x.ts", [], "", id="no-description-key"),
        pytest.param({"p/.agents/skills/o/SKILL.md": _skill("o", extra="enabled: false\n")}, "p/x.ts", [], "", id="disabled"),
    ],
)
def test_on_read_skills(workspace, files, target, earlier, expected) -> None:
    """GD-15: skills found on read are announced in the read's reminder (droid `Ie`)."""
    ws = workspace(files)
    assert text(ws.on_read("droid", target, earlier=earlier)) == expected.replace("{p}", ws.path("p"))
