"""client-vscode/package.json lists every server setting exactly as the pydantic model defines it.

Compares names, types, enums, bounds, defaults and descriptions in both directions; the client-only
settings (how to start the server, protocol tracing) are the only keys allowed beyond the model.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from lsp_agents.core.settings import Settings

PACKAGE_JSON = Path(__file__).resolve().parents[1] / "client-vscode" / "package.json"
PREFIX = "lspAgents."
CLIENT_ONLY = {"lspAgents.server.command", "lspAgents.server.python", "lspAgents.server.importStrategy", "lspAgents.trace.server"}
JSON_TYPES = {"string": str, "boolean": bool, "integer": int, "number": (int, float), "array": list, "object": dict}


def _resolve(schema: dict, defs: dict) -> dict:
    return defs[schema["$ref"].rsplit("/", 1)[-1]] if "$ref" in schema else schema


def shape(schema: dict, defs: dict | None = None) -> frozenset:
    """A comparable form of a JSON schema: one tuple per accepted JSON type, with enum, bounds and members."""
    defs = defs or {}
    schema = _resolve(schema, defs)
    variants = schema.get("anyOf") or [schema]
    out = set()
    for variant in map(lambda v: _resolve(v, defs), variants):
        enum = [variant["const"]] if "const" in variant else variant.get("enum")
        types = variant.get("type") or ("string" if "const" in variant else None)
        for kind in types if isinstance(types, list) else [types]:
            if kind == "null":
                out.add(("null",))
                continue
            values = None if enum is None else tuple(sorted(v for v in enum if v is not None))
            items = shape(variant["items"], defs) if "items" in variant else None
            extra = variant.get("additionalProperties")
            members = shape(extra, defs) if isinstance(extra, dict) else None
            out.add((kind, values, variant.get("minimum"), variant.get("maximum"), items, members))
    return frozenset(out)


def model_settings() -> tuple[dict[str, dict[str, Any]], dict]:
    """(`lspAgents.<dotted alias>` → {schema, default, description}, $defs), nested models flattened."""
    schema = Settings.model_json_schema(by_alias=True)
    defs = schema.get("$defs", {})
    defaults = Settings().model_dump(by_alias=True, mode="json")
    flat: dict[str, dict[str, Any]] = {}

    def walk(properties: dict, prefix: str, values: dict) -> None:
        for name, prop in properties.items():
            target = _resolve(prop, defs)
            if "properties" in target:  # a nested settings model: its fields are settings of their own
                walk(target["properties"], f"{prefix}{name}.", values[name])
            else:
                flat[PREFIX + prefix + name] = {"schema": prop, "default": values[name], "description": prop.get("description")}

    walk(schema["properties"], "", defaults)
    return flat, defs


MODEL, DEFS = model_settings()


@pytest.fixture(scope="module")
def contributed() -> dict[str, dict[str, Any]]:
    return json.loads(PACKAGE_JSON.read_text(encoding="utf-8"))["contributes"]["configuration"]["properties"]


def test_every_model_setting_is_contributed(contributed):
    assert sorted(set(MODEL) - set(contributed)) == []


def test_every_contributed_setting_is_in_the_model_or_client_only(contributed):
    assert sorted(set(contributed) - set(MODEL) - CLIENT_ONLY) == []


def test_client_only_settings_exist(contributed):
    assert CLIENT_ONLY <= set(contributed)


@pytest.mark.parametrize("name", sorted(MODEL))
def test_type_enum_and_bounds_match(name, contributed):
    assert shape(contributed[name]) == shape(MODEL[name]["schema"], DEFS)


@pytest.mark.parametrize("name", sorted(MODEL))
def test_default_matches(name, contributed):
    assert "default" in contributed[name], f"{name} has no default in package.json"
    assert contributed[name]["default"] == MODEL[name]["default"]


@pytest.mark.parametrize("name", sorted(MODEL))
def test_description_matches(name, contributed):
    assert contributed[name].get("description") == MODEL[name]["description"]


@pytest.mark.parametrize("name", sorted(CLIENT_ONLY))
def test_client_only_defaults_fit_their_type(name, contributed):
    prop = contributed[name]
    assert isinstance(prop["default"], JSON_TYPES[prop["type"]])
    assert "enum" not in prop or prop["default"] in prop["enum"]


def test_shape_tells_settings_apart():
    """The comparison itself can fail: types, enums, bounds and nullability all count."""
    assert shape({"type": "integer", "minimum": 0}) != shape({"type": "integer"})
    assert shape({"type": "string", "enum": ["a"]}) != shape({"type": "string", "enum": ["a", "b"]})
    assert shape({"type": ["string", "null"]}) != shape({"type": "string"})
    assert shape({"anyOf": [{"type": "string"}, {"type": "null"}]}) == shape({"type": ["string", "null"]})
    assert shape({"const": "auto", "type": "string"}) == shape({"type": "string", "enum": ["auto"]})
