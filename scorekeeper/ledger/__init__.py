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

One module: each use case is a short function over the same few helpers (holding the
game, checking a key, ruling a box), and reading them side by side is how the policy
above stays the same for all of them.
"""

from __future__ import annotations

import base64
import dataclasses
import hashlib
import hmac
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy.orm import Session

from .. import engine, store
from ..engine.contract import BoxEntry, GameEntry, Sheet, SheetBox
from ..engine.errors import GameOverError, MalformedError
from . import cache


class LedgerError(Exception):
    """A use case that cannot go ahead as asked."""


class NotFound(LedgerError, LookupError):
    """No such game, or no such live box in it."""


class Conflict(LedgerError):
    """The write was based on a game that has changed since: ``table`` is the game now."""

    def __init__(self, table: Table, message: str) -> None:
        super().__init__(message)
        self.table = table


class Stale(Conflict):
    """The write named a version of the game that is no longer the current one."""


class BoxTaken(Conflict):
    """The box this write records was recorded meanwhile (by another phone):
    ``number`` (from 1) and the box that stands there now."""

    def __init__(self, table: Table, number: int, box: SheetBox) -> None:
        super().__init__(table, f"box {number} was recorded meanwhile")
        self.number = number
        self.box = box


class KeyReused(LedgerError):
    """An idempotency key sent again with other content: nothing was stored."""


class TooManyBoxes(LedgerError):
    """A game would hold more boxes than the server keeps in one game (``MAX_BOXES``):
    ``number`` is the box refused (from 1), ``where`` the contract's path to it."""

    def __init__(self, number: int, most: int) -> None:
        super().__init__(engine.too_many_boxes(number, most))
        self.number, self.most = number, most
        self.where = f"boxes[{number - 1}]"


def _check_room(boxes: int, max_boxes: int | None) -> None:
    """Refuse a game of more than ``max_boxes`` boxes (the engine's own bound at most)."""
    most = min(max_boxes or engine.MAX_BOXES, engine.MAX_BOXES)
    if boxes > most:
        raise TooManyBoxes(most + 1, most)


@dataclass(frozen=True)
class Table:
    """A stored game as the use cases and pages see it: its row, its live boxes, the
    game as CONTRACT.md JSON would have it, and the engine's score sheet (or why the
    engine cannot score it: a game stored under older rules, say)."""

    row: store.GameRow
    boxes: tuple[store.BoxRow, ...]
    game: GameEntry
    scoring: engine.Scoring | None
    sheet: Sheet | None
    error: str | None

    @classmethod
    def of(cls, row: store.GameRow, boxes: Sequence[store.BoxRow]) -> Table:
        game = store.game_entry(row, boxes)
        try:
            scoring = engine.Scoring.of(game.to_json())
        except engine.ScorekeeperError as err:
            return cls(row, tuple(boxes), game, None, None, err.message)
        return cls(row, tuple(boxes), game, scoring, Sheet.from_json(scoring.sheet()), None)

    @property
    def id(self) -> str:
        return self.row.id

    @property
    def version(self) -> int:
        return self.row.version

    @property
    def players(self) -> list[str]:
        return list(self.row.players)

    @property
    def next_number(self) -> int:
        """The number (from 1) of the box to be recorded next."""
        return len(self.boxes) + 1

    def rules(self) -> engine.Rules:
        """The frozen rule set: the preset with the game's own settings."""
        return engine.find_rules(self.row.rules).with_settings(self.row.settings)

    def place_of(self, box_id: int) -> int | None:
        """Where a live box stands (from 0), or None."""
        return next((i for i, box in enumerate(self.boxes) if box.id == box_id), None)

    def ruled(self, box_id: int) -> SheetBox | None:
        """A live box's ruling on the sheet, or None."""
        place = self.place_of(box_id)
        if place is None or self.sheet is None or place >= len(self.sheet.boxes):
            return None
        return self.sheet.boxes[place]

    def scored_with(self, entry: BoxEntry, place: int | None = None) -> Sheet:
        """The sheet with ``entry`` added at the end, or put at ``place`` in place of the
        box there (raises the engine's errors). An added box is ruled alone."""
        if place is None:
            if self.scoring is not None:
                return Sheet.from_json(self.scoring.add(entry.to_json()).sheet())
            return _score(self.game.with_boxes([*self.game.boxes, entry]))
        boxes = list(self.game.boxes)
        boxes[place] = entry.relabelled(boxes[place].id)
        return _score(self.game.with_boxes(boxes))

    def scored_without(self, place: int) -> Sheet:
        """The sheet with the box at ``place`` deleted."""
        return _score(self.game.with_boxes(
            box for i, box in enumerate(self.game.boxes) if i != place))


