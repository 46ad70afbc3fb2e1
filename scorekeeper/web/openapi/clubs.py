"""The clubs' part of the OpenAPI document (issue 36; CONTRACT.md "A club and its
season"): a club, a season and its ladder, and the owner's writes."""

from __future__ import annotations

from typing import Any

from ...engine.ladder import COUNTS
from .shapes import ERROR, IDEMPOTENCY, NAME, _json

DATE = {"type": "string", "format": "date", "examples": ["2027-01-05"]}
LADDER = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "count": {"enum": list(COUNTS)},
        "best": {"type": "integer", "minimum": 1},
        "of": {"type": "integer", "minimum": 1},
        "min_evenings": {"type": "integer", "minimum": 0},
    },
}


def schemas() -> dict[str, Any]:
    return {
        "Club": {
            "type": "object",
            "required": ["name"],
            "additionalProperties": False,
            "properties": {
                "name": {"type": "string", "minLength": 1, "maxLength": 120},
                "place": {"type": ["string", "null"], "maxLength": 120},
                "public": {"type": "boolean"},
            },
        },
        "Season": {
            "type": "object",
            "required": ["name", "from", "to"],
            "additionalProperties": False,
            "properties": {
                "name": {"type": "string", "minLength": 1, "maxLength": 80},
                "from": DATE,
                "to": DATE,
                "ladder": LADDER,
                "events": {"type": "array", "items": {"type": "string"}, "description": "answered, not read"},
            },
        },
        "Plan": {
            "type": "object",
            "required": ["date", "time"],
            "additionalProperties": False,
            "properties": {
                "date": {**DATE, "description": "today or later for a new plan"},
                "time": {"type": "string", "examples": ["19:30"]},
                "place": {"type": ["string", "null"], "maxLength": 120},
                "rules": {"type": "string", "examples": ["jersey-scarne"]},
                "table_size": {"type": "integer"},
                "name": {"type": ["string", "null"], "maxLength": 80},
                "notes": {"type": ["string", "null"], "maxLength": 1000},
            },
        },
        "StoredPlan": {
            "type": "object",
            "properties": {
                "id": {"type": "integer"},
                "cancelled": {"type": "boolean"},
                "event": {"type": ["string", "null"], "description": "the event it became once started"},
            },
        },
        "StoredClub": {
            "type": "object",
            "properties": {
                "id": {"type": "string"},
                "version": {"type": "integer"},
                "club": {"type": "object"},
                "seasons": {"type": "array", "items": {"type": "object"}},
                "events": {"type": "array", "items": {"type": "string"}},
                "owner_token": {"type": "string", "description": "only when begun"},
                "join_code": {"type": "string", "description": "only when begun"},
            },
        },
        "StoredSeason": {
            "type": "object",
            "properties": {
                "id": {"type": "integer"},
                "season": {"type": "object"},
                "ladder": {"type": "array", "items": {"type": "object"}},
                "evenings": {"type": "array", "items": {"type": "object"}},
            },
        },
    }


CLUB_ID = {"name": "club_id", "in": "path", "required": True, "schema": {"type": "string", "maxLength": 32}}
SEASON_ID = {"name": "season_id", "in": "path", "required": True, "schema": {"type": "integer", "minimum": 1}}
PLAN_ID = {"name": "plan_id", "in": "path", "required": True, "schema": {"type": "integer", "minimum": 1}}
EVENT_ID = {"name": "event_id", "in": "path", "required": True, "schema": {"type": "string", "maxLength": 32}}
OWNER_ERRORS = {
    "401": {"description": "No owner token"},
    "403": {"description": "Wrong owner token"},
    "404": {"description": "No such club"},
    "422": ERROR,
}


def _object(required: list[str], properties: dict[str, Any]) -> dict[str, Any]:
    return {
        "required": True,
        "content": {
            "application/json": {
                "schema": {
                    "type": "object",
                    "required": required,
                    "properties": properties,
                    "additionalProperties": False,
                }
            }
        },
    }


