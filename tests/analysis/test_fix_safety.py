"""Quick fixes lose no text: every fix `check --format json` offers, applied alone to a copy of the
files, removes only lines whose normalised text a file still holds afterwards.

The audit is `benchmarks/fix_safety.py`'s, which the real-world corpus also runs
(tests/realworld/test_fix_safety_corpus.py). Here: the case users found (a section where 2 of 4
bullets repeat elsewhere lost the other two), its neighbours, and generated pairs of files
whose sections partly repeat.
"""

from __future__ import annotations

import itertools
import sys
import tempfile
from pathlib import Path

import pytest
from analysis_helpers import check_json
from hypothesis import given, settings
from hypothesis import strategies as st
from workspace_files import write_tree

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import fix_safety


def audits(ws: Path, home: Path, *args: str) -> list[fix_safety.Audit]:
    _status, report = check_json(ws, home, *args)
    return fix_safety.audit(report["findings"], fix_safety.Files(ws))


def applied(ws: Path, fix: dict, path: str) -> str:
    files = fix_safety.Files(ws)
    files.apply(fix)
    return files.text[path]


def assert_safe(found: list[fix_safety.Audit]) -> None:
    losing = [(a.finding["path"], a.finding["fix"]["title"], a.lost) for a in found if a.lost]
    assert not losing, f"fixes that delete text nothing else holds: {losing}"


ROOT_TESTING = "# Root\n\n## Testing\n\n- Run the unit tests before every commit.\n- Keep each test independent of the others.\n"
STYLE = "\n## Style\n\nShort functions, please.\n"


def test_a_section_where_two_of_four_bullets_repeat_loses_only_those_two(workspace) -> None:
    """The two bullets said only here are too short to be compared, so the section bodies read
    the same: the section used to go whole, with them."""
    nested = (
        "# Pkg\n\n## Testing\n\n- Run the unit tests before every commit.\n- Use vitest.\n"
        "- Keep each test independent of the others.\n- No snapshots.\n" + STYLE
    )
    ws, home = workspace({"AGENTS.md": ROOT_TESTING, "pkg/AGENTS.md": nested})
    found = audits(ws, home, "--harness", "codex")
    assert_safe(found)
    assert [a.finding["fix"]["title"] for a in found] == ["Delete only the 2 repeated bullets"]
    assert (
        applied(ws, found[0].finding["fix"], "pkg/AGENTS.md") == "# Pkg\n\n## Testing\n\n- Use vitest.\n- No snapshots.\n" + STYLE
    )


def test_two_of_four_long_bullets_repeated_are_two_findings_each_deleting_its_bullet(workspace) -> None:
    nested = (
        "# Pkg\n\n## Testing\n\n- Run the unit tests before every commit.\n- Use vitest for every new test file.\n"
        "- Keep each test independent of the others.\n- Never update snapshots without a review.\n" + STYLE
    )
    ws, home = workspace({"AGENTS.md": ROOT_TESTING, "pkg/AGENTS.md": nested})
    found = audits(ws, home, "--harness", "codex")
    assert_safe(found)
    assert [a.finding["fix"]["title"] for a in found] == ["Delete the duplicate lines"] * 2


def test_a_whole_repeated_section_still_goes_with_its_heading(workspace) -> None:
    ws, home = workspace({"AGENTS.md": ROOT_TESTING, "pkg/AGENTS.md": "# Pkg\n\n" + ROOT_TESTING.split("\n\n", 1)[1] + STYLE})
    found = audits(ws, home, "--harness", "codex")
    assert_safe(found)
    assert [a.finding["fix"]["title"] for a in found] == ["Delete the duplicate section"]
    assert applied(ws, found[0].finding["fix"], "pkg/AGENTS.md") == "# Pkg\n" + STYLE


def test_a_heading_of_other_words_stays(workspace) -> None:
    """The bodies repeat; "## Tests" is not "## Testing", so the heading is not deleted."""
    nested = (
        "# Pkg\n\n## Tests\n\n- Run the unit tests before every commit.\n- Keep each test independent of the others.\n" + STYLE
    )
    ws, home = workspace({"AGENTS.md": ROOT_TESTING, "pkg/AGENTS.md": nested})
    found = audits(ws, home, "--harness", "codex")
    assert_safe(found)
    assert applied(ws, found[0].finding["fix"], "pkg/AGENTS.md") == "# Pkg\n\n## Tests\n" + STYLE


