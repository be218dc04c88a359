"""Repeats that are not instructions written twice, found by blind review of real repositories
(development batch 11): a copy the harness never sends, a file repeated whole, the labels and fields
of entries of one form. Each one a small workspace shaped like the repository where it was seen,
checked through `lsp-agents check`."""

from __future__ import annotations

from analysis_helpers import check_json


def _found(ws, home, *harnesses: str) -> list[tuple[str, str, int]]:
    args = [a for h in harnesses for a in ("--harness", h)]
    _rc, data = check_json(ws, home, *args, "--fail-on", "never", "--enable", "all")
    return sorted((f["code"], f["path"], f["range"]["start"]["line"] + 1) for f in data["findings"])


TESTS_FIRST = "- Run the whole test suite with pytest before you push a branch\n"


def test_a_file_repeated_whole_is_one_finding_not_one_per_item(workspace) -> None:
    """Roo Code's code mode sends `.roo/rules-code/` and `.roo/rules/`; a guide copied into both is
    one repeat, the whole file, even where one of its items repeats a third file too."""
    guide = "# Insert content\n\n" + TESTS_FIRST + "- Insert whole lines, never parts of a line, at the given line number\n"
    ws, home = workspace(
        {
            ".roo/rules-code/code_editing.md": "# Code editing\n\n" + TESTS_FIRST,
            ".roo/rules-code/insert_content.md": guide,
            ".roo/rules/insert_content.md": guide,
        }
    )
    assert _found(ws, home, "roo") == [
        ("duplicate-file", ".roo/rules/insert_content.md", 1),
        ("duplicate-instruction", ".roo/rules-code/insert_content.md", 3),
    ]


SPECIALISTS = """# Agents

## When to use which agent

**DevOps Engineer** (`agents/devops.json`)

✅ **Use for:**
- Container image optimisation and Dockerfile improvements
- Build performance issues in the pipeline

❌ **Don't use for:**
- General code implementation (use Primary Developer Agent)
- Business logic or state management in components

**Security Specialist** (`agents/security.json`)

✅ **Use for:**
- Authentication and authorisation reviews of new endpoints

❌ **Don't use for:**
- General code implementation (use Primary Developer Agent)
- Infrastructure setup (use the DevOps Engineer instead)
"""


def test_the_labels_and_lists_of_entries_of_one_form_are_no_repeats(workspace) -> None:
    """Each specialist's entry opens its lists with the same labels ("❌ **Don't use for:**",
    the colon inside the emphasis): a label introduces, it says nothing twice, and what one
    label lists in two entries belongs to each entry."""
    ws, home = workspace({"AGENTS.md": SPECIALISTS})
    assert _found(ws, home, "opencode") == []
    # A label pasted again with its list is a copy.
    pasted = "\n**Auth errors:**\n- Unauthorized (401) means the caller is unknown to the service\n"
    (ws / "AGENTS.md").write_text(SPECIALISTS + pasted + pasted)
    assert _found(ws, home, "opencode") == [("duplicate-instruction", "AGENTS.md", 28)]
    # The same bullet twice in one entry's list is still a repeat.
    (ws / "AGENTS.md").write_text(SPECIALISTS + "- Infrastructure setup (use the DevOps Engineer instead)\n")
    assert _found(ws, home, "opencode") == [("duplicate-instruction", "AGENTS.md", 23)]


def _bullets(count: int, topic: str) -> str:
    return "".join(f"- Keep the {topic} module number {n} small and focused on its one job\n" for n in range(count))


def test_a_copy_past_the_harness_cut_is_never_sent_twice(workspace) -> None:
    """Windsurf cuts a rule file past 12,000 characters: a rules block a generator appended again
    after 23,000 characters is never sent, so nothing of it is sent twice."""
    head = "# Rules\n\n" + TESTS_FIRST + _bullets(200, "parser")
    ws, home = workspace({".windsurfrules": head + "\n# Rules again\n\n" + TESTS_FIRST})
    assert len(head) > 12_000
    assert _found(ws, home, "windsurf") == []
    # Within the cut, the same bullet is sent twice.
    (ws / ".windsurfrules").write_text("# Rules\n\n" + TESTS_FIRST + _bullets(3, "parser") + TESTS_FIRST)
    assert _found(ws, home, "windsurf") == [("duplicate-instruction", ".windsurfrules", 7)]