def _score(game: GameEntry) -> Sheet:
    return Sheet.from_json(engine.score(game.to_json()))


@dataclass(frozen=True)
class Written:
    """What a write did: the game after it, the box it touched (None for a deleted
    box's id on the sheet) and whether it only repeated an earlier write.
    ``written_version`` is the version this write made (the game read after it may
    already be further on, when another phone wrote in between)."""

    table: Table
    box_id: int | None
    repeated: bool = False
    written_version: int | None = None

    @property
    def version(self) -> int:
        return self.table.version if self.written_version is None else self.written_version

    @property
    def box(self) -> SheetBox | None:
        return None if self.box_id is None else self.table.ruled(self.box_id)


@dataclass(frozen=True)
class Started:
    """A new game and its edit secret (None when the start only repeated an earlier
    one: the secret is kept only as a hash, so the caller that chose it gives it again)."""

    table: Table
    token: str | None
    repeated: bool = False


# --- reading ------------------------------------------------------------------------------


def load(db: Session, game_id: str) -> Table | None:
    """The game with its live boxes, scored; None if there is none. A game unchanged
    since it was last scored in this process is not scored again (:mod:`.cache`)."""
    return cache.scored(db, game_id, Table.of)


def _current(db: Session, game_id: str) -> Table:
    table = load(db, game_id)
    if table is None:
        raise NotFound(f"there is no game {game_id!r}")
    return table


def _still_open(table: Table) -> None:
    """A game the players ended by agreement stays as they ended it: no box corrected,
    deleted or undone, no rule changed (issue 23; a new box the engine refuses alike)."""
    if table.game.ended:
        raise GameOverError(f"the players ended this game by agreement after box "
                            f"{len(table.boxes)}: it stays as it was ended; start a new "
                            "game (Rematch) to play on", "ended")


# --- starting -----------------------------------------------------------------------------


def start(db: Session, game: GameEntry, *, key: str | None = None,
          token: str | None = None, rematch_of: str | None = None,
          secret: bytes | None = None, max_boxes: int | None = None) -> Started:
    """Store a new game, with any boxes it already has (an import): the engine scores
    it first, so nothing is stored of a game it refuses. With the server's ``secret``
    the game gets its first round of codes (:func:`make_codes`), else ``token`` is its
    edit secret (a new random one when None) and it has no short code; a ``key``
    already used for a start answers that game again; more than ``max_boxes`` boxes is
    :class:`TooManyBoxes`."""
    digest = _digest("start", game.to_json(), rematch_of)
    if key is not None and (earlier := _started_before(db, key, digest)) is not None:
        return earlier
    _check_room(len(game.boxes), max_boxes)
    sheet = _score(game)
    if game.dealer is None:
        raise MalformedError("say who dealt the first box ('dealer')", "dealer")
    game_id = store.new_game_id()
    codes = None if secret is None else _free_codes(db, secret, game_id, 1)
    try:
        row, edit_code = store.create_game(
            db, store.NewGame(rules=game.rules, settings=dict(game.settings),
                              players=list(game.players), dealer=game.dealer,
                              stake=game.stake, place=game.place, started=game.started,
                              ended=game.ended, currency=game.currency,
                              summary=store.summarize(sheet), rematch_of=rematch_of),
            [store.StoredBox(_stored_entry(box), _stored_ruling(ruled))
             for box, ruled in zip(game.boxes, sheet.boxes, strict=True)],
            key=_key(key, digest), token=token, game_id=game_id, codes=codes)
    except store.KeyTaken:  # a start with this key at the same moment won
        assert key is not None
        earlier = _started_before(db, key, digest)
        assert earlier is not None
        return earlier
    return Started(_current(db, row.id), edit_code)