def test_a_code_block_of_its_own_keeps_the_section(workspace) -> None:
    nested = (
        "# Pkg\n\n## Testing\n\n- Run the unit tests before every commit.\n- Keep each test independent of the others.\n"
        "\n```sh\npnpm vitest --run\n```\n" + STYLE
    )
    ws, home = workspace({"AGENTS.md": ROOT_TESTING, "pkg/AGENTS.md": nested})
    found = audits(ws, home, "--harness", "codex")
    assert_safe(found)
    assert [a.finding["fix"]["title"] for a in found] == ["Delete only the 2 repeated bullets"]
    assert (
        applied(ws, found[0].finding["fix"], "pkg/AGENTS.md") == "# Pkg\n\n## Testing\n\n```sh\npnpm vitest --run\n```\n" + STYLE
    )


def test_a_bullet_with_details_of_its_own_is_not_deleted(workspace) -> None:
    """Bullets are compared on their first paragraph: the sub-bullets below it are this copy's own."""
    root = "# Root\n\n- Run the unit tests before every commit.\n"
    nested = "# Pkg\n\n- Run the unit tests before every commit.\n  - with `pnpm test --filter pkg`\n"
    ws, home = workspace({"AGENTS.md": root, "pkg/AGENTS.md": nested})
    _status, report = check_json(ws, home, "--harness", "codex")
    found = [f for f in report["findings"] if f["code"] == "duplicate-instruction"]
    assert len(found) == 1 and found[0]["fix"] is None


def test_a_near_duplicate_offers_no_deletion_of_its_other_words(workspace) -> None:
    root = "# Root\n\n- Run the unit tests before every single commit and never push anything directly to main.\n"
    nested = "# Pkg\n\n- Run the unit tests before every single commit and never push anything directly to production.\n"
    ws, home = workspace({"AGENTS.md": root, "pkg/AGENTS.md": nested})
    _status, report = check_json(ws, home, "--harness", "codex")
    found = [f for f in report["findings"] if f["code"] == "near-duplicate-instruction"]
    assert len(found) == 1 and found[0]["fix"] is None


def test_a_near_duplicate_section_loses_only_its_repeated_bullets(workspace) -> None:
    shared = (
        "- Run the unit tests before every commit.\n- Keep each test independent of the others.\n"
        "- Never push directly to the main branch.\n- Document every public function you add.\n"
    )
    root = "# Root\n\n## Rules\n\n" + shared + "- Prefer small pull requests over large ones.\n"
    nested = "# Pkg\n\n## Rules\n\n" + shared + "- Prefer small pull requests over big ones.\n" + STYLE
    ws, home = workspace({"AGENTS.md": root, "pkg/AGENTS.md": nested})
    found = audits(ws, home, "--harness", "codex")
    assert_safe(found)
    assert [(a.finding["code"], a.finding["fix"]["title"]) for a in found] == [
        ("near-duplicate-instruction", "Delete only the 4 repeated bullets")
    ]
    assert applied(ws, found[0].finding["fix"], "pkg/AGENTS.md") == (
        "# Pkg\n\n## Rules\n\n- Prefer small pull requests over big ones.\n" + STYLE
    )


def test_a_copy_that_a_harness_reads_without_the_other_is_not_deleted(workspace) -> None:
    """Copilot loads CLAUDE.md and AGENTS.md, Claude Code only CLAUDE.md, Codex only AGENTS.md:
    deleting either copy takes the bullet from a harness that has no other."""
    bullet = "- Run the unit tests before every commit.\n"
    ws, home = workspace({"AGENTS.md": "# Agents\n\n" + bullet, "CLAUDE.md": "# Claude\n\n- Use vitest.\n" + bullet})
    _status, report = check_json(ws, home, "--harness", "codex", "--harness", "claude-code", "--harness", "copilot")
    [found] = [f for f in report["findings"] if f["code"] == "duplicate-instruction"]
    assert found["harnesses"] == ["copilot"] and found["fix"] is None


