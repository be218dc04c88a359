"""YAML text parsed safely, the parser imported when the first YAML text is met.

Many workspaces hold no YAML that the analysis parses (frontmatter, Continue's config, Codex's
skill metadata); importing the parser is a tenth of a short `lsp-agents check`. Every caller also
treats a parser that gives up the same way: a YAML error, a recursion too deep for it or a value
it cannot build is one `InvalidYaml`.
"""

from __future__ import annotations


class InvalidYaml(ValueError):
    """Text the YAML parser rejects. `str()` is the parser's whole message; `problem` its
    complaint alone, and `line` the 0-based line it stopped at, where it names one."""

    def __init__(self, message: str, problem: str, line: int | None) -> None:
        super().__init__(message)
        self.problem = problem
        self.line = line


def parse_yaml(text: str) -> object:
    """`yaml.safe_load(text)`; InvalidYaml when the parser rejects it."""
    import yaml

    try:
        return yaml.safe_load(text)
    except (yaml.YAMLError, RecursionError, ValueError) as exc:
        mark = getattr(exc, "problem_mark", None)
        raise InvalidYaml(str(exc), str(getattr(exc, "problem", None) or exc), mark.line if mark else None) from None
