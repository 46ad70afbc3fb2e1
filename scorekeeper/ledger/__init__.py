"""The use cases of a score keeper: start a game, record, correct, delete and undo a
box, end a game by agreement, change its house rules, rematch, load a game with its
score, and the codes that let a phone keep score (LAYOUT.md floor 3).

The HTML views and the JSON API both come here; they only parse, call and render.
Values in and out are the contract's (:mod:`scorekeeper.engine.contract`); the store
receives plain records.

One concurrency policy for every caller: a write holds the game (the store's
:func:`~scorekeeper.store.writing`: ``BEGIN IMMEDIATE`` on SQLite, ``SELECT ... FOR
UPDATE`` on PostgreSQL) from the read it is based on to its commit, so it is never
lost to a race and never retried. A write may say what it was based on: the game's
``version`` (the API's ``If-Match``, an edit form) or the ``number`` of the box it
records (a box form). When that no longer holds, the write raises a
:class:`Conflict` that carries the game as it is now, for the caller to show.

A write may carry an idempotency ``key``: a resend (a double tap, a retry after a
dropped connection) does the write once and answers the first result; the same key
with other content is :class:`KeyReused`, never a silent drop.

Every write goes through one prologue (:mod:`.prologue`'s ``_held``: hold the game,
answer a repeated key, check the version) and builds the game after it from the game
before it and the sheet it scored (:meth:`Table.after`): a write scores its game once.
Starting a game and changing the game itself live here; writing boxes (record,
correct, delete, undo) in :mod:`.boxes`; the tables and errors in :mod:`.table`, the
codes that let a phone keep score in :mod:`.codes`, an event's use cases in
:mod:`.events`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from sqlalchemy.orm import Session

from .. import engine, store
from ..engine.contract import GameEntry
from ..engine.errors import GameOverError, MalformedError
from ..engine.history import Kind
from . import cache  # noqa: F401  (ledger.cache: the scored games kept per process)
from .boxes import UNDONE, NothingToUndo, Undone, correct, delete, record, undo
from .codes import (
    JOIN_ALPHABET,
    JOIN_LENGTH,
    CodesUnknown,
    as_join_code,
    codes_of,
    free_codes,
    joined,
    make_codes,
    renew_codes,
)
from .prologue import (
    _after,
    _box_number,
    _changed_rulings,
    _check_room,
    _current,
    _digest,
    _held,
    _rows,
    _scored,
    _still_open,
    _stored_entry,
    _stored_ruling,
    load,
)
from .table import (
    BoxTaken,
    Conflict,
    KeyReused,
    LedgerError,
    LiveBox,
    NotFound,
    Stale,
    Started,
    Table,
    TooManyBoxes,
    Written,
    scoring_of,
    sheet_of,
)

# --- starting -----------------------------------------------------------------------------


def start(
    db: Session,
    game: GameEntry,
    *,
    key: str | None = None,
    token: str | None = None,
    rematch_of: str | None = None,
    secret: bytes | None = None,
    max_boxes: int | None = None,
) -> Started:
    """Store a new game, with any boxes it already has (an import): the engine scores
    it first, so nothing is stored of a game it refuses. With the server's ``secret``
    the game gets its first round of codes (:func:`make_codes`), else ``token`` is its
    edit secret (a new random one when None) and it has no short code; a ``key``
    already used for a start answers that game again; more than ``max_boxes`` boxes is
    :class:`TooManyBoxes`."""
    stored = _stored_start(db, game, key, token, rematch_of, secret, max_boxes)
    if isinstance(stored, Started):
        return stored
    game_id, edit_code = stored
    return Started(_current(db, game_id), edit_code)


def start_game(db: Session, game: GameEntry, *, key: str | None = None, secret: bytes | None = None) -> str:
    """:func:`start`, answering only the new game's id: the game is not read back and
    scored (an event's seating starts hundreds in one request, and a third of each
    start was reading it back, issue 34); its first page scores it."""
    stored = _stored_start(db, game, key, None, None, secret, None)
    return stored.table.id if isinstance(stored, Started) else stored[0]


def _stored_start(
    db: Session,
    game: GameEntry,
    key: str | None,
    token: str | None,
    rematch_of: str | None,
    secret: bytes | None,
    max_boxes: int | None,
) -> Started | tuple[str, str | None]:
    """A start stored: the new game's id and edit secret, or the earlier start of this key."""
    digest = _digest("start", game.to_json(), rematch_of)
    if key is not None and (earlier := _started_before(db, key, digest)) is not None:
        return earlier
    _check_room(len(game.boxes), max_boxes)
    sheet = sheet_of(scoring_of(game))
    if game.dealer is None:
        raise MalformedError("say who dealt the first box ('dealer')", "dealer")
    game_id = store.new_game_id()
    codes = None if secret is None else free_codes(db, secret, game_id, 1)
    try:
        row, edit_code = store.create_game(
            db,
            store.NewGame(
                rules=game.rules,
                settings=dict(game.settings),
                players=list(game.players),
                dealer=game.dealer,
                stake=game.stake,
                place=game.place,
                started=game.started,
                ended=game.ended,
                currency=game.currency,
                summary=store.summarize(sheet),
                rematch_of=rematch_of,
            ),
            [
                store.StoredBox(_stored_entry(box), _stored_ruling(ruled))
                for box, ruled in zip(game.boxes, sheet.boxes, strict=True)
            ],
            key=None if key is None else store.Key(key, digest),
            token=token,
            game_id=game_id,
            codes=codes,
        )
    except store.KeyTaken:  # a start with this key at the same moment won
        assert key is not None
        earlier = _started_before(db, key, digest)
        assert earlier is not None
        return earlier
    return row.id, edit_code


