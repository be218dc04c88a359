"""YAML text parsed safely, the parser imported when the first YAML text is met.

Many workspaces hold no YAML that the analysis parses (frontmatter, Continue's config, Codex's
skill metadata); importing the parser is a tenth of a short `lsp-agents check`. Every caller also
treats a parser that gives up the same way: a YAML error, a recursion too deep for it or a value
it cannot build is one `InvalidYaml`.

PyYAML resolves plain scalars by YAML 1.1 (`yes`, `off` are booleans, `2024-01-01` a date); a
caller that mirrors a parser of YAML 1.2 (the JavaScript `yaml` package's default) asks for the
1.2 core schema instead (`core_schema=True`), which also rejects a mapping holding a key twice, as
that package does by default (`uniqueKeys`; PyYAML keeps the last value).
"""

from __future__ import annotations

import math
from functools import cache
from typing import Any

# The implicit types of the YAML 1.2 core schema, as the `yaml` package (2.x) tests a plain
# scalar (`dist/schema/core/{bool,int,float}.js`, `common/null.js`); every other one is a string.
_CORE_RESOLVERS = (
    ("null", r"^(?:~|[Nn]ull|NULL)?$"),
    ("bool", r"^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$"),
    ("int", r"^(?:0o[0-7]+|[-+]?[0-9]+|0x[0-9a-fA-F]+)$"),
    ("float", r"^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$"),
    ("float", r"^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$"),
    ("float", r"^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$"),
)


class InvalidYaml(ValueError):
    """Text the YAML parser rejects. `str()` is the parser's whole message; `problem` its
    complaint alone, and `line` the 0-based line it stopped at, where it names one."""

    def __init__(self, message: str, problem: str, line: int | None) -> None:
        super().__init__(message)
        self.problem = problem
        self.line = line


@cache
def _core_schema_loader() -> Any:
    """A SafeLoader that resolves plain scalars by the YAML 1.2 core schema only."""
    import re

    import yaml

    class CoreSchemaLoader(yaml.SafeLoader):
        def construct_yaml_int(self, node: Any) -> int:
            """Decimal, `0o` octal or `0x` hexadecimal (YAML 1.1 read `010` as octal)."""
            text = str(self.construct_scalar(node))
            base = {"0o": 8, "0x": 16}.get(text[:2])
            return int(text[2:], base) if base else int(text)

        def construct_mapping(self, node: Any, deep: bool = False) -> dict[Any, Any]:
            """A mapping, rejected when it holds a key twice (the package's `uniqueKeys`: scalars
            of one value; an alias is no scalar there, so it equals no other key)."""
            seen: set[tuple[str, object]] = set()
            nodes: set[int] = set()
            for key_node, _value in node.value:
                if id(key_node) in nodes or not isinstance(key_node, yaml.ScalarNode):
                    continue
                nodes.add(id(key_node))
                key = _js_key(self.construct_object(key_node))
                if key in seen:
                    raise yaml.constructor.ConstructorError(None, None, "map keys must be unique", key_node.start_mark)
                if key is not None:
                    seen.add(key)
            return super().construct_mapping(node, deep)

    CoreSchemaLoader.yaml_implicit_resolvers = {}  # none of SafeLoader's YAML 1.1 ones
    for tag, pattern in _CORE_RESOLVERS:
        CoreSchemaLoader.add_implicit_resolver(f"tag:yaml.org,2002:{tag}", re.compile(pattern), None)
    CoreSchemaLoader.add_constructor("tag:yaml.org,2002:int", CoreSchemaLoader.construct_yaml_int)
    return CoreSchemaLoader


def _js_key(value: object) -> tuple[str, object] | None:
    """A scalar key as `a.value === b.value` compares it: numbers by value whatever their type, a
    boolean never equal to a number; None where it equals nothing (NaN, a value no scalar has)."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return type(value).__name__, value
    if isinstance(value, (int, float)):
        try:
            number = float(value)
        except OverflowError:  # an integer past the largest double: JavaScript's Number is infinite
            number = math.copysign(math.inf, value)
        return None if math.isnan(number) else ("number", number)
    return None


def parse_yaml(text: str, *, core_schema: bool = False) -> object:
    """`yaml.safe_load(text)`, with `core_schema` by the YAML 1.2 core schema; InvalidYaml when
    the parser rejects it."""
    import yaml

    try:
        return yaml.load(text, _core_schema_loader()) if core_schema else yaml.safe_load(text)  # noqa: S506 - a SafeLoader subclass
    except (yaml.YAMLError, RecursionError, ValueError) as exc:
        mark = getattr(exc, "problem_mark", None)
        raise InvalidYaml(str(exc), str(getattr(exc, "problem", None) or exc), mark.line if mark else None) from None
