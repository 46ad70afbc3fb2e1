"""The games' part of the OpenAPI document: the shapes of a box, a game, a ruling and a
score sheet (from the contract's typed values), a stored game and a write's answer; the
paths that rule, score, arrange, store and write games, and print their sheets."""

from __future__ import annotations

from typing import Any

from ...engine import contract
from .shapes import (
    CARD,
    CARDS,
    ERROR,
    FIELD_SCHEMAS,
    IDEMPOTENCY,
    INPUT,
    OUTPUT,
    _body,
    _component,
    _json,
    schema_of,
)

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


def paths() -> dict[str, Any]:
    """The games' paths."""
    bearer: list[dict[str, list[str]]] = [{"editToken": []}]
    return {
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
                        "content": {"application/pdf": {"schema": {"type": "string", "format": "binary"}}},
                    },
                    "404": {"description": "No such game"},
                    "422": ERROR,
                    "503": BUSY,
                },
            }
        },
    }
