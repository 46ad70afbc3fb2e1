"""Writing boxes: record, correct, delete and undo, each through the ledger's one
prologue (:func:`.prologue.held`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy.orm import Session

from .. import store
from ..engine.contract import BoxEntry
from ..engine.errors import GameOverError, MalformedError
from .prologue import (
    _after,
    _changed_rulings,
    _check_room,
    _digest,
    _held,
    _laid_out,
    _place,
    _rows,
    _scored,
    _still_open,
    _stored_entry,
)
from .table import (
    BoxTaken,
    Conflict,
    NotFound,
    Table,
    Written,
    sheet_of,
)

# --- writing boxes --------------------------------------------------------------------------


def _check_round_limit(db: Session, table: Table) -> None:
    """Refuse a box at an event's table that has played its round's scored boxes (E7: a
    round that ends after n scored boxes; a misdeal does not count). The sheet offers
    no next box there; a phone that still shows the form is told why."""
    limit = store.events.box_limit_of_game(db, table.id)
    if limit is None:
        return
    if sum(1 for box in table.boxes if box.ruling is not None and box.ruling.winner) >= limit:
        raise GameOverError(
            f"this table has played the round's {limit} scored boxes (E7): the round is over "
            "here; wait for the director to seat the next round",
            "ending",
        )


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
        _check_round_limit(db, table)
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
