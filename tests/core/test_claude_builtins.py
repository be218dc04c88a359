"""Claude Code's built-in commands table (`claude_builtins`): each name once, aliases that lead to one."""

from __future__ import annotations

from collections import Counter

from lsp_agents.core.agents.claude_builtins import BUILTIN_PROMPT, Builtin, BuiltinKind, builtin_names, find_builtin


def test_each_name_has_one_kind() -> None:
    counts = Counter(name for kind in BuiltinKind for name in builtin_names(kind))
    assert [name for name, count in counts.items() if count > 1] == []


def test_aliases_run_their_built_in() -> None:
    assert find_builtin("review") == Builtin("review", "code-review", BuiltinKind.FORKED)
    assert find_builtin("cost") == Builtin("cost", "usage", BuiltinKind.LOCAL)
    assert find_builtin("stats") == Builtin("stats", "usage", BuiltinKind.LOCAL)
    assert find_builtin("settings") == Builtin("settings", "config", BuiltinKind.LOCAL)


def test_names_are_matched_as_typed() -> None:
    assert find_builtin("INIT") is None and find_builtin("pr-comments") is None and find_builtin("") is None


def test_a_prompt_built_in_shows_the_placeholder_the_comparison_matches() -> None:
    message = Builtin("loop", "loop", BuiltinKind.PROMPT).message("  every 5m  ")
    assert message.startswith("<command-message>loop</command-message>\n<command-name>/loop</command-name>\n")
    assert "<command-args>every 5m</command-args>\n" in message and BUILTIN_PROMPT.search(message)
    assert find_builtin("loop") == Builtin("loop", "loop", BuiltinKind.PROMPT)
    assert not Builtin("clear", "clear", BuiltinKind.LOCAL).sends_prompt


def test_the_arguments_a_prompt_holds_are_searched_for_mentions_in_their_place() -> None:
    assert find_builtin("debug").mention_text(" see @a.txt ") == "see @a.txt"  # at a line's start
    assert find_builtin("review").mention_text("@a.txt") == "`@a.txt`"  # /code-review quotes them in backticks
    assert find_builtin("deep-research").mention_text("@a.txt") == '"@a.txt"'
    assert find_builtin("init").mention_text("@a.txt") == "" and find_builtin("cost").mention_text("@a.txt") == ""