def import_game(db: Session, data: object,
                max_boxes: int | None = None) -> tuple[store.GameRow, str]:
    """Store a CONTRACT.md game (an export, or any game ``score`` takes) as a new game:
    its row and its new edit secret. Box ids in the input are dropped (the store numbers
    boxes); a game the engine refuses raises its error and nothing is stored."""
    game = GameEntry.from_json(data)
    started = start(db, game.with_boxes(box.relabelled(None) for box in game.boxes),
                    max_boxes=max_boxes)
    assert started.token is not None
    return started.table.row, started.token


def _started_before(db: Session, key: str, digest: str) -> Started | None:
    found = store.started_with(db, key)
    if found is None:
        return None
    game_id, stored_digest = found
    if stored_digest is not None and stored_digest != digest:
        raise KeyReused("this form was already used to start another game: reload the "
                        "page and start again")
    return Started(_current(db, game_id), None, repeated=True)


def rematch(db: Session, game_id: str, *, key: str | None = None,
            token: str | None = None, secret: bytes | None = None) -> Started:
    """A new game with the same players, rules and stake; the deal moves on one seat
    from the last box's dealer."""
    table = _current(db, game_id)
    players = table.players
    last = table.sheet.boxes[-1].dealer if table.sheet and table.sheet.boxes else None
    dealer = last if last in players else table.row.dealer
    game = dataclasses.replace(
        table.game, boxes=(), started=None,
        dealer=players[(players.index(dealer) + 1) % len(players)])
    return start(db, game, key=key, token=token, rematch_of=table.id, secret=secret)


# --- codes: who may keep score -------------------------------------------------------------

JOIN_ALPHABET = "23456789ABCDEFGHJKMNPQRSTVWXYZ"
"""The short join code's characters: no 0/O, 1/I/L, nor U beside V (30 characters:
a code of 6 is one of 729 million)."""
JOIN_LENGTH = 6


class CodesUnknown(LedgerError):
    """The game's codes cannot be shown: they were made before codes had rounds (at
    random), or with another server secret. Renewing them makes new ones."""


def make_codes(secret: bytes, game_id: str, round: int) -> store.Codes:
    """The game's codes of this round, made from the server's secret: the same on every
    server that shares it, so any phone with edit rights can be shown them while the
    database keeps only their hashes; a new round gives unrelated codes.

    >>> codes = make_codes(b"k" * 32, "game", 1)
    >>> len(codes.edit), len(codes.join), codes == make_codes(b"k" * 32, "game", 1)
    (32, 6, True)
    >>> make_codes(b"k" * 32, "game", 2).join != codes.join
    True
    """
    edit = hmac.new(secret, f"edit:{game_id}:{round}".encode(), hashlib.sha256).digest()
    join = hmac.new(secret, f"join:{game_id}:{round}".encode(), hashlib.sha256).digest()
    number = int.from_bytes(join[:8], "big")
    letters = []
    for _ in range(JOIN_LENGTH):
        number, digit = divmod(number, len(JOIN_ALPHABET))
        letters.append(JOIN_ALPHABET[digit])
    return store.Codes(edit=base64.urlsafe_b64encode(edit[:24]).decode("ascii"),
                       join="".join(letters), round=round)


def as_join_code(text: str) -> str | None:
    """What a phone typed, as a short join code if it can be one: case, spaces and
    dashes do not matter.

    >>> as_join_code(" k7m-2qx "), as_join_code("K7M2Q0"), as_join_code("abc")
    ('K7M2QX', None, None)
    """
    code = "".join(text.split()).replace("-", "").upper()
    if len(code) != JOIN_LENGTH or any(c not in JOIN_ALPHABET for c in code):
        return None
    return code


