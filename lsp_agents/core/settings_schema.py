"""Validation and JSON schema of the settings, built by pydantic from the dataclasses of
`core.settings` on first use.

Each dataclass becomes a pydantic model with the same fields, defaults, bounds, descriptions and
markers, so an untrusted mapping (a settings file, an editor's answer) is validated field by field
and the JSON schema is the one the client manifest is checked against. Only parsing needs it,
which is why this module is apart: importing pydantic and building the models costs more than
the rest of a small `check`.
"""

from __future__ import annotations

import dataclasses
import typing
from functools import cache
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, ValidationError, WithJsonSchema, create_model
from pydantic.fields import FieldInfo

from lsp_agents.core.patterns import MAX_LIST_PATTERNS, cap
from lsp_agents.core.settings import FileNamesOnly, ListedAsArray, Settings, alias, group, settings_fields, without

_CONFIG = ConfigDict(alias_generator=alias, populate_by_name=True, extra="ignore")
_NO_DEFAULT = dataclasses.MISSING


def _file_names(names: list[str] | None) -> list[str] | None:
    for name in names or ():
        if not name or name in (".", "..") or "/" in name or "\\" in name or "\0" in name:
            raise ValueError(f"{name[:100]!r} is not a file name (a name, without a folder)")
    return names


def _empty_means(empty: Any) -> BeforeValidator:
    return BeforeValidator(lambda value: empty if value == [] else value)


def _validators(marks: tuple[object, ...]) -> list[object]:
    """What a field's markers ask of validation and of the schema (trust markers are kept as they
    are: `marked` reads them from the dataclasses)."""
    found: list[object] = []
    for mark in marks:
        if isinstance(mark, ListedAsArray):
            found += [_empty_means(mark.empty), WithJsonSchema({"type": "array", "items": dict(mark.items)})]
        elif isinstance(mark, FileNamesOnly):
            found.append(AfterValidator(_file_names))
    return found


@cache
def model(plain: type) -> type[BaseModel]:
    """The pydantic model of a settings dataclass (a group's model for a group field)."""
    hints = typing.get_type_hints(plain)
    definitions: dict[str, Any] = {}
    for item in settings_fields(plain):
        meta = item.metadata
        nested = group(item)
        kind: Any = model(nested) if nested is not None else hints[item.name]
        extras = _validators(meta["marks"])
        options: dict[str, Any] = {"description": meta["description"] or None, "ge": meta["ge"], "le": meta["le"]}
        if meta["editor_default"] is not _NO_DEFAULT:
            options["json_schema_extra"] = {"default": meta["editor_default"]}
        if nested is not None:
            options["default"] = kind()
        elif item.default_factory is not _NO_DEFAULT:
            options["default_factory"] = item.default_factory
        else:
            options["default"] = item.default
        definitions[item.name] = (Annotated[kind, *extras] if extras else kind, Field(**options))
    doc = plain.__doc__ if plain.__doc__ and not plain.__doc__.startswith(f"{plain.__name__}(") else None  # not dataclass's
    return create_model(plain.__name__, __config__=_CONFIG, __doc__=doc, **definitions)


def json_schema() -> dict[str, Any]:
    """The settings' JSON schema, camelCase names: what the client manifest must match."""
    return model(Settings).model_json_schema(by_alias=True)


def _plain(plain: type, validated: BaseModel) -> Any:
    """The dataclass of a validated model (groups converted too)."""
    values = {}
    for item in settings_fields(plain):
        value = getattr(validated, item.name)
        nested = group(item)
        values[item.name] = _plain(nested, value) if nested is not None else value
    return plain(**values)


def validate(raw: Any, source: str) -> tuple[Settings, list[str]]:
    """`core.settings.parse_settings`: never raises; a bad value keeps its default, with a message."""
    if not isinstance(raw, dict):
        return Settings(), [f"{source}: expected an object of settings; using defaults"]
    messages = []
    unknown = sorted(k for k in raw if _field(model(Settings), k) is None)
    if unknown:
        messages.append(f"{source}: ignoring unknown setting(s): {', '.join(unknown)}")
    data = dict(raw)
    for _ in range(len(data) + 1):
        try:
            validated = model(Settings).model_validate(data)
        except ValidationError as exc:
            bad: dict[tuple[str, ...], str] = {}
            for error in exc.errors():
                if path := _setting_path(data, error["loc"]):
                    bad.setdefault(path, error["msg"])
            if not bad:
                return Settings(), [*messages, f"{source}: invalid settings ({exc.error_count()} errors); using defaults"]
            for path, why in sorted(bad.items()):
                messages.append(f"{source}: invalid value for {'.'.join(path)!r} ({why}); using the default")
                data = without(data, path)
            continue
        settings = dataclasses.replace(_plain(Settings, validated), given=validated.model_dump(by_alias=True, exclude_unset=True))
        return _patterns_capped(settings, source, messages)
    return Settings(), messages


def _field(pydantic_model: type[BaseModel], key: Any) -> FieldInfo | None:
    """The field a key names, in either spelling (camelCase alias or snake_case name)."""
    for name, field in pydantic_model.model_fields.items():
        if key in (name, field.alias):
            return field
    return None


def _patterns_capped(settings: Settings, source: str, messages: list[str]) -> tuple[Settings, list[str]]:
    """`exclude` and `launchDirectories` within the pattern caps of `core.patterns`, with a
    message for each list cut."""
    update: dict[str, Any] = {}
    for name, patterns in (("exclude", settings.exclude), ("launch_directories", settings.launch_patterns())):
        capped = cap(patterns or (), MAX_LIST_PATTERNS)
        if capped.ignored:
            messages.append(f"{source}: {alias(name)}: {capped.ignored}")
            update[name] = list(capped.patterns)
    if not update:
        return settings, messages
    given = {**settings.given, **{alias(name): value for name, value in update.items()}}
    return dataclasses.replace(settings, **update, given=given), messages


def _nested_model(field: FieldInfo) -> type[BaseModel] | None:
    """The model of an option group (`codex`, `hover`…), or None for a plain setting."""
    kind = field.annotation
    return kind if isinstance(kind, type) and issubclass(kind, BaseModel) else None


def _setting_path(data: dict[str, Any], loc: tuple[int | str, ...]) -> tuple[str, ...]:
    """The keys of `data` leading to the setting a validation error is about (empty: none found)."""
    current: type[BaseModel] | None = model(Settings)
    path: list[str] = []
    node: Any = data
    for key in loc:
        if current is None or not isinstance(node, dict) or (field := _field(current, key)) is None:
            break
        present = next((k for k in node if _field(current, k) is field), None)
        if present is None:
            break
        path.append(present)
        node, current = node[present], _nested_model(field)
    return tuple(path)
