"""The OpenAPI 3.1 document of the JSON API (served at ``/api/v1/openapi.json``).

The shapes of a box, a hand, a game, a ruling and a score sheet are generated from the
contract's typed values (:mod:`scorekeeper.engine.contract`), so the document says what
the code reads; only the API's own envelopes (errors, stored games, writes) are written
here.

One module a resource: :mod:`.games` and :mod:`.events`, on the shapes they share
(:mod:`.shapes`); this module puts the document together."""

from __future__ import annotations

from typing import Any

from . import clubs, events, games

SCHEMAS: dict[str, Any] = {**games.SCHEMAS, **events.schemas(), **clubs.schemas()}
"""Every shape the document names, the games' first."""


def document() -> dict[str, Any]:
    """The whole OpenAPI document."""
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Scorekeeper API",
            "version": "1",
            "description": "Adjudication and score keeping for Jersey Gin, Gin Rummy "
            "and its family. Shapes as in CONTRACT.md.",
        },
        "paths": {**games.paths(), **events.paths(), **clubs.paths()},
        "components": {
            "schemas": SCHEMAS,
            "securitySchemes": {
                "editToken": {"type": "http", "scheme": "bearer", "description": "The game's edit_token"},
                "directorToken": {
                    "type": "http",
                    "scheme": "bearer",
                    "description": "The event's director_token",
                },
                "ownerToken": {"type": "http", "scheme": "bearer", "description": "The club's owner_token"},
            },
        },
    }