def codes_of(row: store.GameRow, secret: bytes) -> store.Codes:
    """The game's current codes, for a phone with edit rights to show and share."""
    if row.codes_round is None:
        raise CodesUnknown("this game's codes were made at random: renew them to get a "
                           "short join code")
    codes = make_codes(secret, row.id, row.codes_round)
    if not store.check_edit_token(row, codes.edit):
        raise CodesUnknown("this game's codes were made with another server key: renew "
                           "them to see the new ones")
    return codes


def renew_codes(db: Session, game_id: str, secret: bytes) -> store.Codes:
    """New codes for the game; the old edit link and short code stop working at once.
    When another phone renewed them at the same moment, its codes stand (both phones
    are shown the same ones)."""
    row = store.get_game(db, game_id)
    if row is None:
        raise NotFound(f"there is no game {game_id!r}")
    codes = _free_codes(db, secret, row.id, (row.codes_round or 0) + 1)
    if store.renew_codes(db, row.id, row.codes_round, codes):
        return codes
    now = store.get_game(db, game_id)
    assert now is not None
    return codes_of(now, secret)


def _free_codes(db: Session, secret: bytes, game_id: str, round: int) -> store.Codes:
    """The codes of the first round from ``round`` whose short code no other game
    uses: a short code names one game."""
    while True:
        codes = make_codes(secret, game_id, round)
        if all(g.id == game_id for g in store.games_with_join_code(db, codes.join)):
            return codes
        round += 1


def joined(db: Session, code: str, secret: bytes,
           game_id: str | None = None) -> tuple[store.GameRow, str] | None:
    """The game a typed code unlocks (its edit code from a link, or its short join code
    in any case), with the edit code a phone then keeps; None for a wrong code. Without
    ``game_id`` (the home page's form) only a short code can name the game."""
    short = as_join_code(code)
    if short is not None:
        for row in store.games_with_join_code(db, short):
            if game_id is None or row.id == game_id:
                try:
                    return row, codes_of(row, secret).edit
                except CodesUnknown:
                    return None
        return None
    found = store.get_game(db, game_id) if game_id is not None else None
    code = code.strip().rsplit("/", 1)[-1].rsplit("#", 1)[-1]
    if found is None or not store.check_edit_token(found, code):
        return None
    return found, code


# --- writing boxes --------------------------------------------------------------------------


def record(db: Session, game_id: str, entry: BoxEntry, *, number: int | None = None,
           version: int | None = None, key: str | None = None,
           laid_out: bool = False, max_boxes: int | None = None) -> Written:
    """Record a box at the end of the game.

    ``number``: the box this entry is for (from 1); if that box was recorded meanwhile,
    :class:`BoxTaken` shows what stands there. ``version``: the game version the entry
    was made against. ``laid_out``: store hands given as cards as the ruling laid them
    out (C8), so the stored box is exactly what the preview showed. ``max_boxes``:
    the most boxes the server keeps in one game (:class:`TooManyBoxes` past it).
    """
    digest = _digest("record", entry.to_json(), number)
    with store.writing(db, game_id):
        table = _current(db, game_id)
        if (done := _repeat(db, table, key, digest)) is not None:
            return done
        _check_version(table, version)
        if number is not None and number != table.next_number:
            if 1 <= number < table.next_number:
                assert table.sheet is not None
                raise BoxTaken(table, number, table.sheet.boxes[number - 1])
            raise MalformedError(
                f"box {number} cannot be recorded: the next box is {table.next_number}",
                "number")
        _check_room(table.next_number, max_boxes)
        sheet = table.scored_with(entry)
        if laid_out:
            entry, sheet = _laid_out(entry, sheet, table, None)
        result = store.append_box(
            db, game_id, table.version, _stored_entry(entry),
            rulings=_changed_rulings(table, sheet, None), summary=store.summarize(sheet),
            key=_key(key, digest))
    return _written(db, game_id, result)