def import_game(db: Session, data: object, max_boxes: int | None = None) -> tuple[store.GameRow, str]:
    """Store a CONTRACT.md game (an export, or any game ``score`` takes) as a new game:
    its row and its new edit secret. Box ids in the input are dropped (the store numbers
    boxes); a game the engine refuses raises its error and nothing is stored."""
    game = GameEntry.from_json(data)
    started = start(db, game.with_boxes(box.relabelled(None) for box in game.boxes), max_boxes=max_boxes)
    assert started.token is not None
    return started.table.row, started.token


def _started_before(db: Session, key: str, digest: str) -> Started | None:
    found = store.started_with(db, key)
    if found is None:
        return None
    game_id, stored_digest = found
    if stored_digest is not None and stored_digest != digest:
        raise KeyReused("this form was already used to start another game: reload the page and start again")
    return Started(_current(db, game_id), None, repeated=True)


def rematch(
    db: Session,
    game_id: str,
    *,
    key: str | None = None,
    token: str | None = None,
    secret: bytes | None = None,
) -> Started:
    """A new game with the same players, rules and stake; the deal moves on one seat
    from the last box's dealer."""
    table = _current(db, game_id)
    players = table.players
    last = table.sheet.boxes[-1].dealer if table.sheet and table.sheet.boxes else None
    dealer = last if last in players else table.row.dealer
    game = dataclasses.replace(
        table.game, boxes=(), started=None, dealer=players[(players.index(dealer) + 1) % len(players)]
    )
    return start(db, game, key=key, token=token, rematch_of=table.id, secret=secret)


# --- the game itself ---------------------------------------------------------------------


class RulesRefused(LedgerError):
    """New house rules under which a stored box is no longer valid: nothing changed.
    ``number`` is that box (from 1), ``error`` the engine's reason."""

    def __init__(self, number: int, error: engine.ScorekeeperError) -> None:
        super().__init__(f"box {number} is not valid under these rules: {error.message}")
        self.number, self.error = number, error
        self.where = error.where


