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

Every write goes through one prologue (:func:`_held`: hold the game, answer a repeated
key, check the version) and builds the game after it from the game before it and the
sheet it scored (:meth:`Table.after`): a write scores its game once. The tables and
errors live in :mod:`.table`, the codes that let a phone keep score in :mod:`.codes`.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from sqlalchemy.orm import Session

from .. import engine, store
from ..engine.contract import BoxEntry, GameEntry, Sheet, SheetBox
from ..engine.errors import GameOverError, MalformedError
from ..engine.history import Kind
from ..engine.vocabulary import vocabulary_for
from . import cache
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


def _check_room(boxes: int, max_boxes: int | None) -> None:
    """Refuse a game of more than ``max_boxes`` boxes (the engine's own bound at most)."""
    most = min(max_boxes or engine.MAX_BOXES, engine.MAX_BOXES)
    if boxes > most:
        raise TooManyBoxes(most + 1, most)


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
        try:  # the game's own word for a deal: a two-hand game says hand
            deal = vocabulary_for(table.rules()).deal
        except engine.ScorekeeperError:  # rules this server no longer knows
            deal = "box"
        raise GameOverError(
            f"the players ended this game by agreement after {deal} "
            f"{len(table.boxes)}: it stays as it was ended; start a new "
            "game (Rematch) to play on",
            "ended",
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
    return Started(_current(db, row.id), edit_code)


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


# --- the one way a write goes ---------------------------------------------------------------

Done = TypeVar("Done", bound=Written)


def _held(
    db: Session,
    game_id: str,
    digest: str,
    key: str | None,
    version: int | None,
    write: Callable[[Table, store.Key | None], Done],
) -> Done | Written:
    """Every write's prologue, once: hold the game from its read to the write's commit,
    answer a repeated key with the first write's result (:class:`KeyReused` for other
    content under it), refuse a stale ``version`` (:class:`Stale`); then ``write`` the
    change to the game as read, with the key to store."""
    with store.writing(db, game_id):
        table = _current(db, game_id)
        if key is not None:
            earlier = store.repeated(db, table.id, key)
            if earlier is not None:
                if earlier.digest is not None and earlier.digest != digest:
                    raise KeyReused(
                        "this key was already used for another change to this "
                        "game: nothing was stored; send the change with a new "
                        "key"
                    )
                store.let_go(db)
                return Written(table, earlier.box_id, repeated=True)
        if version is not None and version != table.version:
            raise Stale(table, f"the game has changed: it is now at version {table.version}")
        return write(table, None if key is None else store.Key(key, digest))


def _after(
    db: Session,
    before: Table,
    result: store.WriteResult,
    game: GameEntry,
    rows: list[store.BoxRow],
    scoring: engine.Scoring,
    summary: dict[str, Any],
    **changed: Any,
) -> Written:
    """What a write did, the game after it built from the game before it (still held);
    a write the store found repeated meanwhile answers the game as it is."""
    if result.repeated:
        return Written(_current(db, before.id), result.box_id, True, result.version)
    after = before.after(result, game, rows, scoring, summary, **changed)
    cache.keep(db, after)
    return Written(after, result.box_id, written_version=result.version)


def _rows(table: Table) -> list[store.BoxRow]:
    return [box.row for box in table.boxes]


# --- writing boxes --------------------------------------------------------------------------


def record(
    db: Session,
    game_id: str,
    entry: BoxEntry,
    *,
    number: int | None = None,
    version: int | None = None,
    key: str | None = None,
    laid_out: bool = False,
    max_boxes: int | None = None,
    phone: str | None = None,
) -> Written:
    """Record a box at the end of the game.

    ``number``: the box this entry is for (from 1); if that box was recorded meanwhile,
    :class:`BoxTaken` shows what stands there. ``version``: the game version the entry
    was made against. ``laid_out``: store hands given as cards as the ruling laid them
    out (C8), so the stored box is exactly what the preview showed. ``max_boxes``:
    the most boxes the server keeps in one game (:class:`TooManyBoxes` past it).
    ``phone``: which phone wrote it ("Bo's phone"), kept in the box's history (as
    :func:`correct`, :func:`delete` and :func:`undo` keep it).
    """

    def write(table: Table, stored_key: store.Key | None) -> Written:
        if number is not None and number != table.next_number:
            if 1 <= number < table.next_number:
                ruling = table.boxes[number - 1].ruling
                assert ruling is not None
                raise BoxTaken(table, number, ruling)
            raise MalformedError(
                f"box {number} cannot be recorded: the next box is {table.next_number}", "number"
            )
        _check_room(table.next_number, max_boxes)
        new, scoring = entry, table.scoring_with(entry)
        sheet = sheet_of(scoring)
        if laid_out:
            new, scoring, sheet = _laid_out(entry, scoring, sheet, table, None)
        stored, summary = _stored_entry(new), store.summarize(sheet)
        result = store.append_box(
            db,
            game_id,
            table.version,
            stored,
            rulings=_changed_rulings(table, sheet, None),
            summary=summary,
            key=stored_key,
            phone=phone,
        )
        if result.repeated:
            return _after(db, table, result, table.game, [], scoring, summary)
        box_id = result.box_id
        assert box_id is not None
        game = table.game.with_boxes([*table.game.boxes, new.relabelled(box_id)])
        return _after(
            db,
            table,
            result,
            game,
            [*_rows(table), store.BoxRow(box_id, stored, 1)],
            scoring.labelled(box_id),
            summary,
        )

    return _held(db, game_id, _digest("record", entry.to_json(), number), key, version, write)


def correct(
    db: Session,
    game_id: str,
    box_id: int,
    entry: BoxEntry,
    *,
    version: int | None = None,
    key: str | None = None,
    laid_out: bool = False,
    director: bool = False,
    phone: str | None = None,
) -> Written:
    """Correct a live box; every box after it is rescored. ``director``: the event's
    director corrects it, even after the table's game was ended (issue 25)."""

    def write(table: Table, stored_key: store.Key | None) -> Written:
        if not director:
            _still_open(table)
        place = _place(table, box_id)
        return _replace(db, table, place, entry, stored_key, laid_out=laid_out, phone=phone)

    return _held(db, game_id, _digest("correct", entry.to_json(), box_id), key, version, write)


def _replace(
    db: Session,
    table: Table,
    place: int,
    entry: BoxEntry,
    key: store.Key | None,
    *,
    laid_out: bool = False,
    action: str = "edited",
    phone: str | None = None,
) -> Written:
    """Put ``entry`` in place of the live box at ``place`` (a correction, or an undo
    that gives a box its previous version back)."""
    box = table.boxes[place]
    new, scoring = entry, table.scoring_with(entry, place)
    sheet = sheet_of(scoring)
    if laid_out:
        new, scoring, sheet = _laid_out(entry, scoring, sheet, table, place)
    stored, summary = _stored_entry(new), store.summarize(sheet)
    result = store.replace_box(
        db,
        table.id,
        box.id,
        table.version,
        stored,
        rulings=_changed_rulings(table, sheet, box.id),
        summary=summary,
        key=key,
        action=action,
        phone=phone,
    )
    rows = _rows(table)
    rows[place] = store.BoxRow(box.id, stored, box.row.revision + 1)
    return _after(
        db, table, result, table.game.with_boxes(table.entries_with(new, place)), rows, scoring, summary
    )


def delete(
    db: Session,
    game_id: str,
    box_id: int,
    *,
    version: int | None = None,
    key: str | None = None,
    director: bool = False,
    phone: str | None = None,
) -> Written:
    """Delete a live box (it stays in its history); the boxes after it are rescored.
    ``director``: the event's director deletes it, even after the game was ended."""

    def write(table: Table, stored_key: store.Key | None) -> Written:
        if not director:
            _still_open(table)
        return _delete(db, table, _place(table, box_id), stored_key, phone=phone)

    return _held(db, game_id, _digest("delete", None, box_id), key, version, write)


def _delete(
    db: Session,
    table: Table,
    place: int,
    key: store.Key | None,
    action: str = "deleted",
    phone: str | None = None,
) -> Written:
    """Take the live box at ``place`` off the sheet (a deletion, or an undone record)."""
    box = table.boxes[place]
    game = table.game.with_boxes(b for i, b in enumerate(table.game.boxes) if i != place)
    scoring, sheet, summary = _scored(game)
    result = store.delete_box(
        db,
        table.id,
        box.id,
        table.version,
        rulings=_changed_rulings(table, sheet, box.id),
        summary=summary,
        key=key,
        action=action,
        phone=phone,
    )
    rows = _rows(table)
    del rows[place]
    return _after(db, table, result, game, rows, scoring, summary)


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


def undo(
    db: Session, game_id: str, box_id: int, *, version: int, key: str | None = None, phone: str | None = None
) -> Undone:
    """Take back the last write to a box, made when the game reached ``version``: a
    recorded box is deleted, a corrected box gets its previous version back, a deleted
    box returns to its place. The undo is a revision in the box's history like any
    other change, and only while nothing else was written to the game since."""

    def write(table: Table, stored_key: store.Key | None) -> Undone:
        _still_open(table)
        box = store.get_box(db, table.row, box_id)
        if box is None:
            raise NotFound(f"box {box_id} is not in this game")
        revisions = store.history(db, box)
        last = revisions[-1] if revisions else None
        if version != table.version or last is None or last.game_version != version:
            raise NothingToUndo(
                table,
                "another phone changed this game since: nothing "
                "was undone; look at the sheet and correct the box there",
            )
        if last.action == UNDONE or (len(revisions) < 2 and last.action != "recorded"):
            raise NothingToUndo(table, "this change was already undone")
        written = _take_back(
            db, table, box, last.action, revisions[-2].entry if len(revisions) > 1 else {}, stored_key, phone
        )
        return _undone(db, written.table, written, box_id, last.action)

    done = _held(db, game_id, _digest("undo", version, box_id), key, None, write)
    if isinstance(done, Undone):
        return done
    return _undone(db, done.table, done, box_id)


def _take_back(
    db: Session,
    table: Table,
    box: store.BoxRow,
    action: str,
    before: dict[str, Any],
    key: store.Key | None,
    phone: str | None = None,
) -> Written:
    """The write that undoes ``action`` on ``box`` (``before``: its entry before it)."""
    if action == "recorded":
        return _delete(db, table, _place(table, box.id), key, action=UNDONE, phone=phone)
    if action == "edited":
        return _replace(
            db, table, _place(table, box.id), BoxEntry.from_stored(before), key, action=UNDONE, phone=phone
        )
    place = store.live_place(db, box.id)
    entries = list(table.game.boxes)
    entries.insert(place, BoxEntry.from_stored(box.entry).relabelled(box.id))
    game = table.game.with_boxes(entries)
    scoring, sheet, summary = _scored(game)
    result = store.restore_box(
        db,
        table.id,
        box.id,
        table.version,
        rulings=_changed_rulings(table, sheet, box.id),
        summary=summary,
        key=key,
        action=UNDONE,
        phone=phone,
    )
    rows = _rows(table)
    rows.insert(place, store.BoxRow(box.id, box.entry, box.revision + 1))
    return _after(db, table, result, game, rows, scoring, summary)


def _undone(db: Session, table: Table, written: Written, box_id: int, action: str | None = None) -> Undone:
    """An undo's answer (a repeated undo finds the action it took back in the history)."""
    if action is None:
        box = store.get_box(db, table.row, box_id)
        revisions = store.history(db, box) if box is not None else []
        action = revisions[-2].action if len(revisions) > 1 else ""
    place = table.place_of(box_id)
    if place is None:
        box = store.get_box(db, table.row, box_id)
        place = store.live_place(db, box.id) if box is not None else 0
    return Undone(
        written.table, box_id, written.repeated, written.written_version, action=action, number=place + 1
    )


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


def _box_number(where: str | None) -> int | None:
    """The box (from 1) an engine error's ``where`` names (``boxes[3]...`` is box 4)."""
    if where and where.startswith("boxes[") and "]" in where:
        index = where[len("boxes[") : where.index("]")]
        if index.isdigit():
            return int(index) + 1
    return None


def _place(table: Table, box_id: int) -> int:
    place = table.place_of(box_id)
    if place is None:
        raise NotFound(f"box {box_id} is not in this game (was it deleted?)")
    return place


def _digest(action: str, body: Any, target: Any) -> str:
    """What a write changes, as a hash: a resent key must carry the same change."""
    text = json.dumps([action, body, target], sort_keys=True, ensure_ascii=True)
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def _laid_out(
    entry: BoxEntry, scoring: engine.Scoring, sheet: Sheet, table: Table, place: int | None
) -> tuple[BoxEntry, engine.Scoring, Sheet]:
    """The box with every hand given as cards replaced by the ruling's layout of it,
    if the engine rules the laid-out box the same way (else the box as entered)."""
    ruling = sheet.boxes[len(table.boxes) if place is None else place]
    hands = {
        player: ruling.hands[player].as_declared()
        if hand.form == "cards" and player in ruling.hands
        else hand
        for player, hand in entry.hands.items()
    }
    declared = dataclasses.replace(entry, hands=hands)
    if declared == entry:
        return entry, scoring, sheet
    try:
        scored = table.scoring_with(declared, place)
    except engine.ScorekeeperError:
        return entry, scoring, sheet
    again = sheet_of(scored)
    ruled = again.boxes[len(table.boxes) if place is None else place]
    if (ruled.credits, ruled.penalties) != (ruling.credits, ruling.penalties):
        return entry, scoring, sheet
    return declared, scored, again


def _stored_entry(entry: BoxEntry) -> dict[str, Any]:
    """A box as the store keeps it: its CONTRACT.md input, less the id (the row's)."""
    return entry.relabelled(None).to_json()


def _stored_ruling(box: SheetBox) -> dict[str, Any]:
    body = box.to_json()
    body.pop("id", None)
    return body


def _scored(game: GameEntry) -> tuple[engine.Scoring, Sheet, dict[str, Any]]:
    """``game`` scored whole: its scoring, its sheet and the summary the store keeps."""
    scoring = scoring_of(game)
    sheet = sheet_of(scoring)
    return scoring, sheet, store.summarize(sheet)


def _changed_rulings(table: Table, sheet: Sheet, changed: int | None) -> store.Rulings:
    """Every live box's new ruling that differs from the one stored, by box id; the
    changed box's (a new one: ``None``) always. A correction early in a game can change
    every ruling after it; most writes change none but their own."""
    before = {box.id: box.ruling for box in table.boxes}
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
    "undo",
]