def correct(db: Session, game_id: str, box_id: int, entry: BoxEntry, *,
            version: int | None = None, key: str | None = None,
            laid_out: bool = False) -> Written:
    """Correct a live box; every box after it is rescored."""
    digest = _digest("correct", entry.to_json(), box_id)
    with store.writing(db, game_id):
        table = _current(db, game_id)
        if (done := _repeat(db, table, key, digest)) is not None:
            return done
        _check_version(table, version)
        _still_open(table)
        place = _place(table, box_id)
        sheet = table.scored_with(entry, place)
        if laid_out:
            entry, sheet = _laid_out(entry, sheet, table, place)
        result = store.replace_box(
            db, game_id, box_id, table.version, _stored_entry(entry),
            rulings=_changed_rulings(table, sheet, box_id), summary=store.summarize(sheet),
            key=_key(key, digest))
    return _written(db, game_id, result)


def delete(db: Session, game_id: str, box_id: int, *, version: int | None = None,
           key: str | None = None) -> Written:
    """Delete a live box (it stays in its history); the boxes after it are rescored."""
    digest = _digest("delete", None, box_id)
    with store.writing(db, game_id):
        table = _current(db, game_id)
        if (done := _repeat(db, table, key, digest)) is not None:
            return done
        _check_version(table, version)
        _still_open(table)
        sheet = table.scored_without(_place(table, box_id))
        result = store.delete_box(db, game_id, box_id, table.version,
                                  rulings=_changed_rulings(table, sheet, box_id),
                                  summary=store.summarize(sheet), key=_key(key, digest))
    return _written(db, game_id, result)


UNDONE = "undone"
"""The revision an undo writes in a box's history."""


@dataclass(frozen=True)
class Undone(Written):
    """What an undo did: ``action`` is the write it took back ("recorded", "edited" or
    "deleted") and ``number`` where the box stands (or stood) on the sheet, from 1."""

    action: str = ""
    number: int = 0


class NothingToUndo(Conflict):
    """The write to undo is not the game's last one (another phone wrote since), or the
    box's last change was itself an undo: ``table`` is the game now."""


def undo(db: Session, game_id: str, box_id: int, *, version: int,
         key: str | None = None) -> Undone:
    """Take back the last write to a box, made when the game reached ``version``: a
    recorded box is deleted, a corrected box gets its previous version back, a deleted
    box returns to its place. The undo is a revision in the box's history like any
    other change, and only while nothing else was written to the game since."""
    digest = _digest("undo", version, box_id)
    with store.writing(db, game_id):
        table = _current(db, game_id)
        if (done := _repeat(db, table, key, digest)) is not None:
            return _undone(db, table, done, box_id)
        _still_open(table)
        box = store.get_box(db, table.row, box_id)
        if box is None:
            raise NotFound(f"box {box_id} is not in this game")
        revisions = store.history(db, box)
        last = revisions[-1] if revisions else None
        if version != table.version or last is None or last.game_version != version:
            raise NothingToUndo(table, "another phone changed this game since: nothing "
                                "was undone; look at the sheet and correct the box there")
        if last.action == UNDONE or (len(revisions) < 2 and last.action != "recorded"):
            raise NothingToUndo(table, "this change was already undone")
        result = _take_back(db, table, box, last.action,
                            revisions[-2].entry if len(revisions) > 1 else {},
                            _key(key, digest))
    written = _written(db, game_id, result)
    return _undone(db, written.table, written, box_id, last.action)


def _take_back(db: Session, table: Table, box: store.BoxRow, action: str,
               before: dict[str, Any], key: store.Key | None) -> store.WriteResult:
    """The write that undoes ``action`` on ``box`` (``before``: its entry before it)."""
    if action == "recorded":
        sheet = table.scored_without(_place(table, box.id))
        return store.delete_box(db, table.id, box.id, table.version,
                                rulings=_changed_rulings(table, sheet, box.id),
                                summary=store.summarize(sheet), key=key, action=UNDONE)
    if action == "edited":
        place = _place(table, box.id)
        entry = BoxEntry.from_stored(before)
        sheet = table.scored_with(entry, place)
        return store.replace_box(db, table.id, box.id, table.version, _stored_entry(entry),
                                 rulings=_changed_rulings(table, sheet, box.id),
                                 summary=store.summarize(sheet), key=key, action=UNDONE)
    place = store.live_place(db, box.id)
    boxes = list(table.game.boxes)
    boxes.insert(place, BoxEntry.from_stored(box.entry).relabelled(box.id))
    sheet = _score(table.game.with_boxes(boxes))
    return store.restore_box(db, table.id, box.id, table.version,
                             rulings=_changed_rulings(table, sheet, box.id),
                             summary=store.summarize(sheet), key=key, action=UNDONE)