def end(
    db: Session,
    game_id: str,
    *,
    version: int | None = None,
    key: str | None = None,
    by: str | None = None,
) -> Written:
    """End the game by agreement after its last box (K5; a table that breaks up; ``by``
    the director, E7): no game or box bonus, the totals as they stand settled; no box
    may follow. A game already over (or ended) is refused, naming how it ended."""

    def write(table: Table, stored_key: store.Key | None) -> Written:
        if table.sheet is None:
            raise MalformedError(f"this game cannot be scored, so not ended: {table.error}", "ended")
        if table.sheet.game_over:
            how = "ended by agreement" if table.game.ended else f"over: {table.sheet.winner} won"
            raise GameOverError(f"the game is already {how}", "ended")
        ended = dataclasses.replace(table.game, ended="agreed")
        scoring, sheet, summary = _scored(ended)
        detail: dict[str, Any] = {"after_box": len(table.boxes), "totals": dict(sheet.totals)}
        if by is not None:
            detail["by"] = by
        result = store.amend_game(
            db,
            game_id,
            table.version,
            store.Amendment(Kind.ENDED.value, detail, ended="agreed"),
            rulings={},
            summary=summary,
            key=stored_key,
        )
        return _after(db, table, result, ended, _rows(table), scoring, summary, ended="agreed")

    return _held(db, game_id, _digest("end", by, None), key, version, write)


def reopen(db: Session, game_id: str, *, version: int | None = None, key: str | None = None) -> Written:
    """Open again a game ended by agreement (a director's end by mistake): boxes may
    follow, and the line in its history says so. A game played to its end stays over."""

    def write(table: Table, stored_key: store.Key | None) -> Written:
        if not table.game.ended:
            raise GameOverError("this game was not ended by agreement: there is nothing to reopen", "ended")
        opened = dataclasses.replace(table.game, ended=None)
        scoring, _, summary = _scored(opened)
        result = store.amend_game(
            db,
            game_id,
            table.version,
            store.Amendment(Kind.REOPENED.value, {"after_box": len(table.boxes)}, reopen=True),
            rulings={},
            summary=summary,
            key=stored_key,
        )
        return _after(db, table, result, opened, _rows(table), scoring, summary, ended=None)

    return _held(db, game_id, _digest("reopen", None, None), key, version, write)


def change_rules(
    db: Session,
    game_id: str,
    settings: Mapping[str, Any],
    *,
    version: int | None = None,
    key: str | None = None,
) -> Written:
    """Play on under other house rules: ``settings`` (those that differ from the preset)
    replace the game's, and the whole game is rescored under them. A stored box the new
    rules make invalid is :class:`RulesRefused`, naming it; nothing changes then."""
    new = dict(settings)

    def write(table: Table, stored_key: store.Key | None) -> Written:
        _still_open(table)
        engine.find_rules(table.game.rules).with_settings(new)  # the settings alone first
        game = dataclasses.replace(table.game, settings=new)
        try:
            scoring = scoring_of(game)
        except engine.ScorekeeperError as err:
            raise RulesRefused(_box_number(err.where) or len(table.boxes), err) from None
        sheet = sheet_of(scoring)
        summary = store.summarize(sheet)
        before = dict(table.row.settings)
        result = store.amend_game(
            db,
            game_id,
            table.version,
            store.Amendment("rules", {"before": before, "after": new}, settings=new),
            rulings=_changed_rulings(table, sheet, None),
            summary=summary,
            key=stored_key,
        )
        return _after(db, table, result, game, _rows(table), scoring, summary, settings=new)

    return _held(db, game_id, _digest("rules", new, None), key, version, write)


__all__ = [
    "JOIN_ALPHABET",
    "JOIN_LENGTH",
    "UNDONE",
    "BoxTaken",
    "CodesUnknown",
    "Conflict",
    "KeyReused",
    "LedgerError",
    "LiveBox",
    "NotFound",
    "NothingToUndo",
    "RulesRefused",
    "Stale",
    "Started",
    "Table",
    "TooManyBoxes",
    "Undone",
    "Written",
    "as_join_code",
    "change_rules",
    "codes_of",
    "correct",
    "delete",
    "end",
    "free_codes",
    "import_game",
    "joined",
    "load",
    "make_codes",
    "record",
    "rematch",
    "renew_codes",
    "reopen",
    "start",
    "start_game",
    "undo",
]
