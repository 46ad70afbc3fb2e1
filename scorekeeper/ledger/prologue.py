"""The one way a game write goes (the ledger's prologue) and what every write shares:
holding the game, answering a repeated key, refusing a stale version, building the game
after the write from the game before it, and the stored forms of a box and a ruling."""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Callable
from typing import Any, TypeVar

from sqlalchemy.orm import Session

from .. import engine, store
from ..engine.contract import BoxEntry, GameEntry, Sheet, SheetBox
from ..engine.errors import GameOverError
from ..engine.vocabulary import vocabulary_for
from . import cache
from .table import (
    KeyReused,
    NotFound,
    Stale,
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


def load(db: Session, game_id: str, row: store.GameRow | None = None) -> Table | None:
    """The game with its live boxes, scored; None if there is none. A game unchanged
    since it was last scored in this process is not scored again (:mod:`.cache`);
    ``row``: its row as this transaction read it already."""
    return cache.scored(db, game_id, Table.of, row=row)


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
