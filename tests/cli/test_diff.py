"""`lsp-agents diff` through the CLI on scripted git histories: the prompt changes each kind of
edit makes, findings introduced and resolved, the exit status, and that git's objects (not the
work tree) are what a revision shows, with nothing written into the repository."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import cli_process
import pytest

GIT_ENV = {
    **os.environ,
    "GIT_AUTHOR_NAME": "Test",
    "GIT_AUTHOR_EMAIL": "test@example.com",
    "GIT_COMMITTER_NAME": "Test",
    "GIT_COMMITTER_EMAIL": "test@example.com",
    "GIT_AUTHOR_DATE": "2026-01-01T00:00:00Z",
    "GIT_COMMITTER_DATE": "2026-01-01T00:00:00Z",
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_CONFIG_GLOBAL": os.devnull,
}
CURSOR_ALWAYS = "---\nalwaysApply: true\n---\n- Prefer small functions.\n"
CURSOR_GLOBS = "---\nglobs: '**/*.py'\nalwaysApply: false\n---\n- Type every function.\n"


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], env=GIT_ENV, check=True, capture_output=True, text=True).stdout


def write(repo: Path, files: dict[str, str]) -> None:
    for relative, text in files.items():
        path = repo / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def commit(repo: Path, files: dict[str, str], message: str) -> str:
    write(repo, files)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--allow-empty", "-m", message)
    return git(repo, "rev-parse", "HEAD").strip()


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    (tmp_path / "home").mkdir()
    return repo


def diff(repo: Path, *args: str, home: Path | None = None) -> subprocess.CompletedProcess:
    home = home or repo.parent / "home"
    return cli_process.run(
        ["diff", *args, "--home", str(home)], cwd=repo, timeout=300, env={**os.environ, "GIT_CONFIG_GLOBAL": os.devnull}
    )


def diff_json(repo: Path, *args: str, home: Path | None = None, status: int = 0) -> dict:
    result = diff(repo, *args, "--format", "json", home=home)
    assert result.returncode == status, result.stderr
    return json.loads(result.stdout)


def changes_of(answer: dict, harness: str) -> list[dict]:
    return [c for c in answer["changes"] if c["harness"] == harness]


def test_a_nested_claude_md_turns_agents_md_off_in_one_package(repo: Path) -> None:
    base = commit(
        repo,
        {"AGENTS.md": "# Rules\n- Use tabs.\n", "packages/api/package.json": "{}\n", "packages/api/AGENTS.md": "# API\n- Log.\n"},
        "agents",
    )
    head = commit(repo, {"packages/api/CLAUDE.md": "# API for Claude\n- Be brief.\n"}, "claude")
    answer = diff_json(repo, base, head, "--harness", "claude-code", "--harness", "codex")
    assert answer["base"]["commit"] == base and answer["head"]["commit"] == head
    [change] = changes_of(answer, "claude-code")
    assert change["launch_directories"] == ["packages/api"]
    assert [f["path"] for f in change["added"]] == ["packages/api/CLAUDE.md"]
    removed = {f["path"]: f["now"] for f in change["removed"]}
    assert removed["AGENTS.md"] == {"reason": "claude-md-present", "kind": "shadowed", "related": None}
    assert removed["packages/api/AGENTS.md"]["kind"] == "shadowed"
    assert changes_of(answer, "codex") == []  # Codex reads no CLAUDE.md
    assert answer["summary"]["prompts_changed"] == 1


def _agents_md(setup_lines: int) -> str:
    setup = "".join(f"- Setup step {n}: install the tool chain and check it twice.\n" for n in range(setup_lines))
    testing = "".join(f"- Test rule {n}: run the whole suite before pushing.\n" for n in range(6))
    return f"# Project\n\n## Setup\n{setup}\n## Testing\n{testing}\n## Release\n- Tag from main only.\n"


def test_more_bytes_in_agents_md_push_codex_cut_above_a_section(repo: Path) -> None:
    home = repo.parent / "home"
    write(home, {".codex/config.toml": "project_doc_max_bytes = 1024\n"})
    base = commit(repo, {"AGENTS.md": _agents_md(4)}, "short")
    assert len(_agents_md(4).encode()) < 1024 < len(_agents_md(12).encode())
    head = commit(repo, {"AGENTS.md": _agents_md(12)}, "longer")
    answer = diff_json(repo, base, head, "--harness", "codex", home=home)
    [change] = changes_of(answer, "codex")
    [resized] = change["resized"]
    assert resized["path"] == "AGENTS.md"
    assert resized["before"]["cut"] is None
    assert resized["after"]["bytes"] == 1024
    assert resized["after"]["cut"]["section"] == "## Testing"
    assert resized["sections_lost"] == ["## Release"]
    assert "truncated" in {f["code"] for f in answer["findings"]["introduced"]}
    markdown = diff(repo, base, head, "--harness", "codex", "--format", "markdown", home=home).stdout
    assert "cut at line" in markdown and "no longer sent: `## Release`" in markdown


def test_a_renamed_cursor_rules_folder_drops_its_rules(repo: Path) -> None:
    base = commit(
        repo, {".cursor/rules/style.mdc": CURSOR_ALWAYS, ".cursor/rules/python.mdc": CURSOR_GLOBS, "app.py": ""}, "rules"
    )
    git(repo, "mv", ".cursor/rules", ".cursor/rule")
    head = commit(repo, {}, "renamed")
    [change] = changes_of(diff_json(repo, base, head, "--harness", "cursor"), "cursor")
    assert change["launch_directories"] == ["."]
    assert [(f["path"], f["now"]) for f in change["removed"]] == [(".cursor/rules/style.mdc", None)]
    [skipped] = change["skipped"]
    assert skipped["path"] == ".cursor/rules/python.mdc"
    assert skipped["before"]["kind"] == "on-demand" and skipped["after"] is None


def test_a_finding_introduced_and_one_resolved_set_the_exit_status(repo: Path) -> None:
    base = commit(repo, {"CLAUDE.md": "# Rules\nSee @docs/setup.md\n"}, "import")
    head = commit(repo, {"docs/setup.md": "Install it.\n", "AGENTS.md": "# Rules\n- Hidden \u202e text.\n"}, "fix and break")
    harnesses = ("--harness", "claude-code", "--harness", "codex")
    answer = diff_json(repo, base, head, *harnesses, "--enable", "hidden-unicode", status=1)
    assert [f["code"] for f in answer["findings"]["introduced"]] == ["hidden-unicode"]
    assert [f["code"] for f in answer["findings"]["resolved"]] == ["import-not-found"]
    assert answer["findings"]["introduced"][0]["severity"] == "error"
    assert diff(repo, base, head, *harnesses, "--enable", "hidden-unicode", "--fail-on", "never").returncode == 0
    assert diff(repo, base, head, *harnesses).returncode == 0  # a hint by default: below --fail-on error
    text = diff(repo, base, head, *harnesses).stdout
    assert "1 finding introduced, 1 resolved" in text.splitlines()[-1]


def test_no_change_gives_an_empty_diff_and_exit_0(repo: Path) -> None:
    commit(repo, {"AGENTS.md": "# Rules\n- Use tabs.\n", "CLAUDE.md": "@AGENTS.md\n"}, "one")
    result = diff(repo, "HEAD")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().endswith("no prompt changes; 0 findings introduced, 0 resolved")
    answer = diff_json(repo, "HEAD")
    assert answer["changes"] == [] and answer["findings"] == {"introduced": [], "resolved": []}
    assert answer["head"] == {"name": "work tree", "commit": None}


def _git_state(repo: Path) -> dict[str, tuple[int, int]]:
    return {str(p): (p.stat().st_size, p.stat().st_mtime_ns) for p in (repo / ".git").rglob("*") if p.is_file()}


def test_the_work_tree_side_sees_uncommitted_edits_and_nothing_is_written(repo: Path) -> None:
    commit(repo, {"AGENTS.md": "# Rules\n- Use tabs.\n"}, "one")
    git(repo, "branch", "feature")
    git(repo, "checkout", "-q", "feature")
    commit(repo, {"AGENTS.md": "# Rules\n- Use tabs.\n- Commit often.\n"}, "two")
    (repo / "AGENTS.md").write_text("# Rules\n- Use tabs.\n- Commit often.\n- Uncommitted too.\n", encoding="utf-8")
    before = _git_state(repo)
    answer = diff_json(repo, "--harness", "codex")  # the merge base with main, then the work tree
    assert answer["base"]["name"] == "main"
    [change] = changes_of(answer, "codex")
    [resized] = change["resized"]
    assert (resized["before"]["bytes"], resized["after"]["bytes"]) == (20, 55)
    assert _git_state(repo) == before
    assert git(repo, "status", "--porcelain") == " M AGENTS.md\n"


def test_a_revision_reads_git_objects_not_the_work_tree(repo: Path) -> None:
    commit(repo, {"AGENTS.md": "# Rules\n- Committed.\n"}, "one")
    os.symlink("AGENTS.md", repo / "CLAUDE.md")
    head = commit(repo, {}, "link")
    (repo / "CLAUDE.md").unlink()
    (repo / "AGENTS.md").write_text("# Rules\n- Only on disk, much longer than the committed text.\n", encoding="utf-8")
    answer = diff_json(repo, "HEAD~1", head, "--harness", "claude-code")
    [change] = changes_of(answer, "claude-code")
    assert [(f["path"], f["bytes"]) for f in change["added"]] == [("CLAUDE.md", 21)]  # the link, read through git
    assert [f["path"] for f in change["removed"]] == ["AGENTS.md"]


def test_a_revision_answers_which_files_are_symlinks_from_its_tree(repo: Path) -> None:
    """Committed: CLAUDE.md -> CONTRIBUTING.md, so Claude Code skips AGENTS.md for a document that is
    no guide for it (a shadowed file). On disk: CLAUDE.md a guide of its own, beside AGENTS.md on
    purpose (no finding). Each side judges the link by its own tree, not by the disk."""
    contributing = "# Contributing\n\n- Sign every commit\n- Open one pull request per change\n"
    rules = "# Rules\n\n- Run the whole test suite before you push\n- Keep functions short\n"
    commit(repo, {"AGENTS.md": rules, "CONTRIBUTING.md": contributing}, "guides")
    os.symlink("CONTRIBUTING.md", repo / "CLAUDE.md")
    linked = commit(repo, {}, "claude reads the contributing guide")
    (repo / "CLAUDE.md").unlink()
    (repo / "CLAUDE.md").write_text("# Claude\n\n- Answer in short sentences\n", encoding="utf-8")
    answer = diff_json(repo, linked, "--harness", "claude-code", "--harness", "codex")
    assert [(f["code"], f["path"]) for f in answer["findings"]["resolved"]] == [("shadowed-file", "AGENTS.md")]
    assert answer["findings"]["introduced"] == []


def test_markdown_puts_the_summary_first_and_a_collapsed_block_per_harness(repo: Path) -> None:
    base = commit(repo, {"AGENTS.md": "# Rules\n"}, "one")
    commit(repo, {"AGENTS.md": "# Rules\n- More.\n", "CLAUDE.md": "# Claude\n- Brief.\n"}, "two")
    result = diff(repo, base, "HEAD", "--harness", "codex", "--harness", "claude-code", "--format", "markdown")
    assert result.returncode == 0, result.stderr
    first, *rest = result.stdout.splitlines()
    assert first.startswith("**lsp-agents diff** ") and "2 prompts change (codex, claude-code)" in first
    assert result.stdout.count("<details><summary><b>") == result.stdout.count("</details>") == 2
    assert any(line.startswith("| + | `CLAUDE.md` |") for line in rest)


@pytest.mark.parametrize(
    ("args", "message"),
    [(["no-such-branch"], "'no-such-branch' is not a commit"), (["HEAD", "HEAD^{tree}"], "is not a commit"), (["--", "-x"], "")],
)
def test_a_bad_revision_is_a_usage_error(repo: Path, args: list[str], message: str) -> None:
    commit(repo, {"AGENTS.md": "# Rules\n"}, "one")
    result = diff(repo, *args)
    assert result.returncode == 2
    assert result.stderr.startswith("lsp-agents: error: ") and message in result.stderr
    assert result.stdout == ""


def test_a_directory_outside_git_is_a_usage_error(tmp_path: Path) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    (tmp_path / "home").mkdir()
    result = diff(plain, "HEAD", home=tmp_path / "home")
    assert result.returncode == 2
    assert result.stderr == f"lsp-agents: error: {plain} is not in a git work tree\n"


def test_a_hostile_revision_is_read_without_a_crash(repo: Path) -> None:
    """Links in a loop, out of the repository and into /proc, a name that is not UTF-8, a file
    larger than what is read: each is a reason in the cascade, never an error."""
    base = commit(repo, {"AGENTS.md": "# Rules\n"}, "one")
    os.symlink("CLAUDE.md", repo / "CLAUDE.md")
    os.symlink("/proc/self/environ", repo / "GEMINI.md")
    os.symlink("../../outside.md", repo / "QWEN.md")
    (repo / os.fsdecode(b"docs-\xff")).mkdir()
    (repo / os.fsdecode(b"docs-\xff") / "AGENTS.md").write_bytes(b"# Odd name\n")
    head = commit(repo, {"pkg/AGENTS.md": "# Big\n" + "x" * 300_000 + "\n"}, "hostile")
    result = diff(repo, base, head, "--harness", "all", "--format", "json")
    assert result.returncode == 0, result.stderr
    answer = json.loads(result.stdout)
    claude = {f["path"]: f for c in changes_of(answer, "claude-code") for f in c["skipped"]}
    assert claude["CLAUDE.md"]["after"]["reason"] == "symlink-loop"
    gemini = {f["path"]: f for c in changes_of(answer, "gemini") for f in c["skipped"]}
    assert gemini["GEMINI.md"]["after"]["reason"] == "system-file"
    assert "Traceback" not in result.stderr


def test_a_revision_shows_the_harnesses_its_own_tree_holds(repo: Path) -> None:
    """Committed: a `.cursor/` folder (no rules in it) marks Cursor as in use; on disk it is gone.
    The base side detects Cursor from its own tree, so Cursor's prompt (which holds AGENTS.md) is
    compared too, not only those of the harnesses the work tree shows."""
    base = commit(repo, {".cursor/mcp.json": "{}\n", "AGENTS.md": "# Rules\n\n- Keep functions short\n"}, "cursor in use")
    (repo / ".cursor" / "mcp.json").unlink()
    (repo / ".cursor").rmdir()
    write(repo, {"AGENTS.md": "# Rules\n\n- Keep functions short and named\n"})
    answer = diff_json(repo, base)
    assert changes_of(answer, "cursor"), [c["harness"] for c in answer["changes"]]


def test_the_config_s_new_order_of_instructions_is_a_reordered_prompt(repo: Path) -> None:
    files = {"AGENTS.md": "# Rules\n- Use tabs.\n", "docs/a.md": "# A\n- Alpha.\n", "docs/b.md": "# B\n- Beta.\n"}
    base = commit(repo, {**files, "opencode.json": '{"instructions": ["docs/a.md", "docs/b.md"]}\n'}, "a then b")
    head = commit(repo, {"opencode.json": '{"instructions": ["docs/b.md", "docs/a.md"]}\n'}, "b then a")
    [change] = changes_of(diff_json(repo, base, head, "--harness", "opencode"), "opencode")
    assert change["reordered"] == ["AGENTS.md", "docs/b.md", "docs/a.md"]
    assert (change["added"], change["removed"], change["resized"]) == ([], [], [])
    text = diff(repo, base, head, "--harness", "opencode").stdout
    assert "new order: AGENTS.md, docs/b.md, docs/a.md" in text


def test_a_rule_with_the_same_text_makes_agents_md_a_duplicate_claude_code_drops(repo: Path) -> None:
    rules = "# Rules\n- Use tabs everywhere in this repository.\n"
    base = commit(repo, {"AGENTS.md": rules}, "agents")
    head = commit(repo, {".claude/rules/style.md": rules}, "the same rules for Claude")
    [change] = changes_of(diff_json(repo, base, head, "--harness", "claude-code"), "claude-code")
    assert [f["path"] for f in change["added"]] == [".claude/rules/style.md"]
    [removed] = change["removed"]
    assert removed["path"] == "AGENTS.md"
    assert removed["now"] == {"reason": "same-text", "kind": "duplicated", "related": ".claude/rules/style.md"}


def test_an_instruction_file_emptied_is_no_longer_sent_and_says_why(repo: Path) -> None:
    files = {"AGENTS.md": "# Rules\n- Use tabs.\n", "docs/a.md": "# A\n- Alpha.\n"}
    base = commit(repo, {**files, "opencode.json": '{"instructions": ["docs/a.md"]}\n'}, "two files")
    head = commit(repo, {"docs/a.md": ""}, "emptied")
    [change] = changes_of(diff_json(repo, base, head, "--harness", "opencode"), "opencode")
    [removed] = change["removed"]
    assert removed["path"] == "docs/a.md"
    assert removed["now"] == {"reason": "empty", "kind": "unreachable", "related": None}
    assert "docs/a.md" in diff(repo, base, head, "--harness", "opencode").stdout.split("now unreachable")[0]
