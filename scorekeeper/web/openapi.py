"""The OpenAPI 3.1 document of the JSON API (served at ``/api/v1/openapi.json``)."""

from __future__ import annotations

from typing import Any

from .. import engine

NAME = {"type": "string", "minLength": 1, "maxLength": 40}
RULES = {"enum": list(engine.PRESETS), "description": "a preset id (RULES.md)"}
PLAYERS = {"type": "array", "items": NAME, "uniqueItems": True,
           "minItems": min(p.min_players for p in engine.PRESETS.values()),
           "maxItems": max(p.max_players for p in engine.PRESETS.values())}

CARD = {"type": "string", "pattern": r"^(10|[2-9AJQKTajqkt])[CDHScdhs♣♦♥♠]$",
        "examples": ["7C", "10H", "QS"]}
CARDS = {"type": "array", "items": {"$ref": "#/components/schemas/Card"}, "maxItems": 52}
ERROR = {"description": "Bad input: CONTRACT.md's error object",
         "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}


def _json(schema_ref: str, description: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {
        "schema": {"$ref": f"#/components/schemas/{schema_ref}"}}}}


def _body(schema_ref: str) -> dict[str, Any]:
    return {"required": True, "content": {"application/json": {
        "schema": {"$ref": f"#/components/schemas/{schema_ref}"}}}}


GAME_ID = {"name": "game_id", "in": "path", "required": True,
           "schema": {"type": "string", "maxLength": 32}}
BOX_ID = {"name": "box_id", "in": "path", "required": True,
          "schema": {"type": "integer", "minimum": 1}}
IF_MATCH = {"name": "If-Match", "in": "header", "required": False,
            "description": "The game version the write is based on (the ETag, or a bare "
                           "number); a stale version is refused with 409; * matches any",
            "schema": {"type": "string"}}
IDEMPOTENCY = {"name": "Idempotency-Key", "in": "header", "required": False,
               "description": "Repeat a write safely: the same key stores it once",
               "schema": {"type": "string", "pattern": r"^[A-Za-z0-9_\-.:]{1,64}$"}}
