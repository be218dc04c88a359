"""`parse_yaml(core_schema=True)`: plain scalars typed as the JavaScript `yaml` package's YAML 1.2
core schema types them (`dist/schema/core/*.js`), the default of PyYAML left as YAML 1.1."""

from __future__ import annotations

import datetime
import math

import pytest

from lsp_agents.core.yaml_text import InvalidYaml, parse_yaml


@pytest.mark.parametrize(
    ("scalar", "core", "yaml_1_1"),
    [
        ("yes", "yes", True),
        ("off", "off", False),
        ("True", True, True),
        ("FALSE", False, False),
        ("~", None, None),
        ("010", 10, 8),
        ("0o17", 15, "0o17"),
        ("0x1F", 31, 31),
        ("1e3", 1000.0, "1e3"),
        ("1_000", "1_000", 1000),
        ("0b11", "0b11", 3),
        ("1:20", "1:20", 80),
        ("2024-01-01", "2024-01-01", datetime.date(2024, 1, 1)),
    ],
)
def test_plain_scalars(scalar: str, core: object, yaml_1_1: object) -> None:
    assert parse_yaml(f"k: {scalar}", core_schema=True) == {"k": core}
    assert parse_yaml(f"k: {scalar}") == {"k": yaml_1_1}


def test_core_schema_keys_and_special_floats() -> None:
    parsed = parse_yaml("yes: .inf\n<<: =\nn: .nan", core_schema=True)
    assert isinstance(parsed, dict)
    assert parsed["yes"] == math.inf and parsed["<<"] == "=" and math.isnan(parsed["n"])


def test_core_schema_still_rejects_bad_yaml() -> None:
    with pytest.raises(InvalidYaml):
        parse_yaml("k: [unclosed", core_schema=True)


@pytest.mark.parametrize(
    "text",
    [
        "a: 1\na: 2",
        "true: a\nTrue: b",
        "1: a\n1.0: b",
        "0x10: a\n16: b",
        "~: a\nnull: b",
        "m: {k: 1, k: 2}",
        "m:\n  k: 1\n  k: 2",
    ],
)
def test_core_schema_rejects_a_key_twice(text: str) -> None:
    """The package's `uniqueKeys`: scalar keys of one value (numbers compared as numbers)."""
    with pytest.raises(InvalidYaml, match="unique"):
        parse_yaml(text, core_schema=True)
    assert isinstance(parse_yaml(text), dict)  # PyYAML keeps the last value


@pytest.mark.parametrize(
    ("text", "parsed"),
    [
        ('1: a\n"1": b', {1: "a", "1": "b"}),
        ("name: a\nName: b", {"name": "a", "Name": "b"}),
        ("&x k: 1\n*x : 2", {"k": 2}),  # an alias is no scalar to the package: it equals no key
    ],
)
def test_core_schema_keys_that_differ(text: str, parsed: object) -> None:
    assert parse_yaml(text, core_schema=True) == parsed
