"""A stored game as the use cases and pages see it, and the ledger's errors.

A :class:`Table` holds one record per live box (:class:`LiveBox`: its stored row, its
typed entry and its ruling) beside the game's row, the whole game as CONTRACT.md has
it and the engine's score sheet. A write builds the table after it from the table
before it and the sheet it scored (:meth:`Table.after`), so the game is scored once a
write and never read back.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .. import engine, store
from ..engine.contract import BoxEntry, GameEntry, Sheet, SheetBox
from ..engine.substitutes import Substitute, read_substitutes


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


@dataclass(frozen=True)
class LiveBox:
    """One live box of a stored game: its row (id, entry as stored, revision), its typed
    entry (labelled with the row's id) and its ruling on the sheet (None when the engine
    cannot score the game)."""

    row: store.BoxRow
    entry: BoxEntry
    ruling: SheetBox | None

    @property
    def id(self) -> int:
        return self.row.id

    @property
    def revision(self) -> int:
        """How many times the box was written (1: never changed)."""
        return self.row.revision


@dataclass(frozen=True)
class Table:
    """A stored game: its row, its live boxes, the game as CONTRACT.md JSON would have
    it, the engine's state after its last box and its score sheet (or why the engine
    cannot score it: a game stored under older rules, say)."""

    row: store.GameRow
    boxes: tuple[LiveBox, ...]
    game: GameEntry
    scoring: engine.Scoring | None
    sheet: Sheet | None
    error: str | None

    @classmethod
    def of(cls, row: store.GameRow, boxes: Sequence[store.BoxRow]) -> Table:
        """The game as read from the store, scored."""
        game = store.game_entry(row, boxes)
        try:
            scoring = engine.scoring(game)
        except engine.ScorekeeperError as err:
            return cls.made(row, boxes, game, None, err.message)
        return cls.made(row, boxes, game, scoring)

    @classmethod
    def made(
        cls,
        row: store.GameRow,
        rows: Iterable[store.BoxRow],
        game: GameEntry,
        scoring: engine.Scoring | None,
        error: str | None = None,
    ) -> Table:
        """The table of a game whose entries (``game.boxes``, labelled) and box rows
        are already paired, with the engine's state after them."""
        sheet = None if scoring is None else sheet_of(scoring)
        rulings: Sequence[SheetBox | None] = sheet.boxes if sheet is not None else [None] * len(game.boxes)
        live = tuple(
            LiveBox(box, entry, ruled) for box, entry, ruled in zip(rows, game.boxes, rulings, strict=True)
        )
        return cls(row, live, game, scoring, sheet, error)

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
    def substitutes(self) -> tuple[Substitute, ...]:
        """Who plays a seat from which box, and for whom it counts (E5)."""
        return read_substitutes(self.row.substitutes)

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
        return None if place is None else self.boxes[place].ruling

    def scoring_with(self, entry: BoxEntry, place: int | None = None) -> engine.Scoring:
        """The engine's state with ``entry`` added at the end (ruled alone), or put at
        ``place`` in place of the box there (raises the engine's errors)."""
        if place is None:
            if self.scoring is not None:
                return engine.scoring_with(self.scoring, entry)
            return scoring_of(self.game.with_boxes([*self.game.boxes, entry]))
        return scoring_of(self.game.with_boxes(self.entries_with(entry, place)))

    def entries_with(self, entry: BoxEntry, place: int) -> list[BoxEntry]:
        """The game's entries with ``entry`` in place of the box at ``place``."""
        boxes = list(self.game.boxes)
        boxes[place] = entry.relabelled(boxes[place].id)
        return boxes

    def scored_with(self, entry: BoxEntry, place: int | None = None) -> Sheet:
        """The sheet with ``entry`` added at the end, or put at ``place`` in place of the
        box there (raises the engine's errors). An added box is ruled alone."""
        return sheet_of(self.scoring_with(entry, place))

    def scored_without(self, place: int) -> Sheet:
        """The sheet with the box at ``place`` deleted."""
        return sheet_of(
            scoring_of(self.game.with_boxes(box for i, box in enumerate(self.game.boxes) if i != place))
        )

    def after(
        self,
        result: store.WriteResult,
        game: GameEntry,
        rows: Iterable[store.BoxRow],
        scoring: engine.Scoring,
        summary: dict[str, object],
        **changed: object,
    ) -> Table:
        """The table a write made: this one's row at the write's version with its new
        summary (and ``changed`` fields), ``game`` with its labelled entries paired with
        ``rows``, and the engine's state that scored them."""
        stamp = {} if result.updated_at is None else {"updated_at": result.updated_at}
        row = dataclasses.replace(self.row, version=result.version, summary=summary, **stamp, **changed)  # type: ignore[arg-type]
        return Table.made(row, rows, game, scoring)


def scoring_of(game: GameEntry) -> engine.Scoring:
    """The engine's state after every box of ``game`` (raises the engine's errors)."""
    return engine.scoring(game)


def sheet_of(scoring: engine.Scoring) -> Sheet:
    """The score sheet of the boxes scored so far."""
    return engine.sheet(scoring)


@dataclass(frozen=True)
class Written:
    """What a write did: the game after it, the box it touched (None for a deleted
    box's id on the sheet) and whether it only repeated an earlier write.
    ``written_version`` is the version this write made (a repeat answers the game as it
    is now, which may already be further on)."""

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


__all__ = [
    "BoxTaken",
    "Conflict",
    "KeyReused",
    "LedgerError",
    "LiveBox",
    "NotFound",
    "Stale",
    "Started",
    "Table",
    "TooManyBoxes",
    "Written",
    "scoring_of",
    "sheet_of",
]