WRITE_ERRORS = {
    "401": {"description": "No edit token"},
    "403": {"description": "Wrong edit token"},
    "404": {"description": "No such game or box"},
    "409": {"description": "Stale write: the game has a newer version",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
    "412": {"description": "If-Match is not a version (send the ETag as it came)",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
    "413": {"description": "The request is larger than 256 KB",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
    "422": ERROR,
}

SCHEMAS: dict[str, Any] = {
    "Card": CARD,
    "Error": {"type": "object", "required": ["error"], "properties": {"error": {
        "type": "object", "required": ["code", "message"],
        "properties": {"code": {"type": "string"}, "message": {"type": "string"},
                       "where": {"type": "string"}}}}},
    "Hand": {"type": "object", "description": "cards; or melds, deadwood, layoffs; or count",
             "properties": {
                 "cards": CARDS,
                 "melds": {"type": "array", "items": CARDS},
                 "deadwood": CARDS,
                 "layoffs": {"type": "array", "items": {"type": "object", "properties": {
                     "card": {"$ref": "#/components/schemas/Card"},
                     "onto": {"type": "string"}, "meld": {"type": "integer"}}}},
                 "count": {"type": "integer", "minimum": 0, "maximum": 98}}},
    "BoxEntry": {"type": "object", "required": ["ending"], "properties": {
        "ending": {"enum": ["knock", "gin", "break", "draw", "misdeal"]},
        "by": {"type": "string"}, "after_break": {"type": "boolean"},
        "second_round": {"type": "boolean"}, "upcard": {"$ref": "#/components/schemas/Card"},
        "multiplier": {"type": "integer", "minimum": 1, "maximum": 1024},
        "note": {"type": "string"},
        "hands": {"type": "object", "additionalProperties": {
            "$ref": "#/components/schemas/Hand"}}}},
    "Box": {"allOf": [{"$ref": "#/components/schemas/BoxEntry"}, {
        "type": "object", "required": ["rules", "players"], "properties": {
            "rules": RULES, "settings": {"type": "object"},
            "players": PLAYERS, "dealer": NAME}}]},
    "Ruling": {"type": "object", "properties": {
        "result": {"type": "string"}, "winner": {"type": ["string", "null"]},
        "points": {"type": "integer"}, "credits": {"type": "object"},
        "penalties": {"type": "object"}, "counts": {"type": "object"},
        "hands": {"type": "object"}, "explanation": {"type": "array"},
        "advice": {"type": "array"}}},
    "Game": {"type": "object", "required": ["rules", "players"], "properties": {
        "rules": RULES, "settings": {"type": "object"},
        "players": PLAYERS, "dealer": NAME, "stake": {"type": ["number", "null"], "minimum": 0},
        "boxes": {"type": "array", "items": {"$ref": "#/components/schemas/BoxEntry"}}}},
    "Score": {"type": "object", "properties": {
        "boxes": {"type": "array"}, "totals": {"type": "object"},
        "boxes_won": {"type": "object"}, "game_over": {"type": "boolean"},
        "winner": {"type": ["string", "null"]}, "next_dealer": {"type": ["string", "null"]},
        "final_totals": {"type": ["object", "null"]}, "settlement": {"type": ["array", "null"]},
        "explanation": {"type": "array"}}},
    "Arrangement": {"type": "object", "properties": {
        "cards": CARDS, "count": {"type": "integer"}, "melds": {"type": "array"},
        "deadwood": CARDS, "discard": {"$ref": "#/components/schemas/Card"}}},
    "StoredGame": {"type": "object", "properties": {
        "id": {"type": "string"}, "version": {"type": "integer"},
        "game": {"$ref": "#/components/schemas/Game"},
        "score": {"$ref": "#/components/schemas/Score"}}},
    "Written": {"type": "object", "properties": {
        "id": {"type": "string"}, "version": {"type": "integer"},
        "box_id": {"type": ["integer", "null"]}, "repeated": {"type": "boolean"},
        "box": {"$ref": "#/components/schemas/Ruling"},
        "score": {"$ref": "#/components/schemas/Score"}}},
}


def document() -> dict[str, Any]:
    """The whole OpenAPI document."""
    bearer: list[dict[str, list[str]]] = [{"editToken": []}]
    return {
        "openapi": "3.1.0",
        "info": {"title": "Scorekeeper API", "version": "1",
                 "description": "Adjudication and score keeping for Jersey Gin, Gin Rummy "
                                "and its family. Shapes as in CONTRACT.md."},
        "paths": {
            "/api/v1/adjudicate": {"post": {
                "summary": "One box in, one ruling out", "requestBody": _body("Box"),
                "responses": {"200": _json("Ruling", "The ruling"), "422": ERROR}}},
            "/api/v1/score": {"post": {
                "summary": "A game in, its score sheet out", "requestBody": _body("Game"),
                "responses": {"200": _json("Score", "The score"), "422": ERROR}}},
            "/api/v1/arrange": {"post": {
                "summary": "Best melds and count of 10 or 11 cards",
                "requestBody": {"required": True, "content": {"application/json": {"schema": {
                    "type": "object", "required": ["cards"], "properties": {
                        "cards": CARDS, "around_the_corner": {"type": "boolean"},
                        "ace_value": {"type": "integer", "minimum": 1, "maximum": 15}}}}}},
                "responses": {"200": _json("Arrangement", "The arrangement"),
                              "422": ERROR}}},
            "/api/v1/games": {"post": {
                "summary": "Store a game", "requestBody": _body("Game"),
                "responses": {"201": {"description": "Stored: id, edit_token, version",
                                      "content": {"application/json": {"schema": {
                                          "type": "object", "properties": {
                                              "id": {"type": "string"},
                                              "edit_token": {"type": "string"},
                                              "version": {"type": "integer"}}}}}},
                              "422": ERROR}}},
            "/api/v1/games/{game_id}": {"get": {
                "summary": "A stored game with its score", "parameters": [GAME_ID],
                "responses": {"200": _json("StoredGame", "The game"),
                              "404": {"description": "No such game"}}}},
            "/api/v1/games/{game_id}/boxes": {"post": {
                "summary": "Append a box", "security": bearer,
                "parameters": [GAME_ID, IF_MATCH, IDEMPOTENCY],
                "requestBody": _body("BoxEntry"),
                "responses": {"201": _json("Written", "Stored"), **WRITE_ERRORS}}},
            "/api/v1/games/{game_id}/boxes/{box_id}": {
                "put": {"summary": "Correct a box", "security": bearer,
                        "parameters": [GAME_ID, BOX_ID, IF_MATCH, IDEMPOTENCY],
                        "requestBody": _body("BoxEntry"),
                        "responses": {"200": _json("Written", "Stored"), **WRITE_ERRORS}},
                "delete": {"summary": "Delete a box (kept in its history)",
                           "security": bearer,
                           "parameters": [GAME_ID, BOX_ID, IF_MATCH, IDEMPOTENCY],
                           "responses": {"200": _json("Written", "Deleted"),
                                         **WRITE_ERRORS}}},
            "/api/v1/games/{game_id}/sheet.pdf": {"get": {
                "summary": "The score sheet as PDF", "parameters": [GAME_ID],
                "responses": {"200": {"description": "PDF", "content": {
                    "application/pdf": {"schema": {"type": "string",
                                                   "format": "binary"}}}},
                              "404": {"description": "No such game"}}}},
        },
        "components": {
            "schemas": SCHEMAS,
            "securitySchemes": {"editToken": {"type": "http", "scheme": "bearer",
                                              "description": "The game's edit_token"}},
        },
    }