def _undone(db: Session, table: Table, written: Written, box_id: int,
            action: str | None = None) -> Undone:
    """An undo's answer (a repeated undo finds the action it took back in the history)."""
    if action is None:
        box = store.get_box(db, table.row, box_id)
        revisions = store.history(db, box) if box is not None else []
        action = revisions[-2].action if len(revisions) > 1 else ""
    place = table.place_of(box_id)
    if place is None:
        box = store.get_box(db, table.row, box_id)
        place = store.live_place(db, box.id) if box is not None else 0
    return Undone(written.table, box_id, written.repeated, action=action, number=place + 1)


# --- the game itself ---------------------------------------------------------------------


class RulesRefused(LedgerError):
    """New house rules under which a stored box is no longer valid: nothing changed.
    ``number`` is that box (from 1), ``error`` the engine's reason."""

    def __init__(self, number: int, error: engine.ScorekeeperError) -> None:
        super().__init__(f"box {number} is not valid under these rules: {error.message}")
        self.number, self.error = number, error
        self.where = error.where


def end(db: Session, game_id: str, *, version: int | None = None,
        key: str | None = None) -> Written:
    """End the game by agreement after its last box (K5; a table that breaks up): no game
    or box bonus, the totals as they stand settled; no box may follow. A game already
    over (or ended) is refused, naming how it ended."""
    digest = _digest("end", None, None)
    with store.writing(db, game_id):
        table = _current(db, game_id)
        if (done := _repeat(db, table, key, digest)) is not None:
            return done
        _check_version(table, version)
        if table.sheet is None:
            raise MalformedError(f"this game cannot be scored, so not ended: {table.error}",
                                 "ended")
        if table.sheet.game_over:
            how = ("ended by agreement" if table.game.ended else
                   f"over: {table.sheet.winner} won")
            raise GameOverError(f"the game is already {how}", "ended")
        ended = dataclasses.replace(table.game, ended="agreed")
        sheet = _score(ended)
        result = store.amend_game(
            db, game_id, table.version,
            store.Amendment("ended", {"after_box": len(table.boxes),
                                      "totals": dict(sheet.totals)}, ended="agreed"),
            rulings={}, summary=store.summarize(sheet), key=_key(key, digest))
    return _written(db, game_id, result)


def change_rules(db: Session, game_id: str, settings: Mapping[str, Any], *,
                 version: int | None = None, key: str | None = None) -> Written:
    """Play on under other house rules: ``settings`` (those that differ from the preset)
    replace the game's, and the whole game is rescored under them. A stored box the new
    rules make invalid is :class:`RulesRefused`, naming it; nothing changes then."""
    new = dict(settings)
    digest = _digest("rules", new, None)
    with store.writing(db, game_id):
        table = _current(db, game_id)
        if (done := _repeat(db, table, key, digest)) is not None:
            return done
        _check_version(table, version)
        _still_open(table)
        engine.find_rules(table.game.rules).with_settings(new)  # the settings alone first
        try:
            sheet = _score(dataclasses.replace(table.game, settings=new))
        except engine.ScorekeeperError as err:
            raise RulesRefused(_box_number(err.where) or len(table.boxes), err) from None
        before = dict(table.row.settings)
        result = store.amend_game(
            db, game_id, table.version,
            store.Amendment("rules", {"before": before, "after": new}, settings=new),
            rulings=_changed_rulings(table, sheet, None),
            summary=store.summarize(sheet), key=_key(key, digest))
    return _written(db, game_id, result)


