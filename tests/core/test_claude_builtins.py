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
