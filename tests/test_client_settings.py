"""client-vscode/package.json lists every server setting exactly as the pydantic model defines it.

Compares names, types, enums, bounds, defaults and descriptions in both directions; the client-only
settings (how to start the server, protocol tracing) are the only keys allowed beyond the model.
The defaults are those of the model's JSON schema: what an editor sends (an empty list where the
model reads "auto"). Descriptions are Markdown (`markdownDescription`), so code renders as code.

Trust: VS Code merges the repository's own `.vscode/settings.json` into what the server reads, so
every setting the model marks user-only is machine-scoped (workspace settings cannot set it) and
ignored in Restricted Mode, and so is every client setting that chooses what runs.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from lsp_agents.core.settings import Settings, UserOnly, marked, parse_settings
from lsp_agents.core.settings_schema import json_schema, model

PACKAGE_JSON = Path(__file__).resolve().parents[1] / "client-vscode" / "package.json"
PREFIX = "lspAgents."
CLIENT_ONLY = {"lspAgents.server.command", "lspAgents.server.python", "lspAgents.server.importStrategy", "lspAgents.trace.server"}
RUNS_A_PROGRAM = {"lspAgents.server.command", "lspAgents.server.python", "lspAgents.server.importStrategy"}
USER_ONLY = {PREFIX + ".".join(path) for path in marked(UserOnly)}
NOT_FROM_A_WORKSPACE = {"machine", "application"}  # scopes a workspace's settings cannot set
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
    schema = json_schema()
    defs = schema.get("$defs", {})
    defaults = model(Settings)().model_dump(by_alias=True, mode="json")
    flat: dict[str, dict[str, Any]] = {}

    def walk(properties: dict, prefix: str, values: dict) -> None:
        for name, prop in properties.items():
            target = _resolve(prop, defs)
            if "properties" in target:  # a nested settings model: its fields are settings of their own
                walk(target["properties"], f"{prefix}{name}.", values[name])
            else:
                default = prop.get("default", values[name])
                flat[PREFIX + prefix + name] = {"schema": prop, "default": default, "description": prop.get("description")}

    walk(schema["properties"], "", defaults)
    return flat, defs


MODEL, DEFS = model_settings()


@pytest.fixture(scope="module")
def manifest() -> dict[str, Any]:
    return json.loads(PACKAGE_JSON.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def contributed(manifest) -> dict[str, dict[str, Any]]:
    categories = manifest["contributes"]["configuration"]
    return {name: prop for category in categories for name, prop in category["properties"].items()}


@pytest.fixture(scope="module")
def restricted(manifest) -> set[str]:
    return set(manifest["capabilities"]["untrustedWorkspaces"]["restrictedConfigurations"])


def test_every_model_setting_is_contributed(contributed):
    assert sorted(set(MODEL) - set(contributed)) == []


def test_every_contributed_setting_is_in_the_model_or_client_only(contributed):
    assert sorted(set(contributed) - set(MODEL) - CLIENT_ONLY) == []


def test_client_only_settings_exist(contributed):
    assert set(contributed) >= CLIENT_ONLY


@pytest.mark.parametrize("name", sorted(MODEL))
def test_type_enum_and_bounds_match(name, contributed):
    assert shape(contributed[name]) == shape(MODEL[name]["schema"], DEFS)


@pytest.mark.parametrize("name", sorted(MODEL))
def test_default_matches(name, contributed):
    assert "default" in contributed[name], f"{name} has no default in package.json"
    assert contributed[name]["default"] == MODEL[name]["default"]


@pytest.mark.parametrize("name", sorted(MODEL))
def test_description_matches(name, contributed):
    assert "description" not in contributed[name], "a plain description shows Markdown literally"
    assert contributed[name].get("markdownDescription") == MODEL[name]["description"]


@pytest.mark.parametrize("name", sorted(MODEL))
def test_the_model_accepts_the_default_an_editor_sends(name, contributed):
    """The empty list the Settings editor starts from is a valid value, read as the model's default."""
    *path, leaf = name.removeprefix(PREFIX).split(".")
    raw: dict = {}
    node = raw
    for part in path:
        node = node.setdefault(part, {})
    node[leaf] = contributed[name]["default"]
    settings, messages = parse_settings(raw)
    assert messages == [] and settings == Settings()


@pytest.mark.parametrize("name", sorted(MODEL))
def test_labels_match_the_enum(name, contributed):
    prop = contributed[name]
    for key in ("enumItemLabels", "enumDescriptions"):
        if key in prop:
            assert len(prop[key]) == len(prop["enum"]), key


@pytest.mark.parametrize("name", sorted(MODEL))
def test_no_null_choice_without_a_label(name, contributed):
    """A null in an enum shows as "null" in the Settings editor's dropdown unless it has a label."""
    prop = contributed[name]
    if None in prop.get("enum", []):
        assert prop["enumItemLabels"][prop["enum"].index(None)], name


@pytest.mark.parametrize("name", sorted(MODEL))
def test_lists_are_editable_in_the_settings_editor(name, contributed):
    """A list of strings is an array of one item type: the Settings editor offers "Add Item" only then."""
    prop = contributed[name]
    if "array" in prop.get("type", []) or "anyOf" in prop:
        assert prop["type"] == "array" and prop["items"]["type"] == "string", name


@pytest.mark.parametrize("name", sorted(CLIENT_ONLY))
def test_client_only_defaults_fit_their_type(name, contributed):
    prop = contributed[name]
    assert isinstance(prop["default"], JSON_TYPES[prop["type"]])
    assert "enum" not in prop or prop["default"] in prop["enum"]


def test_the_model_marks_user_only_settings():
    """The list below is derived from the model; these two at least must be on it."""
    assert {"lspAgents.home", "lspAgents.fetchRemoteInstructions"} <= USER_ONLY


@pytest.mark.parametrize("name", sorted(USER_ONLY))
def test_a_workspace_cannot_set_a_user_only_setting(name, contributed, restricted):
    assert contributed[name].get("scope") in NOT_FROM_A_WORKSPACE, f"{name}: a workspace's .vscode/settings.json could set it"
    assert name in restricted, f"{name} is not in restrictedConfigurations"


@pytest.mark.parametrize("name", sorted(RUNS_A_PROGRAM))
def test_what_runs_the_server_is_ignored_in_restricted_mode(name, contributed, restricted):
    assert name in contributed and name in restricted


def test_restricted_settings_exist(contributed, restricted):
    assert sorted(restricted - set(contributed)) == []


def test_shape_tells_settings_apart():
    """The comparison itself can fail: types, enums, bounds and nullability all count."""
    assert shape({"type": "integer", "minimum": 0}) != shape({"type": "integer"})
    assert shape({"type": "string", "enum": ["a"]}) != shape({"type": "string", "enum": ["a", "b"]})
    assert shape({"type": ["string", "null"]}) != shape({"type": "string"})
    assert shape({"anyOf": [{"type": "string"}, {"type": "null"}]}) == shape({"type": ["string", "null"]})
    assert shape({"const": "auto", "type": "string"}) == shape({"type": "string", "enum": ["auto"]})