def _box_number(where: str | None) -> int | None:
    """The box (from 1) an engine error's ``where`` names (``boxes[3]...`` is box 4)."""
    if where and where.startswith("boxes[") and "]" in where:
        index = where[len("boxes["):where.index("]")]
        if index.isdigit():
            return int(index) + 1
    return None


def _check_version(table: Table, version: int | None) -> None:
    if version is not None and version != table.version:
        raise Stale(table, f"the game has changed: it is now at version {table.version}")


def _place(table: Table, box_id: int) -> int:
    place = table.place_of(box_id)
    if place is None:
        raise NotFound(f"box {box_id} is not in this game (was it deleted?)")
    return place


def _repeat(db: Session, table: Table, key: str | None, digest: str) -> Written | None:
    """The first result of a write this one repeats (same key), if any."""
    if key is None:
        return None
    earlier = store.repeated(db, table.id, key)
    if earlier is None:
        return None
    if earlier.digest is not None and earlier.digest != digest:
        raise KeyReused("this key was already used for another change to this game: "
                        "nothing was stored; send the change with a new key")
    db.rollback()
    return Written(table, earlier.box_id, repeated=True)


def _key(key: str | None, digest: str) -> store.Key | None:
    return None if key is None else store.Key(key, digest)


def _written(db: Session, game_id: str, result: store.WriteResult) -> Written:
    return Written(_current(db, game_id), result.box_id, result.repeated, result.version)


def _digest(action: str, body: Any, target: Any) -> str:
    """What a write changes, as a hash: a resent key must carry the same change."""
    text = json.dumps([action, body, target], sort_keys=True, ensure_ascii=True)
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def _laid_out(entry: BoxEntry, sheet: Sheet, table: Table,
              place: int | None) -> tuple[BoxEntry, Sheet]:
    """The box with every hand given as cards replaced by the ruling's layout of it,
    if the engine rules the laid-out box the same way (else the box as entered)."""
    ruling = sheet.boxes[len(table.boxes) if place is None else place]
    hands = {player: ruling.hands[player].as_declared()
             if hand.form == "cards" and player in ruling.hands else hand
             for player, hand in entry.hands.items()}
    declared = dataclasses.replace(entry, hands=hands)
    if declared == entry:
        return entry, sheet
    try:
        again = table.scored_with(declared, place)
    except engine.ScorekeeperError:
        return entry, sheet
    ruled = again.boxes[len(table.boxes) if place is None else place]
    if (ruled.credits, ruled.penalties) != (ruling.credits, ruling.penalties):
        return entry, sheet
    return declared, again


def _stored_entry(entry: BoxEntry) -> dict[str, Any]:
    """A box as the store keeps it: its CONTRACT.md input, less the id (the row's)."""
    return entry.relabelled(None).to_json()


def _stored_ruling(box: SheetBox) -> dict[str, Any]:
    body = box.to_json()
    body.pop("id", None)
    return body


def _changed_rulings(table: Table, sheet: Sheet,
                     changed: int | None) -> store.Rulings:
    """Every live box's new ruling that differs from the one stored, by box id; the
    changed box's (a new one: ``None``) always. A correction early in a game can change
    every ruling after it; most writes change none but their own."""
    before = {box.id: box for box in table.sheet.boxes} if table.sheet else {}
    rulings: dict[int | None, dict[str, Any]] = {}
    for box in sheet.boxes:
        box_id = box.id if isinstance(box.id, int) else None
        if box_id == changed or box_id is None or before.get(box_id) != box:
            rulings[box_id] = _stored_ruling(box)
    return rulings


__all__ = [
    "JOIN_ALPHABET",
    "JOIN_LENGTH",
    "BoxTaken",
    "CodesUnknown",
    "Conflict",
    "KeyReused",
    "LedgerError",
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
    "import_game",
    "joined",
    "load",
    "make_codes",
    "record",
    "rematch",
    "renew_codes",
    "start",
    "undo",
]
