"""The events' part of the OpenAPI document: an event's shapes (from its typed values)
and the paths that start an event, read it and take its director's writes."""

from __future__ import annotations

from typing import Any

from ...engine import event as event_contract
from .shapes import ERROR, IDEMPOTENCY, NAME, _body, _json, schema_of


def schemas() -> dict[str, Any]:
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


def paths() -> dict[str, Any]:
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
                "parameters": [EVENT_ID, IDEMPOTENCY],
                "responses": {"201": stored, **EVENT_ERRORS},
            }
        },
        "/api/v1/events/{event_id}/rounds/{number}/start": {
            "post": {
                "summary": "Start the round's clock (E7: its first box starts it otherwise)",
                "security": director,
                "parameters": [
                    EVENT_ID,
                    IDEMPOTENCY,
                    {
                        "name": "number",
                        "in": "path",
                        "required": True,
                        "schema": {"type": "integer", "minimum": 1},
                    },
                ],
                "responses": {"200": stored, **EVENT_ERRORS},
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
                    "parameters": [EVENT_ID, IDEMPOTENCY],
                    "requestBody": {
                        "required": True,
                        "content": {
                            "application/json": {
                                "schema": {
                                    "type": "object",
                                    "required": [name for name in body if name != "counts_for"],
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
                    "A player replaced: before his table starts, in a new game; mid-game, "
                    "the game kept and `by` playing the seat from the next box, its result "
                    "counting for `counts_for` (the player replaced unless it names `by`; E5)",
                    {"player": NAME, "by": NAME, "counts_for": NAME},
                    "200",
                ),
            )
        },
        "/api/v1/events/{event_id}/penalties/{number}/withdrawal": {
            "post": {
                "summary": "Take a penalty back (kept, struck out; E4)",
                "security": director,
                "parameters": [
                    EVENT_ID,
                    {
                        "name": "number",
                        "in": "path",
                        "required": True,
                        "schema": {"type": "integer", "minimum": 1},
                    },
                    IDEMPOTENCY,
                ],
                "requestBody": {
                    "required": False,
                    "content": {
                        "application/json": {
                            "schema": {
                                "type": "object",
                                "properties": {"why": {"type": "string", "maxLength": 1000}},
                                "additionalProperties": False,
                            }
                        }
                    },
                },
                "responses": {"200": stored, **EVENT_ERRORS},
            }
        },
        **{
            f"/api/v1/events/{{event_id}}/games/{{game_id}}/{action}": {
                "post": {
                    "summary": summary,
                    "security": director,
                    "parameters": [
                        EVENT_ID,
                        {
                            "name": "game_id",
                            "in": "path",
                            "required": True,
                            "schema": {"type": "string", "maxLength": 32},
                        },
                        IDEMPOTENCY,
                    ],
                    "responses": {"200": stored, **EVENT_ERRORS},
                }
            }
            for action, summary in (
                ("end", "The director ends a table's game by agreement, settled as it stands (E7)"),
                ("reopen", "The director reopens a table's game ended by mistake (kept in its history)"),
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
