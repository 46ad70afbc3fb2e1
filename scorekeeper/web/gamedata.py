"""A stored game as the views need it: loaded, scored, and who may change it.

Edit rights live in the signed session cookie: the edit secret of each game this
browser created or joined through an edit link. The id alone (the share link)
only reads.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask import abort, session

from .. import engine, store

MAX_REMEMBERED = 30


@dataclass
class LoadedGame:
    """A game row with its live boxes, its CONTRACT.md input and the engine's score."""

    row: store.Game
    boxes: list[store.Box]
    data: dict[str, Any]
    score: dict[str, Any] | None
    error: str | None

    @property
    def id(self) -> str:
        return self.row.id

    @property
    def version(self) -> int:
        return self.row.version

    @property
    def rulings(self) -> dict[int, dict[str, Any]]:
        """Each live box's ruling by box id, as the engine gives it for this version: what
        the store holds, so a write compares against it instead of reading them all."""
        return {ruling["id"]: ruling for ruling in (self.score or {}).get("boxes") or []
                if "id" in ruling}

    @property
    def players(self) -> list[str]:
        return list(self.row.players)

    def rules(self) -> Any:
        """The frozen rule set: the preset with the game's own settings."""
        return engine.find_rules(self.row.rules).with_settings(self.row.settings)


def load(game_id: str) -> LoadedGame:
    """The game or 404; scored by the engine (an engine error is shown, not raised)."""
    found = store.load_game(store.session(), game_id)
    if found is None:
        abort(404, description="There is no game at this address. Check the link.")
    row, boxes = found
    data = store.game_input(row, boxes)
    score, error = rescore(data)
    return LoadedGame(row, boxes, data, score, error)


def rescore(data: dict[str, Any]) -> tuple[dict[str, Any] | None, str | None]:
    """The engine's score of a game, or the message of why it cannot be scored."""
    try:
        return engine.score(data), None
    except engine.ScorekeeperError as err:
        return None, err.message


def can_edit(game_id: str) -> bool:
    """Whether this browser holds the game's edit secret."""
    token = (session.get("edit") or {}).get(game_id)
    if not token:
        return False
    row = store.get_game(store.session(), game_id)
    return row is not None and store.check_edit_token(row, token)


def require_edit(game_id: str) -> None:
    if not can_edit(game_id):
        abort(403)


def remember(game_id: str, token: str | None = None) -> None:
    """Note the game in this browser's list, and its edit secret if given."""
    session.permanent = True
    seen = [g for g in session.get("games", []) if g != game_id]
    session["games"] = [game_id, *seen][:MAX_REMEMBERED]
    if token is not None:
        edit = {k: v for k, v in (session.get("edit") or {}).items() if k in session["games"]}
        edit[game_id] = token
        session["edit"] = edit


def remembered() -> list[str]:
    return list(session.get("games", []))
