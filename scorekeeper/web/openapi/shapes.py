"""The pieces every resource's part of the OpenAPI document shares: the JSON Schema of a
contract value, generated from its dataclass fields (:func:`schema_of`), the schemas of a
name, a card and an error, and the request and response envelopes."""

from __future__ import annotations

import collections.abc
import dataclasses
import types
import typing
from collections.abc import Mapping
from typing import Any

from ... import engine
from ...engine import contract

NAME = {"type": "string", "minLength": 1, "maxLength": 40}
RULES = {"enum": list(engine.PRESETS), "description": "a preset id (RULES.md)"}
PLAYERS = {
    "type": "array",
    "items": NAME,
    "uniqueItems": True,
    "minItems": min(p.min_players for p in engine.PRESETS.values()),
    "maxItems": max(p.max_players for p in engine.PRESETS.values()),
}

CARD = {"type": "string", "pattern": r"^(10|[2-9AJQKTajqkt])[CDHScdhs♣♦♥♠]$", "examples": ["7C", "10H", "QS"]}
CARDS = {"type": "array", "items": {"$ref": "#/components/schemas/Card"}, "maxItems": 52}
ERROR = {
    "description": "Bad input: CONTRACT.md's error object",
    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
}


def _json(schema_ref: str, description: str) -> dict[str, Any]:
    return {
        "description": description,
        "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{schema_ref}"}}},
    }


def _body(schema_ref: str) -> dict[str, Any]:
    return {
        "required": True,
        "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{schema_ref}"}}},
    }


IDEMPOTENCY = {
    "name": "Idempotency-Key",
    "in": "header",
    "required": False,
    "description": "Repeat a write safely: the same key stores it once",
    "schema": {"type": "string", "pattern": r"^[A-Za-z0-9_\-.:]{1,64}$"},
}

FIELD_SCHEMAS: dict[str, Any] = {
    "card": {"$ref": "#/components/schemas/Card"},
    "upcard": {"$ref": "#/components/schemas/Card"},
    "cards": CARDS,
    "deadwood": CARDS,
    "melds": {"type": "array", "items": CARDS},
    "players": PLAYERS,
    "rules": RULES,
    "count": {"type": "integer", "minimum": 0},
    "multiplier": {"type": "integer", "minimum": 1, "maximum": 1024, "description": "a power of two (V5)"},
    "stake": {"type": ["number", "null"], "minimum": 0, "maximum": contract.MAX_STAKE},
    "note": {"type": "string", "maxLength": contract.MAX_NOTE},
    "settings": {"type": "object", "description": "settings of the preset to change (RULES.md §7)"},
}
"""Where a field says more than its type: cards by notation, names by length, ranges."""
NAMES = ("by", "onto", "breaker", "dealer", "double_refused")

INPUT = (contract.Layoff, contract.Hand, contract.BoxEntry, contract.GameEntry)
"""CONTRACT.md's input: every field is named, anything else is refused."""
OUTPUT = (
    contract.Line,
    contract.LaidOff,
    contract.LaidOut,
    contract.Ruling,
    contract.SheetBox,
    contract.Payment,
    contract.Summary,
    contract.Sheet,
)
COMPONENT = {contract.GameEntry: "Game", contract.Sheet: "Score"}
"""Component names that differ from the class (the API's names since version 1)."""


def _component(cls: type) -> str:
    return COMPONENT.get(cls, cls.__name__)


def _type_schema(kind: Any) -> dict[str, Any]:
    """The JSON Schema of a contract field's Python type."""
    origin, args = typing.get_origin(kind), typing.get_args(kind)
    if dataclasses.is_dataclass(kind):
        return {"$ref": f"#/components/schemas/{_component(typing.cast(type, kind))}"}
    if origin in (types.UnionType, typing.Union):
        options = [_type_schema(arg) for arg in args]
        return {"anyOf": options}
    if origin is typing.Literal:
        return {"enum": list(args)}
    if origin is tuple:
        return {"type": "array", "items": _type_schema(args[0])}
    if origin in (Mapping, dict, collections.abc.Mapping):
        return {"type": "object", "additionalProperties": _type_schema(args[1])}
    simple = {str: "string", bool: "boolean", int: "integer", float: "number", type(None): "null"}
    return {"type": simple[kind]} if kind in simple else {}


def schema_of(cls: type) -> dict[str, Any]:
    """A contract value's JSON Schema, from its dataclass fields: the document can never
    name a field the code does not read, or miss one it does."""
    hints = typing.get_type_hints(cls)
    names: Mapping[str, str] = getattr(cls, "JSON_NAMES", {})
    properties: dict[str, Any] = {}
    required: list[str] = []
    for item in dataclasses.fields(cls):
        if item.name == "extra":
            continue
        name = names.get(item.name, item.name)
        if item.name in FIELD_SCHEMAS:
            properties[name] = FIELD_SCHEMAS[item.name]
        elif item.name in NAMES:
            properties[name] = {"anyOf": [NAME, {"type": "null"}]}
        else:
            properties[name] = _type_schema(hints[item.name])
        if item.default is dataclasses.MISSING and item.default_factory is dataclasses.MISSING:
            required.append(name)
    schema: dict[str, Any] = {"type": "object", "properties": properties}
    if cls.__doc__:
        schema["description"] = " ".join(cls.__doc__.split())
    if required:
        schema["required"] = required
    if cls in INPUT:
        schema["additionalProperties"] = False
    return schema