def test_a_copy_whose_readers_all_load_the_other_is_deleted(workspace) -> None:
    """CLAUDE.md imports AGENTS.md: whoever reads CLAUDE.md reads AGENTS.md too."""
    bullet = "- Run the unit tests before every commit.\n"
    own = "# Claude\n\n@AGENTS.md\n\n- Use vitest for every new test file.\n- Prefer small pull requests over large ones.\n"
    ws, home = workspace({"AGENTS.md": "# Agents\n\n" + bullet, "CLAUDE.md": own + bullet})
    found = audits(ws, home, "--harness", "codex", "--harness", "claude-code", "--harness", "copilot")
    assert_safe(found)
    assert [(a.finding["path"], a.finding["fix"]["title"]) for a in found] == [("CLAUDE.md", "Delete the duplicate lines")]
    assert applied(ws, found[0].finding["fix"], "CLAUDE.md") == own


# -- generated pairs of files whose sections partly repeat ----------------------------------------

LONG = [
    "Run the unit tests before every commit.",
    "Keep each test independent of the others.",
    "Never push directly to the main branch.",
    "Document every public function you add.",
]
REWORDED = [
    "Run the unit tests before each commit.",
    "Keep every test independent of the others.",
    "Never push directly to the release branch.",
    "Document every public function you write.",
]
SHORT = ["Use vitest.", "No snapshots.", "Be brief."]


def _block() -> st.SearchStrategy[tuple[str, str]]:
    """(kind, Markdown) of one block of a section body."""
    sentence = st.sampled_from(LONG + REWORDED)
    return st.one_of(
        sentence.map(lambda s: ("bullet", f"- {s}")),
        st.sampled_from(SHORT).map(lambda s: ("bullet", f"- {s}")),
        sentence.map(lambda s: ("bullet", f"- {s}\n  - see `docs/testing.md` for the details")),
        sentence.map(lambda s: ("paragraph", s)),
        st.sampled_from(["```sh\npnpm test\n```", "```sh\nmake check\n```"]).map(lambda s: ("code", s)),
    )


def _section() -> st.SearchStrategy[str]:
    def render(heading: str, blocks: list[tuple[str, str]]) -> str:
        body = blocks[0][1]
        for (before, _), (kind, text) in itertools.pairwise(blocks):
            body += ("\n" if before == kind == "bullet" else "\n\n") + text
        return f"{heading}\n\n{body}\n"

    return st.builds(
        render, st.sampled_from(["## Testing", "## Tests", "## Rules", "### Notes"]), st.lists(_block(), min_size=1, max_size=5)
    )


_FILE = st.lists(_section(), min_size=1, max_size=3).map(lambda sections: "# Title\n\n" + "\n".join(sections))
# Two copies nested (Codex: the deeper one is deleted), in one directory (Copilot loads both: the
# file fewer harnesses read loses its copy), a deprecated name beside AGENTS.md, and one file.
_LAYOUTS = [("AGENTS.md", "pkg/AGENTS.md"), ("AGENTS.md", "CLAUDE.md"), ("AGENTS.md", "AGENT.md"), ("AGENTS.md", None)]


@pytest.mark.slow
@settings(max_examples=40, deadline=None, derandomize=True, database=None)
@given(first=_FILE, later=_FILE, layout=st.sampled_from(_LAYOUTS))
def test_no_fix_loses_text_on_files_whose_sections_partly_repeat(first: str, later: str, layout: tuple[str, str | None]) -> None:
    first_name, later_name = layout
    files = {first_name: first + "\n" + later} if later_name is None else {first_name: first, later_name: later}
    with tempfile.TemporaryDirectory(prefix="lsp-agents-fix-safety-") as tmp:
        ws, home = Path(tmp) / "ws", Path(tmp) / "home"
        (ws / ".git").mkdir(parents=True)
        home.mkdir()
        write_tree(ws, files)
        assert_safe(audits(ws, home, "--harness", "codex", "--harness", "copilot", "--harness", "claude-code"))
