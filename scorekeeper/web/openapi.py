"""The OpenAPI 3.1 document of the JSON API (served at ``/api/v1/openapi.json``).

The shapes of a box, a hand, a game, a ruling and a score sheet are generated from the
contract's typed values (:mod:`scorekeeper.engine.contract`), so the document says what
the code reads; only the API's own envelopes (errors, stored games, writes) are written
here."""

from __future__ import annotations

import collections.abc
import dataclasses
import types
import typing
from collections.abc import Mapping
from typing import Any

from .. import engine
from ..engine import contract
from ..engine import event as event_contract

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


GAME_ID = {"name": "game_id", "in": "path", "required": True, "schema": {"type": "string", "maxLength": 32}}
BOX_ID = {"name": "box_id", "in": "path", "required": True, "schema": {"type": "integer", "minimum": 1}}
IF_MATCH = {
    "name": "If-Match",
    "in": "header",
    "required": False,
    "description": "The game version the write is based on (the ETag, or a bare "
    "number); a stale version is refused with 409; * matches any",
    "schema": {"type": "string"},
}
IDEMPOTENCY = {
    "name": "Idempotency-Key",
    "in": "header",
    "required": False,
    "description": "Repeat a write safely: the same key stores it once",
    "schema": {"type": "string", "pattern": r"^[A-Za-z0-9_\-.:]{1,64}$"},
}
BUSY = {
    "description": "Too many sheets being printed at once: try again after Retry-After seconds",
    "headers": {"Retry-After": {"schema": {"type": "integer"}}},
    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
}
WRITE_ERRORS = {
    "401": {"description": "No edit token"},
    "403": {"description": "Wrong edit token"},
    "404": {"description": "No such game or box"},
    "409": {
        "description": "Stale write: the game has a newer version",
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
    },
    "412": {
        "description": "If-Match is not a version (send the ETag as it came)",
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
    },
    "413": {
        "description": "The request is larger than 256 KB",
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
    },
    "422": ERROR,
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


def _box_with_its_game() -> dict[str, Any]:
    """``adjudicate``'s box: a box with the game's rules, settings, players and dealer."""
    schema = schema_of(contract.BoxEntry)
    game = schema_of(contract.GameEntry)["properties"]
    schema["properties"] = {
        **schema["properties"],
        **{name: game[name] for name in ("rules", "settings", "players")},
    }
    schema["required"] = [*schema.get("required", []), "players"]
    return schema


SCHEMAS: dict[str, Any] = {
    "Card": CARD,
    "Error": {
        "type": "object",
        "required": ["error"],
        "properties": {
            "error": {
                "type": "object",
                "required": ["code", "message"],
                "properties": {
                    "code": {"type": "string"},
                    "message": {"type": "string"},
                    "where": {"type": "string"},
                },
            }
        },
    },
    **{_component(cls): schema_of(cls) for cls in (*INPUT, *OUTPUT)},
    "Box": _box_with_its_game(),
    "Arrangement": {
        "type": "object",
        "properties": {
            "cards": CARDS,
            "count": {"type": "integer"},
            "melds": {"type": "array"},
            "deadwood": CARDS,
            "discard": {"$ref": "#/components/schemas/Card"},
        },
    },
    "StoredGame": {
        "type": "object",
        "properties": {
            "id": {"type": "string"},
            "version": {"type": "integer"},
            "game": {"$ref": "#/components/schemas/Game"},
            "score": {"$ref": "#/components/schemas/Score"},
        },
    },
    "Written": {
        "type": "object",
        "properties": {
            "id": {"type": "string"},
            "version": {"type": "integer"},
            "box_id": {"type": ["integer", "null"]},
            "repeated": {"type": "boolean"},
            "box": {"$ref": "#/components/schemas/SheetBox"},
            "score": {"$ref": "#/components/schemas/Score"},
        },
    },
}


def _event_schemas() -> dict[str, Any]:
    """An event's shapes (CONTRACT.md "An event"), from its typed values; ``round_ends``
    is written by hand (one of three one-field objects)."""
    event = schema_of(event_contract.EventEntry)
    event["additionalProperties"] = False
    event["properties"]["entrants"] = {
        "anyOf": [{"type": "array", "items": NAME}, {"type": "string", "description": "names one a line"}]
    }
    event["properties"]["table_size"] = {"type": "integer", "minimum": 2, "maximum": 5}
    return {
        "Event": event,
        "RoundEnd": {
            "oneOf": [
                {
                    "type": "object",
                    "required": ["game"],
                    "additionalProperties": False,
                    "properties": {"game": {"const": True}},
                },
                {
                    "type": "object",
                    "required": ["boxes"],
                    "additionalProperties": False,
                    "properties": {"boxes": {"type": "integer", "minimum": 1}},
                },
                {
                    "type": "object",
                    "required": ["minutes"],
                    "additionalProperties": False,
                    "properties": {"minutes": {"type": "integer", "minimum": 1}},
                },
            ]
        },
        **{
            cls.__name__: schema_of(cls)
            for cls in (
                event_contract.Seating,
                event_contract.EventGame,
                event_contract.Penalty,
                event_contract.Standing,
            )
        },
        "StoredEvent": {
            "type": "object",
            "properties": {
                "id": {"type": "string"},
                "version": {"type": "integer"},
                "round": {"type": "integer"},
                "finished": {"type": "boolean"},
                "event": {"$ref": "#/components/schemas/Event"},
                "standings": {"type": "array", "items": {"$ref": "#/components/schemas/Standing"}},
                "tables": {"type": "array", "items": {"type": "object"}},
                "clock": {"type": ["object", "null"]},
                "director_token": {"type": "string", "description": "only when started"},
                "join_code": {"type": "string", "description": "only when started"},
            },
        },
    }


SCHEMAS.update(_event_schemas())
EVENT_ID = {"name": "event_id", "in": "path", "required": True, "schema": {"type": "string", "maxLength": 32}}
EVENT_ERRORS = {
    "401": {"description": "No director token"},
    "403": {"description": "Wrong director token"},
    "404": {"description": "No such event"},
    "409": {
        "description": "A round still playing (unless forced), or not in a state for this",
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
    },
    "422": ERROR,
}


def _event_paths() -> dict[str, Any]:
    director: list[dict[str, list[str]]] = [{"directorToken": []}]
    stored = _json("StoredEvent", "The event with its standings")
    return {
        "/api/v1/events": {
            "post": {
                "summary": "Start an event and seat its first round",
                "parameters": [IDEMPOTENCY],
                "requestBody": _body("Event"),
                "responses": {"201": stored, "422": ERROR},
            }
        },
        "/api/v1/events/{event_id}": {
            "get": {
                "summary": "An event with its standings, tables and clock",
                "parameters": [EVENT_ID],
                "responses": {"200": stored, "404": {"description": "No such event"}},
            }
        },
        "/api/v1/events/{event_id}/rounds": {
            "post": {
                "summary": "Seat the next round",
                "security": director,
                "parameters": [EVENT_ID],
                "responses": {"201": stored, **EVENT_ERRORS},
            }
        },
        "/api/v1/events/{event_id}/rounds/{number}/close": {
            "post": {
                "summary": 'Close the current round; {"force": true} ends running games by agreement',
                "security": director,
                "parameters": [
                    EVENT_ID,
                    {
                        "name": "number",
                        "in": "path",
                        "required": True,
                        "schema": {"type": "integer", "minimum": 1},
                    },
                ],
                "requestBody": {
                    "required": False,
                    "content": {
                        "application/json": {
                            "schema": {
                                "type": "object",
                                "properties": {"force": {"type": "boolean"}},
                                "additionalProperties": False,
                            }
                        }
                    },
                },
                "responses": {"200": stored, **EVENT_ERRORS},
            }
        },
        **{
            f"/api/v1/events/{{event_id}}/{path}": {
                "post": {
                    "summary": summary,
                    "security": director,
                    "parameters": [EVENT_ID],
                    "requestBody": {
                        "required": True,
                        "content": {
                            "application/json": {
                                "schema": {
                                    "type": "object",
                                    "required": list(body),
                                    "properties": body,
                                    "additionalProperties": False,
                                }
                            }
                        },
                    },
                    "responses": {ok: stored, **EVENT_ERRORS},
                }
            }
            for path, summary, body, ok in (
                ("entrants", "A late entry, playing from the next round", {"name": NAME}, "201"),
                (
                    "withdrawals",
                    "A withdrawal from the next round (kept in the standings)",
                    {"name": NAME},
                    "200",
                ),
                (
                    "penalties",
                    "Points off a player's score, with a note",
                    {
                        "player": NAME,
                        "points": {"type": "integer", "minimum": 1},
                        "note": {"type": "string", "minLength": 1},
                    },
                    "201",
                ),
                (
                    "swaps",
                    "Swap two players' seats before their tables start",
                    {"players": {"type": "array", "items": NAME, "minItems": 2, "maxItems": 2}},
                    "200",
                ),
                (
                    "replacements",
                    "A player replaced before his table starts",
                    {"player": NAME, "by": NAME},
                    "200",
                ),
            )
        },
        "/api/v1/events/{event_id}/results.csv": {
            "get": {
                "summary": "The standings and every round's points as CSV",
                "parameters": [EVENT_ID],
                "responses": {"200": {"description": "CSV", "content": {"text/csv": {}}}},
            }
        },
        "/api/v1/events/{event_id}/results.json": {
            "get": {
                "summary": "The event, its standings and every table's result",
                "parameters": [EVENT_ID],
                "responses": {"200": {"description": "JSON", "content": {"application/json": {}}}},
            }
        },
    }


def document() -> dict[str, Any]:
    """The whole OpenAPI document."""
    bearer: list[dict[str, list[str]]] = [{"editToken": []}]
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Scorekeeper API",
            "version": "1",
            "description": "Adjudication and score keeping for Jersey Gin, Gin Rummy "
            "and its family. Shapes as in CONTRACT.md.",
        },
        "paths": {
            "/api/v1/adjudicate": {
                "post": {
                    "summary": "One box in, one ruling out",
                    "requestBody": _body("Box"),
                    "responses": {"200": _json("Ruling", "The ruling"), "422": ERROR},
                }
            },
            "/api/v1/score": {
                "post": {
                    "summary": "A game in, its score sheet out",
                    "requestBody": _body("Game"),
                    "responses": {"200": _json("Score", "The score"), "422": ERROR},
                }
            },
            "/api/v1/arrange": {
                "post": {
                    "summary": "Best melds and count of 10 or 11 cards",
                    "requestBody": {
                        "required": True,
                        "content": {
                            "application/json": {
                                "schema": {
                                    "type": "object",
                                    "required": ["cards"],
                                    "properties": {
                                        "cards": CARDS,
                                        "around_the_corner": {"type": "boolean"},
                                        "ace_value": {"type": "integer", "minimum": 1, "maximum": 15},
                                    },
                                }
                            }
                        },
                    },
                    "responses": {"200": _json("Arrangement", "The arrangement"), "422": ERROR},
                }
            },
            "/api/v1/games": {
                "post": {
                    "summary": "Store a game",
                    "requestBody": _body("Game"),
                    "responses": {
                        "201": {
                            "description": "Stored: id, edit_token, join_code, version",
                            "content": {
                                "application/json": {
                                    "schema": {
                                        "type": "object",
                                        "properties": {
                                            "id": {"type": "string"},
                                            "edit_token": {"type": "string"},
                                            "join_code": {
                                                "type": "string",
                                                "pattern": "^[2-9A-HJKMNP-TV-Z]{6}$",
                                            },
                                            "version": {"type": "integer"},
                                        },
                                    }
                                }
                            },
                        },
                        "422": ERROR,
                    },
                }
            },
            "/api/v1/games/{game_id}": {
                "get": {
                    "summary": "A stored game with its score",
                    "parameters": [GAME_ID],
                    "responses": {
                        "200": _json("StoredGame", "The game"),
                        "404": {"description": "No such game"},
                    },
                }
            },
            "/api/v1/games/{game_id}/boxes": {
                "post": {
                    "summary": "Append a box",
                    "security": bearer,
                    "parameters": [GAME_ID, IF_MATCH, IDEMPOTENCY],
                    "requestBody": _body("BoxEntry"),
                    "responses": {"201": _json("Written", "Stored"), **WRITE_ERRORS},
                }
            },
            "/api/v1/games/{game_id}/boxes/{box_id}": {
                "put": {
                    "summary": "Correct a box",
                    "security": bearer,
                    "parameters": [GAME_ID, BOX_ID, IF_MATCH, IDEMPOTENCY],
                    "requestBody": _body("BoxEntry"),
                    "responses": {"200": _json("Written", "Stored"), **WRITE_ERRORS},
                },
                "delete": {
                    "summary": "Delete a box (kept in its history)",
                    "security": bearer,
                    "parameters": [GAME_ID, BOX_ID, IF_MATCH, IDEMPOTENCY],
                    "responses": {"200": _json("Written", "Deleted"), **WRITE_ERRORS},
                },
            },
            "/api/v1/games/{game_id}/end": {
                "post": {
                    "summary": "End the game by agreement after its last box (K5): no game or "
                    "box bonus, the totals settled; in the game's history",
                    "security": bearer,
                    "parameters": [GAME_ID, IF_MATCH, IDEMPOTENCY],
                    "responses": {"200": _json("Written", "Ended"), **WRITE_ERRORS},
                }
            },
            "/api/v1/games/{game_id}/settings": {
                "put": {
                    "summary": "Change the game's house rules and rescore the whole game; "
                    "422 naming the box a new rule makes invalid",
                    "security": bearer,
                    "parameters": [GAME_ID, IF_MATCH, IDEMPOTENCY],
                    "requestBody": {
                        "required": True,
                        "content": {"application/json": {"schema": FIELD_SCHEMAS["settings"]}},
                    },
                    "responses": {"200": _json("Written", "Rescored"), **WRITE_ERRORS},
                }
            },
            "/api/v1/games/{game_id}/sheet.pdf": {
                "get": {
                    "summary": "The score sheet as PDF",
                    "parameters": [GAME_ID],
                    "responses": {
                        "200": {
                            "description": "PDF",
                            "content": {
                                "application/pdf": {"schema": {"type": "string", "format": "binary"}}
                            },
                        },
                        "404": {"description": "No such game"},
                        "422": ERROR,
                        "503": BUSY,
                    },
                }
            },
            **_event_paths(),
        },
        "components": {
            "schemas": SCHEMAS,
            "securitySchemes": {
                "editToken": {"type": "http", "scheme": "bearer", "description": "The game's edit_token"},
                "directorToken": {
                    "type": "http",
                    "scheme": "bearer",
                    "description": "The event's director_token",
                },
            },
        },
    }