def paths() -> dict[str, Any]:
    owner: list[dict[str, list[str]]] = [{"ownerToken": []}]
    stored = _json("StoredClub", "The club with its members")
    season = _json("StoredSeason", "The season with its ladder and evenings")
    plan = _json("StoredPlan", "The planned evening")
    spelling = {"spelling": NAME}
    return {
        "/api/v1/clubs": {
            "post": {
                "summary": "Begin a club",
                "parameters": [IDEMPOTENCY],
                "requestBody": {
                    "required": True,
                    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Club"}}},
                },
                "responses": {"201": stored, "422": ERROR},
            }
        },
        "/api/v1/clubs/{club_id}": {
            "get": {
                "summary": "A club with its members (a private club: the owner's token)",
                "parameters": [CLUB_ID],
                "responses": {"200": stored, **OWNER_ERRORS},
            }
        },
        "/api/v1/clubs/{club_id}/public": {
            "post": {
                "summary": "The season pages public to anyone (true) or the owner's only (false)",
                "security": owner,
                "parameters": [CLUB_ID, IDEMPOTENCY],
                "requestBody": _object(["public"], {"public": {"type": "boolean"}}),
                "responses": {"200": stored, **OWNER_ERRORS},
            }
        },
        "/api/v1/clubs/{club_id}/members": {
            "post": {
                "summary": "A spelling is a member (member: m12), or a new member (member: null)",
                "security": owner,
                "parameters": [CLUB_ID, IDEMPOTENCY],
                "requestBody": _object(["spelling"], {**spelling, "member": {"type": ["string", "null"]}}),
                "responses": {"200": stored, **OWNER_ERRORS},
            }
        },
        "/api/v1/clubs/{club_id}/members/split": {
            "post": {
                "summary": "A spelling split off its member: a member of its own",
                "security": owner,
                "parameters": [CLUB_ID, IDEMPOTENCY],
                "requestBody": _object(["spelling"], spelling),
                "responses": {"200": stored, **OWNER_ERRORS},
            }
        },
        "/api/v1/clubs/{club_id}/history": {
            "get": {
                "summary": "The owner's decisions, each a typed line",
                "security": owner,
                "parameters": [CLUB_ID],
                "responses": {"200": {"description": "The lines"}, **OWNER_ERRORS},
            }
        },
        "/api/v1/clubs/{club_id}/history/{line}/undo": {
            "post": {
                "summary": "Undo a link, a split, a new member, a counting change or a cancel",
                "security": owner,
                "parameters": [
                    CLUB_ID,
                    {
                        "name": "line",
                        "in": "path",
                        "required": True,
                        "schema": {"type": "integer", "minimum": 1},
                    },
                    IDEMPOTENCY,
                ],
                "responses": {"200": stored, **OWNER_ERRORS},
            }
        },
        "/api/v1/clubs/{club_id}/events": {
            "post": {
                "summary": "An event joins the club (with its director's token)",
                "security": owner,
                "parameters": [CLUB_ID, IDEMPOTENCY],
                "requestBody": _object(
                    ["event", "director_token"],
                    {
                        "event": {"type": "string"},
                        "director_token": {"type": "string"},
                        "plan": {"type": "integer", "description": "the planned evening it is, started"},
                    },
                ),
                "responses": {"200": stored, **OWNER_ERRORS},
            }
        },
        "/api/v1/clubs/{club_id}/events/{event_id}": {
            "delete": {
                "summary": "An event leaves the club (joined by mistake)",
                "security": owner,
                "parameters": [CLUB_ID, EVENT_ID, IDEMPOTENCY],
                "responses": {"200": stored, **OWNER_ERRORS},
            }
        },
        "/api/v1/clubs/{club_id}/seasons/{season_id}/events": {
            "post": {
                "summary": "An event of no club joins the club in this season (its date in the season)",
                "security": owner,
                "parameters": [CLUB_ID, SEASON_ID, IDEMPOTENCY],
                "requestBody": _object(
                    ["event", "director_token"],
                    {"event": {"type": "string"}, "director_token": {"type": "string"}},
                ),
                "responses": {"200": season, **OWNER_ERRORS},
            }
        },
        "/api/v1/clubs/{club_id}/seasons/{season_id}/counting": {
            "post": {
                "summary": "The season's counting changed (its ladder ranked anew)",
                "security": owner,
                "parameters": [CLUB_ID, SEASON_ID, IDEMPOTENCY],
                "requestBody": _object(["ladder"], {"ladder": LADDER}),
                "responses": {"200": season, **OWNER_ERRORS},
            }
        },
        "/api/v1/clubs/{club_id}/seasons/{season_id}/plans": {
            "post": {
                "summary": "An evening planned on the season's calendar (no entrants yet)",
                "security": owner,
                "parameters": [CLUB_ID, SEASON_ID, IDEMPOTENCY],
                "requestBody": {
                    "required": True,
                    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Plan"}}},
                },
                "responses": {"201": plan, **OWNER_ERRORS},
            }
        },
        "/api/v1/clubs/{club_id}/plans/{plan_id}": {
            "put": {
                "summary": "A planned evening changed (the whole plan)",
                "security": owner,
                "parameters": [CLUB_ID, PLAN_ID, IDEMPOTENCY],
                "requestBody": {
                    "required": True,
                    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Plan"}}},
                },
                "responses": {"200": plan, **OWNER_ERRORS},
            }
        },
        "/api/v1/clubs/{club_id}/plans/{plan_id}/cancel": {
            "post": {
                "summary": "A planned evening cancelled (undone from the club's history)",
                "security": owner,
                "parameters": [CLUB_ID, PLAN_ID, IDEMPOTENCY],
                "responses": {"200": plan, **OWNER_ERRORS},
            }
        },
        "/api/v1/clubs/{club_id}/seasons": {
            "post": {
                "summary": "A season of the club and how its ladder counts (RULES.md E8)",
                "security": owner,
                "parameters": [CLUB_ID, IDEMPOTENCY],
                "requestBody": {
                    "required": True,
                    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Season"}}},
                },
                "responses": {"201": season, **OWNER_ERRORS},
            }
        },
        "/api/v1/clubs/{club_id}/seasons/{season_id}": {
            "get": {
                "summary": "A season with its ladder and evenings",
                "parameters": [CLUB_ID, SEASON_ID],
                "responses": {"200": season, **OWNER_ERRORS},
            }
        },
    }


__all__ = ["paths", "schemas"]
