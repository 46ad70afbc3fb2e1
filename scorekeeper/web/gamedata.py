"""A stored game as the views need it: loaded, scored, and who may change it.

Edit rights live in the signed session cookie: the edit secret of each game this
browser created or joined through an edit link. The id alone (the share link)
only reads.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from flask import Flask, abort, current_app, session

from .. import engine, store
from ..lru import Lru
from . import database

MAX_REMEMBERED = 30
SCORED_GAMES = 256
"""How many games each server process keeps scored (:class:`Versions`)."""


@dataclass(frozen=True)
class Scored:
    """One stored version of a game: its live boxes, its CONTRACT.md input and the
    engine's score of it (or why it cannot be scored). Shared by the requests that
    read that version: nothing in it is changed, only replaced."""

    boxes: tuple[store.BoxRow, ...]
    data: dict[str, Any]
    scoring: engine.Scoring | None
    score: dict[str, Any] | None
    error: str | None

    @classmethod
    def of(cls, row: store.GameRow, boxes: Sequence[store.BoxRow]) -> Scored:
        data = store.game_input(row, boxes)
        try:
            scoring = engine.Scoring.of(data)
        except engine.ScorekeeperError as err:
            return cls(tuple(boxes), data, None, None, err.message)
        return cls(tuple(boxes), data, scoring, scoring.sheet(), None)


class Versions:
    """The scored games this process read or wrote last: :data:`SCORED_GAMES` games,
    each at the one version it saw last.

    Every write bumps a game's version and ``updated_at``, and nothing else in its row
    changes after it is created: a game read again at the version remembered is the
    same game, so reading it is a two-column row, not its boxes, and recording a box
    rules that box alone. Each process keeps its own; a version it has not seen
    (written by another process) is read and scored in full, and replaces the one
    remembered.
    """

    def __init__(self, size: int = SCORED_GAMES) -> None:
        self._games: Lru[str, LoadedGame] = Lru(size)

    def get(self, game_id: str, stamp: store.Stamp) -> LoadedGame | None:
        """The game as remembered, if it is at ``stamp``."""
        game = self._games.get(game_id)
        return game if game is not None and game.stamp == stamp else None

    def put(self, game: LoadedGame) -> None:
        self._games.put(game.id, game)


def init_app(app: Flask) -> None:
    app.extensions["scorekeeper.versions"] = Versions()


def _versions() -> Versions:
    versions: Versions = current_app.extensions["scorekeeper.versions"]
    return versions


@dataclass(frozen=True)
class LoadedGame:
    """A game row with its live boxes, its CONTRACT.md input and the engine's score.

    One version of a game is shared by the requests that read it (:class:`Versions`),
    and so is what they render of it (:meth:`rendered`)."""

    row: store.GameRow
    scored: Scored
    renders: dict[Hashable, str] = field(default_factory=dict, compare=False, repr=False)

    @property
    def id(self) -> str:
        return self.row.id

    @property
    def stamp(self) -> store.Stamp:
        return self.row.version, self.row.updated_at

    @property
    def version(self) -> int:
        return self.row.version

    @property
    def boxes(self) -> tuple[store.BoxRow, ...]:
        return self.scored.boxes

    @property
    def data(self) -> dict[str, Any]:
        return self.scored.data

    @property
    def score(self) -> dict[str, Any] | None:
        return self.scored.score

    @property
    def error(self) -> str | None:
        return self.scored.error

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

    def rendered(self, key: Hashable, render: Callable[[], str]) -> str:
        """What ``render`` gives for this version, rendered once: ``key`` names what
        else it depends on (who may edit, say)."""
        found = self.renders.get(key)
        if found is None:
            found = self.renders[key] = render()
        return found

    def with_box(self, entry: Mapping[str, Any]) -> engine.Scoring:
        """The game scored with ``entry`` added at the end (raises the engine's errors)."""
        if self.scored.scoring is None:
            return engine.Scoring.of({**self.data, "boxes": [*self.data["boxes"], entry]})
        return self.scored.scoring.add(entry)

    def appended(self, written: store.WriteResult,
                 entry: Mapping[str, Any]) -> dict[str, Any] | None:
        """Remember the version an append of ``entry`` wrote, for the requests after it;
        its score (the new box with the id the store gave it), or None for a repeat."""
        if written.repeated or written.box_id is None or written.updated_at is None:
            return None
        stored = store.clean_entry(entry)
        box = {**stored, "id": written.box_id}
        try:
            scoring = self.with_box(box)
        except engine.ScorekeeperError:
            return None
        data = {**self.data, "boxes": [*self.data["boxes"], box]}
        scored = Scored((*self.boxes, store.BoxRow(written.box_id, stored, 1)), data, scoring,
                        scoring.sheet(), None)
        row = dataclasses.replace(self.row, version=written.version,
                                  updated_at=written.updated_at,
                                  summary=store.summarize(scored.score or {}))
        _versions().put(LoadedGame(row, scored))
        return scored.score


def load(game_id: str) -> LoadedGame:
    """The game or 404; scored by the engine (an engine error is shown, not raised)."""
    game = find(game_id)
    if game is None:
        abort(404, description="There is no game at this address. Check the link.")
    return game


def find(game_id: str) -> LoadedGame | None:
    """The game, or None: its version is read, its row and boxes only when this process
    has not scored that version yet (:class:`Versions`)."""
    db = database.session()
    stamp = store.game_stamp(db, game_id)
    if stamp is None:
        return None
    game = _versions().get(game_id, stamp)
    if game is None:
        found = store.load_game(db, game_id)
        if found is None:
            return None
        row, boxes = found
        game = LoadedGame(row, Scored.of(row, boxes))
        _versions().put(game)
    return game


def can_edit(game: str | LoadedGame) -> bool:
    """Whether this browser holds the edit secret of the game (its id, or the game read)."""
    game_id = game if isinstance(game, str) else game.id
    token = (session.get("edit") or {}).get(game_id)
    if not token:
        return False
    row = store.get_game(database.session(), game_id) if isinstance(game, str) else game.row
    return row is not None and store.check_edit_token(row, token)


def require_edit(game_id: str) -> None:
    if not can_edit(game_id):
        abort(403)


def remember(game_id: str, token: str | None = None) -> None:
    """Note the game in this browser's list, and its edit secret if given."""
    seen = [g for g in session.get("games", []) if g != game_id]
    games = [game_id, *seen][:MAX_REMEMBERED]
    if games != session.get("games") or not session.permanent:
        # Only a change is written: an unchanged session sends no new cookie.
        session.permanent = True
        session["games"] = games
    if token is not None:
        edit = {k: v for k, v in (session.get("edit") or {}).items() if k in session["games"]}
        edit[game_id] = token
        session["edit"] = edit


def remembered() -> list[str]:
    return list(session.get("games", []))
