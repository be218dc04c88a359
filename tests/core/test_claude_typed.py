"""Claude Code's reading of a typed line (`claude_typed`): where the name ends, and `NAME:WORD`."""

from __future__ import annotations

from lsp_agents.core.agents.claude_typed import ParsedLine, parse_line, subcommand


def test_the_name_ends_at_any_javascript_white_space() -> None:
    assert parse_line("  /deploy\tnow  ") == ParsedLine("deploy", "now")
    assert parse_line("/deploy\u00a0now") == ParsedLine("deploy", "now")
    assert parse_line("/deploy\u3000 a  b ") == ParsedLine("deploy", "a  b")
    assert parse_line("/v1.2") == ParsedLine("v1.2", "")


def test_no_name_no_command() -> None:
    assert parse_line("/") is None and parse_line("/ x") is None and parse_line("deploy") is None


def test_the_first_word_joins_the_name_only_when_that_names_something() -> None:
    known = {"ns:tool", "init"}.__contains__
    assert subcommand(ParsedLine("ns", "tool\t go"), known) == ParsedLine("ns:tool", "go")
    assert subcommand(ParsedLine("ns", "tool"), known) == ParsedLine("ns:tool", "")
    assert subcommand(ParsedLine("ns", "other go"), known) == ParsedLine("ns", "other go")
    assert subcommand(ParsedLine("init", "tool"), known) == ParsedLine("init", "tool")
    assert subcommand(ParsedLine("ns", ""), known) == ParsedLine("ns", "")
